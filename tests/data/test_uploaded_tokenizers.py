"""A BPE tokenizer read from JSON runs the Playground's own pipeline: its vocabulary and merges on the fixed
byte-level pre-tokenizer and decoder. A file that carries anything else is refused with the parts named,
and a panic inside the `tokenizers` library never escapes encode as a BaseException."""
import copy
import json

import pytest
from tokenizers import Regex
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import pre_tokenizers

from playground.data import BPETokenizer, tokenizer_from_json
from playground.data.bpe_tokenizer import ForeignTokenizer

SLOW_SPLIT = "(a|a){1,22}b"              # time doubles with each step of the repeat bound
PANICKING_SPLIT = "(a|a){1,40}b"         # past Oniguruma's retry limit: the library panics


@pytest.fixture(scope="module")
def saved() -> dict:
    """A tokenizer as the Playground writes it (the JSON of BPETokenizer.to_json)."""
    return json.loads(BPETokenizer.train("the cat sat on the mat. a a a ab", vocab_size=280).to_json())


def changed(saved: dict, **parts) -> str:
    state = copy.deepcopy(saved)
    state["tokenizer"].update(parts)
    return json.dumps(state)


def split_then_bytes(pattern: str) -> dict:
    return {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}]}


@pytest.mark.parametrize("pattern", [SLOW_SPLIT, PANICKING_SPLIT])
def test_a_split_regex_is_refused_and_named(saved, pattern):
    with pytest.raises(ForeignTokenizer) as refused:
        tokenizer_from_json(changed(saved, pre_tokenizer=split_then_bytes(pattern)))
    assert refused.value.parts == ("pre_tokenizer Sequence(Split, ByteLevel)",)


def test_a_blow_up_normalizer_is_refused_and_named(saved):
    replace = {"type": "Replace", "pattern": {"String": "a"}, "content": "x" * 2_000_000}
    with pytest.raises(ForeignTokenizer) as refused:
        tokenizer_from_json(changed(saved, normalizer=replace))
    assert refused.value.parts == ("normalizer Replace",)


@pytest.mark.parametrize("part, value, named", [
    ("decoder", {"type": "WordPiece", "prefix": "##", "cleanup": True}, "decoder WordPiece"),
    ("post_processor", {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                        "use_regex": True}, "post_processor ByteLevel"),
    ("pre_tokenizer", {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                       "use_regex": True}, "pre_tokenizer ByteLevel"),
    ("added_tokens", [{"id": 5, "content": "<script>", "single_word": False, "lstrip": False, "rstrip": False,
                       "normalized": False, "special": False}], "added_tokens 1"),
])
def test_every_other_part_is_refused_and_named(saved, part, value, named):
    with pytest.raises(ForeignTokenizer) as refused:
        tokenizer_from_json(changed(saved, **{part: value}))
    assert refused.value.parts == (named,)


def test_bpe_options_and_type_names_from_the_file_are_named_cleanly(saved):
    state = copy.deepcopy(saved)
    state["tokenizer"]["model"]["dropout"] = 0.5
    state["tokenizer"]["normalizer"] = {"type": "<img src=x onerror=alert(1)>" * 10}
    with pytest.raises(ForeignTokenizer) as refused:
        tokenizer_from_json(json.dumps(state))
    assert refused.value.parts == ("normalizer " + "imgsrcxonerroralert1" * 2, "model dropout")


def test_the_special_tokens_as_added_tokens_are_accepted(saved):
    specials = [{"id": i, "content": name, "single_word": False, "lstrip": False, "rstrip": False,
                 "normalized": False, "special": True}
                for i, name in enumerate(("<pad>", "<bos>", "<eos>", "<unk>", "<mask>"))]
    tokenizer = tokenizer_from_json(changed(saved, added_tokens=specials))
    assert tokenizer.encode("<mask>") == tokenizer.encode("<mask" + ">")
    assert tokenizer.decode(tokenizer.encode("<mask> a")) == "<mask> a"      # typed text, not a special token


def test_a_merge_whose_join_is_missing_is_refused_not_a_panic(saved):
    state = copy.deepcopy(saved)
    state["tokenizer"]["model"]["merges"].append(["a", "x"])                     # "ax" is no token
    with pytest.raises(ValueError, match="does not join"):
        tokenizer_from_json(json.dumps(state))


def test_an_accepted_tokenizer_runs_the_fixed_pipeline_and_encodes_as_before(saved):
    original = BPETokenizer._from_state({"tokenizer": saved["tokenizer"]})
    loaded = tokenizer_from_json(json.dumps(saved))
    pipeline = json.loads(loaded._hf.to_str())
    assert pipeline["normalizer"] is None and pipeline["post_processor"] is None and pipeline["added_tokens"] == []
    assert pipeline["pre_tokenizer"] == {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                                         "use_regex": True}
    assert pipeline["decoder"]["type"] == "ByteLevel"
    text = "the mat sat. 床前明月光 <mask> aab"
    assert loaded.encode(text) == original.encode(text) and loaded.decode(loaded.encode(text)) == text
    assert loaded.merges() == original.merges()


def test_a_panic_inside_the_library_becomes_a_value_error(saved):
    """A tokenizer built in code (as the Hub import does) with a panicking regex: encode raises ValueError."""
    hf = HFTokenizer.from_str(json.dumps(saved["tokenizer"]))
    hf.pre_tokenizer = pre_tokenizers.Split(Regex(PANICKING_SPLIT), "isolated")
    tokenizer = BPETokenizer(hf)
    for encode in (tokenizer.encode, tokenizer.token_spans):
        with pytest.raises(ValueError, match="the tokenizer failed on this text"):
            encode("a" * 40)
