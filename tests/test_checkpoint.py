import json
import pickle
import struct

import pytest
import torch
from safetensors.torch import save as safetensors_save

from playground import checkpoint
from playground.checkpoint import CheckpointError
from playground.data import CharTokenizer

from .model.helpers import ARCHS, randomize_parameters, run, tiny_model


def tokenizer():
    return CharTokenizer.from_text("abcdefghijklmnopq")                     # 5 specials + 17 = 22 <= 23


@pytest.mark.parametrize("arch", ARCHS)
def test_save_then_load_gives_identical_logits(tmp_path, arch):
    model = tiny_model(arch, "learned", tie_weights=arch != "encoder_only")
    checkpoint.save(tmp_path / "m", model, tokenizer(), card="# Tiny\n", metadata={"steps": 7})
    loaded = checkpoint.load(tmp_path / "m")
    ids, src = torch.randint(5, 23, (2, 9)), torch.randint(5, 23, (2, 7))
    assert torch.equal(run(model, ids, src=src), run(loaded.model, ids, src=src))
    assert loaded.config == model.config
    assert loaded.card == "# Tiny\n"
    assert loaded.tokenizer.to_json() == tokenizer().to_json()
    assert checkpoint.load_metadata(tmp_path / "m") == {"steps": 7}
    assert (tmp_path / "m" / "card.md").read_text() == "# Tiny\n"
    assert json.loads((tmp_path / "m" / "tokenizer.json").read_text())


def test_a_single_file_is_a_complete_checkpoint_and_ties_survive(tmp_path):
    model = tiny_model("encoder_decoder")
    data = checkpoint.to_bytes(model, tokenizer())
    loaded = checkpoint.from_bytes(data)
    assert loaded.model.head.weight.data_ptr() == loaded.model.encoder.embed.tokens.weight.data_ptr()
    path = tmp_path / "upload.safetensors"
    path.write_bytes(data)
    src, tgt = torch.randint(5, 23, (1, 6)), torch.randint(5, 23, (1, 4))
    assert torch.equal(checkpoint.load(path).model(src, tgt), model(src, tgt))


def test_float16_storage_halves_the_file_and_stays_close(tmp_path):
    model = tiny_model("decoder_only")
    full, half = checkpoint.to_bytes(model, tokenizer()), checkpoint.to_bytes(model, tokenizer(), dtype=torch.float16)
    assert len(half) < 0.6 * len(full)
    ids = torch.randint(5, 23, (1, 8))
    torch.testing.assert_close(checkpoint.from_bytes(half).model(ids), model(ids), atol=2e-3, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("arch", ARCHS)
def test_every_tensor_survives_a_round_trip(arch, dtype):
    """Random values everywhere (a fresh model's zero biases and unit norms would hide a skipped tensor);
    float32 comes back bit for bit, float16 as the float16 rounding of each value."""
    model = randomize_parameters(tiny_model(arch, "learned", tie_weights=False), seed=3)
    loaded = checkpoint.from_bytes(checkpoint.to_bytes(model, tokenizer(), dtype=dtype)).model
    saved, restored = model.state_dict(), loaded.state_dict()
    assert restored.keys() == saved.keys()
    for name, tensor in saved.items():
        assert torch.equal(restored[name], tensor.to(dtype).float()), name


@pytest.fixture
def good_bytes():
    return checkpoint.to_bytes(tiny_model("decoder_only"), tokenizer())


def test_pickles_are_refused_outright(tmp_path):
    evil = tmp_path / "model.pt"
    torch.save({"w": torch.zeros(2)}, evil)
    with pytest.raises(CheckpointError, match="pickle"):
        checkpoint.load(evil)
    with pytest.raises(CheckpointError, match="pickle"):
        checkpoint.from_bytes(pickle.dumps({"w": [1, 2]}, protocol=4))


def test_truncated_files_are_refused(good_bytes):
    with pytest.raises(CheckpointError, match="truncated"):
        checkpoint.from_bytes(good_bytes[: len(good_bytes) // 2])
    with pytest.raises(CheckpointError, match="truncated"):
        checkpoint.from_bytes(good_bytes[:40])
    with pytest.raises(CheckpointError, match="too short"):
        checkpoint.from_bytes(good_bytes[:5])


def test_a_header_claiming_huge_sizes_is_refused(good_bytes):
    with pytest.raises(CheckpointError, match="header claims"):
        checkpoint.from_bytes(struct.pack("<Q", 2**62) + good_bytes[8:])


def test_text_and_garbage_are_refused():
    with pytest.raises(CheckpointError, match="not a safetensors|header claims"):
        checkpoint.from_bytes(b"hello, this is a text file and not a model at all")
    with pytest.raises(CheckpointError, match="not JSON"):
        checkpoint.from_bytes(struct.pack("<Q", 4) + b"\xff\xfe\x00\x01")


def test_tensors_that_do_not_match_the_config_are_refused(good_bytes):
    header_size = struct.unpack("<Q", good_bytes[:8])[0]
    metadata = json.loads(good_bytes[8:8 + header_size])["__metadata__"]
    from safetensors.torch import load
    tensors = load(good_bytes)
    tensors["decoder.blocks.0.ffn.w_in.weight"] = torch.zeros(65, 32)
    with pytest.raises(CheckpointError, match=r"shape \(65, 32\) but the config needs \(64, 32\)"):
        checkpoint.from_bytes(safetensors_save(tensors, metadata=metadata))
    del tensors["decoder.blocks.0.ffn.w_in.weight"]
    with pytest.raises(CheckpointError, match="missing"):
        checkpoint.from_bytes(safetensors_save(tensors, metadata=metadata))


def test_safetensors_without_our_header_are_refused():
    with pytest.raises(CheckpointError, match="no Transformer Playground config"):
        checkpoint.from_bytes(safetensors_save({"w": torch.zeros(3)}))


def test_a_bad_config_in_the_header_is_reported(good_bytes):
    header_size = struct.unpack("<Q", good_bytes[:8])[0]
    metadata = json.loads(good_bytes[8:8 + header_size])["__metadata__"]
    metadata["config"] = metadata["config"].replace('"n_heads": 4', '"n_heads": 5')
    from safetensors.torch import load
    with pytest.raises(CheckpointError, match="n_heads|d_model"):
        checkpoint.from_bytes(safetensors_save(load(good_bytes), metadata=metadata))
