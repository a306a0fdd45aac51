"""Llama- and Qwen2-family checkpoints in the hand-written stack: parity with `transformers`, and refusals.

Every reference model is built from a small config with random weights and saved to a temporary folder
with `save_pretrained`; the playground imports it through the same code path as a download. Nothing
touches the network.
"""
from __future__ import annotations

import json

import pytest
import torch

from playground.data import EOS_ID
from playground.generate import SamplingConfig, Stepper
from playground.hub import HubImportError, load_model
from playground.model import DECODER_SELF, ModelConfig, Trace, build_model

from .helpers import TEXT
from .llama_helpers import qwen_like_tokenizer, save_random_llm

pytest.importorskip("transformers")

TOLERANCE = 1e-4
CONFIGS = [  # family, query heads per key/value head, tied head, rotary base
    ("llama", 1, False, 1e4),
    ("llama", 2, True, 1e6),
    ("llama", 4, False, 1e6),
    ("qwen2", 1, True, 1e6),
    ("qwen2", 2, False, 1e4),
    ("qwen2", 4, True, 1e4),
]


def compare(hf, imported, ids):
    """Max |logit difference| over the source's tokens, max |attention difference| over every layer and query head."""
    with torch.no_grad():
        reference = hf(ids, output_attentions=True)
        trace = Trace()
        ours = imported.model(imported.ids.to_project(ids), trace=trace)            # [B, T, V']
    keep = torch.tensor([p for p in range(ours.size(-1)) if p not in imported.config.never_predict])
    logit_diff = (ours[..., keep] - reference.logits[..., imported.ids.to_source(keep)]).abs().max().item()
    attention = trace.attention(DECODER_SELF)                                   # [L, B, H, T, T]
    assert len(reference.attentions) == attention.size(0) and attention.shape[2] == hf.config.num_attention_heads
    attention_diff = max((attention[i] - layer).abs().max().item() for i, layer in enumerate(reference.attentions))
    return logit_diff, attention_diff


def greedy_tokens_match(hf, imported, prompt: str, n: int = 32) -> bool:
    prompt_ids = imported.tokenizer.encode(prompt)
    source_prompt = imported.ids.to_source(torch.tensor([prompt_ids]))
    eot = imported.ids.end_of_text
    with torch.no_grad():
        expected = hf.generate(source_prompt, attention_mask=torch.ones_like(source_prompt), max_new_tokens=n,
                               min_new_tokens=n, do_sample=False, pad_token_id=eot, eos_token_id=eot,
                               suppress_tokens=[eot])[0, source_prompt.size(1):]
    stepper = Stepper(imported.model, imported.tokenizer, prompt, SamplingConfig(strategy="greedy"))
    with torch.no_grad():                              # as transformers, the end of text may not be chosen
        imported.model.never_predict[EOS_ID] = True
        generated = [step.chosen for step in stepper.run(n)]
    return len(generated) == n and imported.ids.to_source(torch.tensor(generated)).tolist() == expected.tolist()


@pytest.mark.parametrize("family, group, tied, rope_theta", CONFIGS)
def test_logits_attention_and_32_greedy_tokens_match_transformers(tmp_path, family, group, tied, rope_theta):
    hf = save_random_llm(tmp_path, family, hidden=32, heads=4, kv_heads=4 // group, layers=2,
                         rope_theta=rope_theta, tied=tied, seed=group)
    imported = load_model(tmp_path)
    config = imported.config
    assert (config.norm_type, config.gated_ffn, config.kv_heads, config.rope_base, config.tie_weights) == \
        ("rmsnorm", True, 4 // group, rope_theta, tied)
    assert config.projection_bias == (family == "qwen2") and not config.bias
    ids = torch.randint(0, hf.config.vocab_size, (2, 40), generator=torch.Generator().manual_seed(group))
    logit_diff, attention_diff = compare(hf, imported, ids)
    assert logit_diff <= TOLERANCE and attention_diff <= TOLERANCE
    assert greedy_tokens_match(hf, imported, "The quick brown fox")


def test_embedding_rows_past_the_tokenizer_are_left_out_as_qwen25_pads_them(tmp_path):
    hf = save_random_llm(tmp_path, "qwen2", kv_heads=2, tied=True, extra_rows=12)
    imported = load_model(tmp_path)
    n_tokens = qwen_like_tokenizer(300).get_vocab_size()
    assert hf.config.vocab_size == n_tokens + 12 and imported.ids.source_vocab_size == n_tokens
    ids = torch.randint(0, n_tokens, (1, 24), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        reference = hf(ids).logits[..., :n_tokens]
        ours = imported.model(imported.ids.to_project(ids))
    keep = torch.tensor([p for p in range(ours.size(-1)) if p not in imported.config.never_predict])
    assert (ours[..., keep] - reference[..., imported.ids.to_source(keep)]).abs().max() <= TOLERANCE


def test_the_tokenizer_splits_text_exactly_as_the_sources(tmp_path):
    save_random_llm(tmp_path, "llama", layers=1)
    imported = load_model(tmp_path)
    reference = qwen_like_tokenizer(300)
    for text in (TEXT[:120], " digits 2024 and  two", "你好，世界 emoji 🙂"):
        ours = imported.tokenizer.encode(text)
        assert imported.ids.to_source(torch.tensor(ours)).tolist() == reference.encode(text).ids
        assert imported.tokenizer.decode(ours) == text


def test_an_imported_model_is_rebuilt_from_its_config_json_and_state_dict(tmp_path):
    save_random_llm(tmp_path, "qwen2", kv_heads=1, layers=1, rope_theta=1e6)
    imported = load_model(tmp_path)
    config = ModelConfig.from_json(imported.config.to_json())
    model = build_model(config).eval()
    model.load_state_dict(imported.model.state_dict())
    ids = torch.tensor([imported.tokenizer.encode("The lazy dog")])
    assert config == imported.config
    with torch.no_grad():
        assert torch.equal(model(ids), imported.model(ids))


def test_gpt2_still_loads_through_the_same_entry(tmp_path):
    from .helpers import save_random_gpt2

    save_random_gpt2(tmp_path, 32, 4, 1)
    assert load_model(tmp_path).config.positional == "learned"


# ---------------------------------------------------------------- refusals


def _edit_config(folder, **changes):
    path = folder / "config.json"
    config = json.loads(path.read_text())
    config.update(changes)
    path.write_text(json.dumps(config))


@pytest.fixture(scope="module")
def llama_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llama")
    save_random_llm(folder, "llama", layers=1)
    return folder


@pytest.mark.parametrize("changes, reason, text", [
    ({"model_type": "mistral"}, "unsupported_family", "'mistral' model"),
    ({"architectures": ["LlamaForSequenceClassification"]}, None, "not a language model"),
    ({"rope_parameters": {"rope_type": "llama3", "rope_theta": 5e5, "factor": 8.0}}, "unsupported_field",
     "rotary positions scaled"),
    ({"rope_scaling": {"type": "linear", "factor": 2.0}}, "unsupported_field", "rope_scaling"),
    ({"use_sliding_window": True}, "unsupported_field", "sliding-window attention"),
    ({"hidden_act": "gelu"}, "unsupported_field", "hidden_act=gelu"),
    ({"attention_bias": True}, "unsupported_field", "attention_bias"),
    ({"head_dim": 16}, "unsupported_field", "head size other than hidden_size / heads = 8"),
    ({"num_key_value_heads": 3}, None, "n_kv_heads must divide n_heads"),
    ({"num_hidden_layers": 2}, None, "missing ['model.layers.1."),
    ({"eos_token_id": None}, None, "no eos_token_id"),
    ({"vocab_size": 200}, None, "tokenizer has 300 tokens"),
])
def test_what_the_stack_does_not_implement_is_refused_by_name(tmp_path, llama_folder, changes, reason, text):
    for file in llama_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    _edit_config(tmp_path, **changes)
    with pytest.raises(HubImportError) as error:
        load_model(tmp_path)
    assert text in str(error.value) and error.value.reason == reason


def test_a_sentencepiece_style_tokenizer_is_refused(tmp_path, llama_folder):
    for file in llama_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    state = json.loads((tmp_path / "tokenizer.json").read_text())
    state["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": False}
    (tmp_path / "tokenizer.json").write_text(json.dumps(state))
    with pytest.raises(HubImportError, match="SentencePiece-style tokenizers"):
        load_model(tmp_path)


def test_a_model_above_the_parameter_limit_is_refused_before_its_weights_are_read(tmp_path, llama_folder):
    (tmp_path / "config.json").write_bytes((llama_folder / "config.json").read_bytes())
    with pytest.raises(HubImportError, match="more than this app's limit of 1,000") as error:
        load_model(tmp_path, max_parameters=1000)
    assert error.value.reason == "too_large"
