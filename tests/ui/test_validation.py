import gradio as gr
import pytest

from playground import generate
from playground.data import CharTokenizer
from playground.generate import SamplingConfig
from playground.ui.inputs.validation import (
    MAX_BEAM_WIDTH,
    MAX_INPUT_CHARS,
    MAX_NEW_TOKENS,
    check_choice,
    check_known_chars,
    check_number,
    check_text,
    fail,
    refused,
)
from playground.ui.page.forms import Refused
from playground.ui.tabs.generate import GenerateForm


def message(excinfo) -> str:
    return excinfo.value.message


def test_empty_and_over_long_text_are_refused_with_the_limit():
    with pytest.raises(gr.Error) as empty:
        check_text("   ", "en")
    assert "empty" in message(empty)
    with pytest.raises(gr.Error) as long:
        check_text("x" * (MAX_INPUT_CHARS + 1), "en")
    assert str(MAX_INPUT_CHARS) in message(long) and str(MAX_INPUT_CHARS + 1) in message(long)
    with pytest.raises(gr.Error) as chinese:
        check_text("", "zh-CN")
    assert "空" in message(chinese)
    assert check_text("ok", "en") == "ok"


def test_unknown_characters_are_named():
    tokenizer = CharTokenizer("abc")
    with pytest.raises(gr.Error) as excinfo:
        check_known_chars("abxcz", tokenizer, "tiny", "en")
    assert "'x'" in message(excinfo) and "'z'" in message(excinfo) and "tiny" in message(excinfo)
    check_known_chars("cab", tokenizer, "tiny", "en")


def test_numbers_outside_their_range_name_the_range():
    with pytest.raises(gr.Error) as excinfo:
        check_number(7.5, "en", "temperature", 0.05, 5.0)
    assert "0.05" in message(excinfo) and "5.0" in message(excinfo)
    with pytest.raises(gr.Error):
        check_number(float("nan"), "en", "temperature", 0.05, 5.0)
    with pytest.raises(gr.Error):
        check_number(2.5, "en", "top_k", 0, 10, integer=True)
    with pytest.raises(gr.Error):
        check_number(None, "en", "seed", 0, 10, integer=True)
    assert check_number(3.0, "en", "top_k", 0, 10, integer=True) == 3


def test_choices_list_what_is_allowed():
    with pytest.raises(gr.Error) as excinfo:
        check_choice("topk", ("greedy", "sample"), "en", "strategy")
    assert "greedy, sample" in message(excinfo)


def test_an_error_toast_has_its_title_in_the_session_language():
    assert fail("zh-CN", "err_empty", what="输入").title == "出错了"
    assert fail("en", "err_empty", what="input").title == "Error"


def page_settings(max_new: int = 40, beam_width: int = 3):
    """The decoding settings of a beam search form, refused as the page refuses them."""
    try:
        form = GenerateForm.from_values({"strategy": "beam", "max_new": max_new, "beam_width": beam_width})
    except Refused as error:
        raise refused(error, "en") from None
    return form.sampling(10, "en")


def test_the_pages_decoding_limits_are_the_librarys_or_lower():
    """What the Generate tab accepts at its limits is a valid decoding config; the next value up is refused
    by the page with its limit named, though the library (whose limits admit the exhaustive beam checks'
    widths 9 and 12) would take it."""
    largest = page_settings(MAX_NEW_TOKENS, MAX_BEAM_WIDTH)
    assert (largest.beam_width, largest.max_new_tokens) == (MAX_BEAM_WIDTH, MAX_NEW_TOKENS)
    for field, value, limit in (("max_new", MAX_NEW_TOKENS + 1, MAX_NEW_TOKENS),
                                ("beam_width", MAX_BEAM_WIDTH + 1, MAX_BEAM_WIDTH)):
        with pytest.raises(gr.Error) as excinfo:
            page_settings(**{field: value})
        assert str(limit) in message(excinfo)
    SamplingConfig(strategy="beam", beam_width=12, max_new_tokens=MAX_NEW_TOKENS + 1)
    assert MAX_BEAM_WIDTH < 12 <= generate.MAX_BEAM_WIDTH and MAX_NEW_TOKENS < generate.MAX_NEW_TOKENS


# Upload and training limits: every size a view's cost grows with (the vocabulary too)

@pytest.mark.parametrize("lang, words", [("en", "vocab_size is 300,000, the limit is 8,192"),
                                         ("zh-CN", "vocab_size 为 300,000，上限是 8,192")])
def test_an_upload_with_a_vocabulary_over_the_limit_is_refused_naming_the_field_and_the_limit(tmp_path, lang,
                                                                                             words):
    """300,000 tokens of 4 dimensions are 1.2 M parameters, under the parameter limit: the vocabulary's
    own limit refuses the file."""
    from playground.checkpoint import to_bytes
    from playground.model import ModelConfig, build_model
    from playground.ui.inputs.validation import MAX_MODEL_VOCAB, UPLOAD_LIMITS
    from playground.ui.header.own_models import load_own_model

    config = ModelConfig(arch="decoder_only", vocab_size=300_000, d_model=4, n_heads=1, n_decoder_layers=1, d_ff=8,
                         max_len=16)
    path = tmp_path / "wide.safetensors"
    path.write_bytes(to_bytes(build_model(config), CharTokenizer("ab")))
    assert UPLOAD_LIMITS.check(config.replace(vocab_size=MAX_MODEL_VOCAB)) < UPLOAD_LIMITS.max_parameters
    with pytest.raises(gr.Error) as refused:
        load_own_model(path, lang)
    assert words in message(refused)


@pytest.mark.parametrize("lang, words", [("en", "the tokenizer's size in bytes is"),
                                         ("zh-CN", "分词器的字节数 为")])
def test_an_upload_whose_tokenizer_is_larger_than_its_vocabulary_needs_is_refused_by_name(tmp_path, lang, words):
    import json
    import struct

    from safetensors.torch import load as safetensors_load
    from safetensors.torch import save as safetensors_save

    from playground.checkpoint import to_bytes
    from playground.model import ModelConfig, build_model
    from playground.ui.header.own_models import load_own_model

    config = ModelConfig(arch="decoder_only", vocab_size=8, d_model=4, n_heads=1, n_decoder_layers=1, d_ff=8,
                         max_len=16)
    data = to_bytes(build_model(config), CharTokenizer("ab"))
    metadata = json.loads(data[8:8 + struct.unpack("<Q", data[:8])[0]])["__metadata__"]
    metadata["tokenizer"] = json.dumps({"type": "char", "chars": "ab", "padding": "x" * 200_000})
    path = tmp_path / "padded.safetensors"
    path.write_bytes(safetensors_save(safetensors_load(data), metadata=metadata))
    with pytest.raises(gr.Error) as refused:
        load_own_model(path, lang)
    assert words in message(refused)


def test_a_training_whose_text_has_more_characters_than_a_model_may_have_tokens_is_refused():
    from playground.ui.inputs.validation import MAX_MODEL_VOCAB
    from playground.ui.session.training import check_size, estimated_vocab
    from playground.ui.tabs.train import TrainForm

    spec = TrainForm(task="char-lm", data="pasted").spec("en")
    wide = "".join(chr(0x4E00 + i) for i in range(MAX_MODEL_VOCAB))         # 8,192 characters + 5 specials
    with pytest.raises(gr.Error) as refused:
        check_size(spec, estimated_vocab(spec, wide), "en")
    assert "8,197 different characters" in message(refused) and "at most 8,192" in message(refused)
    check_size(spec, estimated_vocab(spec, wide[:1000]), "en")                # a smaller alphabet is fine


def _checkpoint_bytes() -> bytes:
    from playground.checkpoint import to_bytes
    from playground.model import ModelConfig, build_model

    config = ModelConfig(arch="decoder_only", vocab_size=8, d_model=4, n_heads=1, n_decoder_layers=1, d_ff=8,
                         max_len=16)
    return to_bytes(build_model(config), CharTokenizer("ab"))


def _plain_safetensors() -> bytes:
    import torch
    from safetensors.torch import save as safetensors_save

    return safetensors_save({"weight": torch.zeros(2)})


UPLOADS = {"pickle": lambda: b"\x80\x04\x95 a pickle in disguise" + b"\0" * 64,
           "not_safetensors": lambda: b"PK\x05\x06 not a checkpoint at all" + b"\0" * 64,
           "damaged": lambda: _checkpoint_bytes()[:-16],                  # its last tensor cut short
           "not_playground": _plain_safetensors}


@pytest.mark.parametrize("case, lang, words", [
    ("pickle", "en", "A pickle can run code"), ("pickle", "zh-CN", "pickle 被打开时可能执行代码"),
    ("not_safetensors", "en", "is not a safetensors checkpoint"), ("not_safetensors", "zh-CN", "不是 safetensors 检查点"),
    ("damaged", "en", "cut short or damaged"), ("damaged", "zh-CN", "不完整或已损坏"),
    ("not_playground", "en", "was not saved by the Playground"), ("not_playground", "zh-CN", "不是本游乐场保存的"),
])
def test_a_refused_upload_says_why_in_the_pages_language(tmp_path, case, lang, words):
    from playground.ui.header.own_models import load_own_model

    path = tmp_path / "upload.safetensors"
    path.write_bytes(UPLOADS[case]())
    with pytest.raises(gr.Error) as refused:
        load_own_model(path, lang)
    assert words in message(refused)
    if lang == "zh-CN":
        assert "this file" not in message(refused) and "the header" not in message(refused)
