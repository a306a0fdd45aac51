import io
import json
import os
import pickle
import struct
import zipfile
from pathlib import Path

import pytest
import torch
from safetensors.torch import load as safetensors_load
from safetensors.torch import save as safetensors_save

from playground import checkpoint
from playground.checkpoint import CheckpointError, CheckpointTooLarge
from playground.data import CharTokenizer
from playground.model import SizeLimits

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


def with_recorded_metadata(recorded: str) -> bytes:
    """A tiny model's checkpoint bytes whose header records `recorded` as its training metadata."""
    model = tiny_model("decoder_only")
    header = {"format": checkpoint.FORMAT, "config": model.config.to_json(), "tokenizer": tokenizer().to_json(),
              "card": "", "metadata": recorded}
    return safetensors_save(safetensors_load(checkpoint.to_bytes(model, tokenizer())), metadata=header)


@pytest.mark.parametrize("recorded, expected", [
    ('{"steps": 7, "val_loss": 1.5}', {"steps": 7, "val_loss": 1.5}), ("", {}), ("[1, 2]", {}), ('"text"', {}),
])
def test_the_metadata_read_from_a_files_bytes_is_a_dict(recorded, expected):
    assert checkpoint.metadata_from_bytes(with_recorded_metadata(recorded)) == expected


def test_metadata_that_is_not_json_is_refused_with_a_message():
    with pytest.raises(CheckpointError, match="not valid JSON"):
        checkpoint.metadata_from_bytes(with_recorded_metadata("{not json"))


def test_rewriting_the_card_keeps_every_tensor_byte_and_changes_only_card_and_metadata(tmp_path):
    model = tiny_model("encoder_decoder")
    checkpoint.save(tmp_path / "m", model, tokenizer(), card="# Tiny\n", metadata={"steps": 7}, dtype=torch.float16)
    before = (tmp_path / "m" / checkpoint.MODEL_FILE).read_bytes()
    card = "# Tiny\n\n## Measured again\n\n- BLEU: 100.0 (字)\n"
    checkpoint.rewrite_card(tmp_path / "m", card, {"steps": 7, "bleu": 100.0})
    after = (tmp_path / "m" / checkpoint.MODEL_FILE).read_bytes()
    old_size, new_size = struct.unpack("<Q", before[:8])[0], struct.unpack("<Q", after[:8])[0]
    assert after[8 + new_size:] == before[8 + old_size:]                   # the tensors, byte for byte
    assert new_size % 8 == 0 and new_size > old_size
    old_header, new_header = json.loads(before[8:8 + old_size]), json.loads(after[8:8 + new_size])
    assert {k: v for k, v in new_header.items() if k != "__metadata__"} == \
        {k: v for k, v in old_header.items() if k != "__metadata__"}
    changed = {k for k in old_header["__metadata__"] if old_header["__metadata__"][k] != new_header["__metadata__"][k]}
    assert changed == {"card", "metadata"}
    loaded = checkpoint.load(tmp_path / "m")
    assert loaded.card == card == (tmp_path / "m" / "card.md").read_text(encoding="utf-8")
    assert checkpoint.load_metadata(tmp_path / "m") == {"steps": 7, "bleu": 100.0}
    tensors = safetensors_load(after)
    assert all(torch.equal(tensors[name], t) for name, t in safetensors_load(before).items())


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
    with pytest.raises(CheckpointError, match="not a safetensors checkpoint"):
        checkpoint.from_bytes(b"hello, this is a text file and not a model at all")
    with pytest.raises(CheckpointError, match="not JSON"):
        checkpoint.from_bytes(struct.pack("<Q", 4) + b"{\xfe\x00\x01")


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


PRETRAINED_COPY = Path(__file__).resolve().parents[1] / "pretrained" / "copy" / "model.safetensors"
HOSTILE = dict(n_encoder_layers=1000, n_decoder_layers=1000, d_model=1024, d_ff=4096)   # ~25 G parameters
LIMITS = SizeLimits(largest={"n_encoder_layers": 6, "n_decoder_layers": 6, "d_model": 512, "max_len": 1024},
                    max_parameters=2_000_000)


def with_config(data: bytes, **changes) -> bytes:
    """The checkpoint `data` with some fields of its header's config changed and its tensors kept."""
    header_size = struct.unpack("<Q", data[:8])[0]
    metadata = json.loads(data[8:8 + header_size])["__metadata__"]
    metadata["config"] = json.dumps({**json.loads(metadata["config"]), **changes})
    return safetensors_save(safetensors_load(data), metadata=metadata)


def resident_bytes() -> int:
    """This process's resident memory (/proc/self/statm counts pages)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def forbidden(*_args, **_kwargs):
    """Stands in for building a model or reading its weights where neither may happen."""
    raise AssertionError("a model was built or its weights read")


@pytest.fixture
def nothing_may_be_built(monkeypatch):
    monkeypatch.setattr(checkpoint, "build_model", forbidden)
    monkeypatch.setattr(checkpoint, "safetensors_load", forbidden)


def test_a_crafted_header_is_refused_from_its_config_without_allocating(nothing_may_be_built):
    crafted = with_config(PRETRAINED_COPY.read_bytes(), **HOSTILE)
    before = resident_bytes()
    with pytest.raises(CheckpointError, match=r"ModelConfig.n_encoder_layers: must be an integer in \[0, 48\]"):
        checkpoint.from_bytes(crafted)
    with pytest.raises(CheckpointTooLarge, match="n_encoder_layers is 1,000; the limit is 6") as refused:
        checkpoint.from_bytes(crafted, LIMITS)
    assert (refused.value.field, refused.value.value, refused.value.limit) == ("n_encoder_layers", 1000, 6)
    assert resident_bytes() - before < 50 * 2**20


@pytest.mark.parametrize("changes, field, limit", [
    (dict(d_model=100_000), "d_model", 512),
    (dict(max_len=10**9), "max_len", 1024),
    (dict(n_encoder_layers=12, n_decoder_layers=12, d_model=1024, d_ff=4096), "n_encoder_layers", 6),
    (dict(n_encoder_layers=6, n_decoder_layers=6, d_model=512, d_ff=2048), "parameters", 2_000_000),
])
def test_a_config_over_the_limits_names_the_field_and_the_limit(nothing_may_be_built, changes, field, limit):
    with pytest.raises(CheckpointTooLarge) as refused:
        checkpoint.from_bytes(with_config(PRETRAINED_COPY.read_bytes(), **changes), LIMITS)
    assert (refused.value.field, refused.value.limit) == (field, limit)
    assert f"{field} is" in str(refused.value) and f"the limit is {limit:,}" in str(refused.value)


def test_a_model_within_the_limits_loads():
    loaded = checkpoint.from_bytes(PRETRAINED_COPY.read_bytes(), LIMITS)
    assert loaded.config.n_encoder_layers == 2


VOCAB_LIMITS = SizeLimits(largest={**LIMITS.largest, "vocab_size": 8_192, "tgt_vocab_size": 8_192},
                          max_parameters=2_000_000)


@pytest.mark.parametrize("changes, field", [(dict(vocab_size=300_000, tie_weights=False), "vocab_size"),
                                            (dict(tgt_vocab_size=65_536, tie_weights=False), "tgt_vocab_size")])
def test_a_vocabulary_over_the_limit_is_refused_from_the_header(nothing_may_be_built, changes, field):
    """A wide vocabulary with a tiny d_model stays under the parameter limit; the vocabulary's own limit
    refuses it before anything is built (every view predicts rows of vocabulary-many logits)."""
    with pytest.raises(CheckpointTooLarge) as refused:
        checkpoint.from_bytes(with_config(PRETRAINED_COPY.read_bytes(), **changes), VOCAB_LIMITS)
    assert (refused.value.field, refused.value.limit) == (field, 8_192)


def with_tokenizer(data: bytes, tokenizer_json: str) -> bytes:
    """The checkpoint `data` with its header's tokenizer replaced."""
    header_size = struct.unpack("<Q", data[:8])[0]
    metadata = json.loads(data[8:8 + header_size])["__metadata__"]
    return safetensors_save(safetensors_load(data), metadata={**metadata, "tokenizer": tokenizer_json})


def test_a_tokenizer_larger_than_its_vocabulary_needs_is_refused_before_it_is_parsed(nothing_may_be_built,
                                                                                     monkeypatch):
    monkeypatch.setattr(checkpoint, "tokenizer_from_json", forbidden)
    padded = json.dumps({"type": "char", "chars": "abcdefghij", "padding": "x" * 10**6})   # the copy task: 15 tokens
    with pytest.raises(CheckpointTooLarge) as refused:
        checkpoint.from_bytes(with_tokenizer(PRETRAINED_COPY.read_bytes(), padded), LIMITS)
    limit = checkpoint.TOKENIZER_BASE_BYTES + 15 * checkpoint.TOKENIZER_BYTES_PER_TOKEN
    assert (refused.value.field, refused.value.value, refused.value.limit) == ("tokenizer_bytes", len(padded), limit)
    with pytest.raises(AssertionError, match="built or its weights read"):     # without limits it is read
        checkpoint.from_bytes(with_tokenizer(PRETRAINED_COPY.read_bytes(), padded))


def test_a_shipped_bpe_tokenizer_is_well_within_its_bound():
    bpe = Path(__file__).resolve().parents[1] / "pretrained" / "shakespeare-bpe" / "model.safetensors"
    if not bpe.exists():
        pytest.skip("needs the shipped shakespeare-bpe model")
    loaded = checkpoint.from_bytes(bpe.read_bytes(), SizeLimits(largest={}, max_parameters=10**9))
    needed = len(loaded.tokenizer.to_json().encode())
    assert needed < loaded.config.vocab_size * checkpoint.TOKENIZER_BYTES_PER_TOKEN / 4


@pytest.mark.parametrize("protocol", range(6))
def test_pickles_of_every_protocol_are_named(protocol):
    small = pickle.dumps({"weight": [0.5] * 4, "name": "w"}, protocol=protocol)
    large = pickle.dumps([f"row {i}" * 8 for i in range(20_000)], protocol=protocol)   # longer than what is sniffed
    shown = str(protocol) if protocol >= 2 else "0 or 1"
    for data in (small, large):
        with pytest.raises(CheckpointError, match=rf"a Python pickle \(protocol {shown}\)"):
            checkpoint.from_bytes(data)


def test_zips_and_torch_save_files_are_named():
    saved = io.BytesIO()
    torch.save({"w": torch.zeros(2)}, saved)
    with pytest.raises(CheckpointError, match="torch.save file"):
        checkpoint.from_bytes(saved.getvalue())
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as writer:
        writer.writestr("model.safetensors", b"not really")
    with pytest.raises(CheckpointError, match="a zip archive"):
        checkpoint.from_bytes(archive.getvalue())


def with_header_field(data: bytes, field: str, value: str) -> bytes:
    """The checkpoint `data` with one string of its header's metadata replaced and its tensors kept."""
    header_size = struct.unpack("<Q", data[:8])[0]
    metadata = json.loads(data[8:8 + header_size])["__metadata__"]
    return safetensors_save(safetensors_load(data), metadata={**metadata, field: value})


@pytest.mark.parametrize("depth", [5_000, 200_000])
@pytest.mark.parametrize("where", ["config", "field", "tokenizer"])
def test_a_deeply_nested_config_or_tokenizer_is_refused_cleanly(nothing_may_be_built, depth, where):
    data = PRETRAINED_COPY.read_bytes()
    nested = "[" * depth + "]" * depth
    header_size = struct.unpack("<Q", data[:8])[0]
    config = json.loads(data[8:8 + header_size])["__metadata__"]["config"]
    value = {"config": nested, "field": config[:-1] + ', "d_model": ' + nested + "}", "tokenizer": nested}[where]
    crafted = with_header_field(data, "tokenizer" if where == "tokenizer" else "config", value)
    for limits in (None, LIMITS):                  # (a long tokenizer is refused by its size first)
        with pytest.raises(CheckpointError, match="nested more deeply|tokenizer_bytes is"):
            checkpoint.from_bytes(crafted, limits)


def test_a_deeply_nested_header_is_refused_cleanly():
    nested = b"[" * 100_000 + b"]" * 100_000
    header = b'{"x":' + nested + b"}"
    with pytest.raises(CheckpointError, match="nested more deeply"):
        checkpoint.from_bytes(struct.pack("<Q", len(header)) + header)


def test_a_tokenizer_the_playground_does_not_write_is_refused_with_its_parts_named():
    from playground.data import BPETokenizer
    from tests.data.test_uploaded_tokenizers import split_then_bytes
    from tests.model.helpers import tiny_config
    tokenizer = BPETokenizer.train("the cat sat on the mat", vocab_size=270)
    model = checkpoint.build_model(tiny_config("decoder_only", "learned", vocab_size=270))
    state = json.loads(tokenizer.to_json())
    state["tokenizer"]["pre_tokenizer"] = split_then_bytes("(a|a){1,22}b")
    state["tokenizer"]["normalizer"] = {"type": "Replace", "pattern": {"String": "a"}, "content": "x" * 1000}
    crafted = with_header_field(checkpoint.to_bytes(model, tokenizer), "tokenizer", json.dumps(state))
    with pytest.raises(CheckpointError) as refused:
        checkpoint.from_bytes(crafted, LIMITS)
    assert refused.value.reason == "foreign_tokenizer"
    assert refused.value.details == {"parts": "normalizer Replace, pre_tokenizer Sequence(Split, ByteLevel)"}
    loaded = checkpoint.from_bytes(checkpoint.to_bytes(model, tokenizer), LIMITS)      # as the app writes it
    assert loaded.tokenizer == tokenizer


@pytest.mark.parametrize("name", sorted(p.name for p in PRETRAINED_COPY.parents[1].iterdir()))
def test_every_shipped_checkpoint_loads_and_a_bpe_encodes_as_its_file_says(name):
    """The fixed pipeline reads every shipped tokenizer exactly as the library reads the file's whole JSON."""
    from tokenizers import Tokenizer as HFTokenizer
    loaded = checkpoint.load(PRETRAINED_COPY.parents[1] / name)
    if loaded.tokenizer.kind == "bpe":
        saved = json.loads((PRETRAINED_COPY.parents[1] / name / "tokenizer.json").read_text())["tokenizer"]
        text = "To be, or not to be: that is the question.\n  Whether 'tis nobler 床前明月光 <mask>"
        assert loaded.tokenizer.encode(text) == HFTokenizer.from_str(json.dumps(saved)).encode(text).ids
