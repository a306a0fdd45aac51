"""GPT-2 checkpoints in the hand-written stack: numeric parity with `transformers`' GPT-2, and refusals.

Every reference model is built from a config with random weights and saved to a temporary folder;
the playground imports it through the same code path as a download. Nothing touches the network.
"""
from __future__ import annotations

import json

import pytest
import torch

from playground.checkpoint import from_bytes, to_bytes
from playground.data import BOS_ID, EOS_ID
from playground.generate import SamplingConfig, Stepper
from playground.hub import HubImportError, IdMap, load_gpt2
from playground.model import DECODER_SELF, Trace

from .helpers import TEXT, gpt2_tokenizer, save_random_gpt2

pytest.importorskip("transformers")

TOLERANCE = 1e-4
CONFIGS = [  # n_embd, n_head, n_layer, tied
    (32, 4, 2, True),
    (30, 3, 3, True),      # odd number of heads, head size 10
    (48, 1, 1, True),
    (40, 5, 2, False),     # odd heads, separate output head
]


def _compare(hf, imported, ids):
    """Max |logit difference| over GPT-2's tokens and max |attention difference| over every layer."""
    with torch.no_grad():
        reference = hf(ids, output_attentions=True)
        trace = Trace()
        ours = imported.model(imported.ids.to_project(ids), trace=trace)            # [B, T, V + 4]
    keep = torch.tensor([i for i in range(2, ours.size(-1)) if i not in (3, 4)])  # eos and GPT-2's other tokens
    logit_diff = (ours[..., keep] - reference.logits[..., imported.ids.to_source(keep)]).abs().max().item()
    attention = trace.attention(DECODER_SELF)                                   # [L, B, H, T, T]
    attention_diff = max((attention[i] - layer).abs().max().item() for i, layer in enumerate(reference.attentions))
    assert len(reference.attentions) == attention.size(0) and keep.numel() == reference.logits.size(-1)
    return ours, logit_diff, attention_diff


@pytest.mark.parametrize("n_embd, n_head, n_layer, tied", CONFIGS)
def test_logits_and_every_attention_pattern_match_transformers(tmp_path, n_embd, n_head, n_layer, tied):
    hf = save_random_gpt2(tmp_path, n_embd, n_head, n_layer, tied=tied, seed=n_embd)
    imported = load_gpt2(tmp_path)
    ids = torch.randint(0, hf.config.vocab_size, (2, 24), generator=torch.Generator().manual_seed(1))
    ours, logit_diff, attention_diff = _compare(hf, imported, ids)
    assert logit_diff <= TOLERANCE
    assert attention_diff <= TOLERANCE
    # pad, bos, unk and mask are not GPT-2 tokens: they take no probability at all
    probabilities = torch.softmax(ours, dim=-1)
    assert torch.all(probabilities[..., [0, 1, 3, 4]] == 0)
    assert torch.allclose(probabilities.sum(-1), torch.ones(2, 24))


@pytest.mark.parametrize("end_of_text", [0, 4, 9])
def test_ids_map_one_to_one_between_gpt2_and_the_project(end_of_text):
    ids = IdMap(10, end_of_text)
    gpt2 = torch.arange(10)
    project = ids.to_project(gpt2)
    assert project[end_of_text] == EOS_ID and sorted(project.tolist()) == [2, *range(5, 14)]
    assert torch.equal(ids.to_source(project), gpt2) and ids.vocab_size == 14
    assert ids.to_source(torch.tensor([BOS_ID])).item() == end_of_text


def test_bos_reads_like_gpt2s_end_of_text(tmp_path):
    """GPT-2 starts a text with <|endoftext|>; the project's <bos> carries the same vectors."""
    hf = save_random_gpt2(tmp_path, 32, 4, 2)
    imported = load_gpt2(tmp_path)
    eot = imported.ids.end_of_text
    with torch.no_grad():
        reference = hf(torch.tensor([[eot, 10, 11]])).logits
        ours = imported.model(torch.tensor([[BOS_ID, *imported.ids.to_project(torch.tensor([10, 11])).tolist()]]))
    assert (ours[..., 2] - reference[..., eot]).abs().max() <= TOLERANCE


def test_greedy_generation_gives_the_same_tokens(tmp_path):
    hf = save_random_gpt2(tmp_path, 30, 3, 2, seed=3)
    imported = load_gpt2(tmp_path)
    prompt = "The quick brown"
    prompt_ids = imported.tokenizer.encode(prompt)
    gpt2_prompt = imported.ids.to_source(torch.tensor([prompt_ids]))
    eot = imported.ids.end_of_text
    with torch.no_grad():
        expected = hf.generate(gpt2_prompt, attention_mask=torch.ones_like(gpt2_prompt), max_new_tokens=20,
                               do_sample=False, pad_token_id=eot, eos_token_id=eot)[0, gpt2_prompt.size(1):]
    stepper = Stepper(imported.model, imported.tokenizer, prompt, SamplingConfig(strategy="greedy"))
    generated = [step.chosen for step in stepper.run(20)]
    assert imported.ids.to_source(torch.tensor(generated)).tolist() == expected.tolist()
    assert EOS_ID not in generated[:-1]


def test_the_tokenizer_splits_text_exactly_as_gpt2s(tmp_path):
    save_random_gpt2(tmp_path, 32, 4, 1)
    imported = load_gpt2(tmp_path)
    reference = gpt2_tokenizer(300)
    for text in (TEXT[:120], " leading space and  two", "你好，世界 emoji 🙂"):
        ours = imported.tokenizer.encode(text)
        assert imported.ids.to_source(torch.tensor(ours)).tolist() == reference.encode(text).ids
        assert imported.tokenizer.decode(ours) == text


def test_vocab_and_merges_files_work_like_tokenizer_json(tmp_path):
    hf = save_random_gpt2(tmp_path, 32, 4, 1, tokenizer_json=False)
    assert not (tmp_path / "tokenizer.json").exists()
    imported = load_gpt2(tmp_path)
    ids = torch.randint(0, hf.config.vocab_size, (1, 12), generator=torch.Generator().manual_seed(2))
    _, logit_diff, _ = _compare(hf, imported, ids)
    assert logit_diff <= TOLERANCE
    assert imported.ids.to_source(torch.tensor(imported.tokenizer.encode("The fox"))).tolist() == \
        gpt2_tokenizer(300).encode("The fox").ids


def test_an_imported_model_saves_and_loads_as_a_playground_checkpoint(tmp_path):
    save_random_gpt2(tmp_path, 30, 3, 1)
    imported = load_gpt2(tmp_path)
    model, tokenizer, config, _ = from_bytes(to_bytes(imported.model, imported.tokenizer, imported.card))
    ids = torch.tensor([imported.tokenizer.encode("The lazy dog")])
    assert config == imported.config and tokenizer == imported.tokenizer
    with torch.no_grad():
        assert torch.equal(model(ids), imported.model(ids))


# ---------------------------------------------------------------- refusals


def _edit_config(folder, **changes):
    path = folder / "config.json"
    config = json.loads(path.read_text())
    config.update(changes)
    path.write_text(json.dumps(config))


@pytest.fixture
def gpt2_folder(tmp_path):
    save_random_gpt2(tmp_path, 32, 4, 2)
    return tmp_path


@pytest.mark.parametrize("changes, reason", [
    ({"model_type": "llama"}, "not GPT-2"),
    ({"architectures": ["GPT2ForSequenceClassification"]}, "not a language model"),
    ({"n_embd": 64}, "does not match config.json"),
    ({"n_layer": 3}, "missing ['h.2."),
    ({"activation_function": "swish"}, "activation 'swish'"),
    ({"scale_attn_weights": False}, "scale_attn_weights"),
    ({"vocab_size": 301}, "tokenizer has 300 tokens"),
    ({"n_head": 5}, "not divisible"),
])
def test_a_config_that_is_not_a_runnable_gpt2_is_refused_with_the_reason(gpt2_folder, changes, reason):
    _edit_config(gpt2_folder, **changes)
    with pytest.raises(HubImportError, match=None) as error:
        load_gpt2(gpt2_folder)
    assert reason in str(error.value)


def test_pickle_weights_are_refused_and_never_read(gpt2_folder):
    (gpt2_folder / "model.safetensors").unlink()
    (gpt2_folder / "pytorch_model.bin").write_bytes(b"not read: a pickle would run code")
    with pytest.raises(HubImportError, match="pytorch_model.bin, a pickle"):
        load_gpt2(gpt2_folder)


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_damaged_weights_file_is_refused(gpt2_folder, damage):
    path = gpt2_folder / "model.safetensors"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage == "truncate" else b"\x10\x00" + data[2:200])
    with pytest.raises(HubImportError, match="damaged or not a safetensors file"):
        load_gpt2(gpt2_folder)


@pytest.mark.parametrize("missing, reason", [("config.json", "has no config.json"),
                                             ("tokenizer.json", "has no vocab.json and no tokenizer.json")])
def test_a_missing_file_is_named(gpt2_folder, missing, reason):
    (gpt2_folder / missing).unlink()
    with pytest.raises(HubImportError, match=reason):
        load_gpt2(gpt2_folder)


def test_a_corrupt_tokenizer_is_refused(gpt2_folder):
    (gpt2_folder / "tokenizer.json").write_text("{not json")
    with pytest.raises(HubImportError, match="tokenizer.json is not a readable tokenizer"):
        load_gpt2(gpt2_folder)


def test_a_model_above_the_parameter_limit_is_refused_before_its_weights_are_read(gpt2_folder):
    (gpt2_folder / "model.safetensors").write_bytes(b"never read")
    with pytest.raises(HubImportError, match="more than this app's limit of 1,000"):
        load_gpt2(gpt2_folder, max_parameters=1_000)


def test_offline_the_message_names_the_repository_and_what_to_do(tmp_path, monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(HubImportError) as error:
        load_gpt2("openai-community/gpt2", cache_dir=tmp_path)
    message = str(error.value)
    assert "openai-community/gpt2" in message and "Connect to the internet" in message and "folder" in message


def test_a_folder_is_read_as_a_hub_name_when_folders_are_not_allowed(gpt2_folder, monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(HubImportError, match="neither a folder nor a Hugging Face Hub repository name"):
        load_gpt2(gpt2_folder, allow_folder=False)


@pytest.mark.parametrize("source", ["", "not a/valid/name", "..//x"])
def test_a_source_that_is_neither_folder_nor_repository_name_is_refused(source):
    with pytest.raises(HubImportError):
        load_gpt2(source)


def test_a_hub_out_of_reach_is_told_at_once_from_the_cache_without_retrying_the_network(tmp_path, monkeypatch):
    # huggingface_hub retries an unreachable host five times with back-off (~25 s a file): the probe
    # finds the Hub out of reach once, and only the local cache is read.
    import huggingface_hub
    from huggingface_hub.errors import LocalEntryNotFoundError

    from playground.hub import fetch

    def unreachable(address, timeout):
        raise OSError("Name or service not known")

    def download(repo_id, filename, cache_dir=None, local_files_only=False, **kwargs):
        if not local_files_only:
            raise AssertionError("the network was tried")
        raise LocalEntryNotFoundError("not in the cache")

    monkeypatch.setattr(fetch.socket, "create_connection", unreachable)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    with pytest.raises(HubImportError) as error:
        load_gpt2("openai-community/gpt2", cache_dir=tmp_path, allow_folder=False)
    assert error.value.reason == "unreachable"
    assert not fetch.Repository("openai-community/gpt2", tmp_path).has("config.json")
