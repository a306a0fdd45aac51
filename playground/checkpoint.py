"""Checkpoints: safetensors only, with the config, tokenizer, card and training metadata inside.

One `.safetensors` file is a complete model: its header metadata holds
    "format": "transformer-playground", "config": ModelConfig JSON, "tokenizer": tokenizer JSON,
    "card": markdown, "metadata": training metadata JSON.
A saved directory holds that file as `model.safetensors` plus `tokenizer.json` and `card.md`
for people to read. Loading never unpickles: the bytes are checked before safetensors parses
them (a zip, a torch.save file or a pickle is named as such), a caller's SizeLimits are checked
against the config before any weight is allocated (and the tokenizer's JSON against the config's
vocabulary before it is parsed), and every tensor must match the shape its config implies.

A directory may also hold a training timeline, `timeline/step_XXXXXX.safetensors`: complete
checkpoints of the same run at chosen steps (`timeline_files` lists them).
"""
from __future__ import annotations

import io
import json
import os
import pickletools
import re
import struct
from pathlib import Path
from typing import NamedTuple

import torch
from safetensors import SafetensorError
from safetensors.torch import load as safetensors_load
from safetensors.torch import save as safetensors_save
from torch import nn

from .data import Tokenizer, tokenizer_from_json
from .data.bpe_tokenizer import ForeignTokenizer
from .model import ModelConfig, SizeLimitError, SizeLimits, build_model

FORMAT = "transformer-playground"
MODEL_FILE, TOKENIZER_FILE, CARD_FILE = "model.safetensors", "tokenizer.json", "card.md"
TIMELINE_DIR = "timeline"
TIMELINE_FILE = re.compile(r"step_(\d+)\.safetensors")
MAX_HEADER_BYTES = 16 * 1024 * 1024
MAX_FILE_BYTES = 512 * 1024 * 1024
SNIFF_BYTES = 64 * 1024          # what a file that is not safetensors is recognised from
ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
STORAGE_DTYPES = {torch.float32: "float32", torch.float16: "float16"}
TOKENIZER_BYTES_PER_TOKEN = 256      # under SizeLimits, a tokenizer JSON may take this per token (a BPE: ~30)
TOKENIZER_BASE_BYTES = 64 * 1024     # ... and this for the JSON around them


class CheckpointError(ValueError):
    """A file that is not a usable Transformer Playground checkpoint; the message says why. `reason` names
    the common cases ("pickle", "not_safetensors", "damaged", "not_playground") so an interface can say them in its
    own words; None for the rest. `details` holds the values such a message names ("foreign_tokenizer": the
    tokenizer's `parts` that the Playground does not run)."""

    def __init__(self, message: str, reason: str | None = None, details: dict | None = None):
        super().__init__(message)
        self.reason = reason
        self.details = details or {}


class CheckpointTooLarge(CheckpointError):
    """A checkpoint whose config exceeds the caller's SizeLimits: `field`, `value` and `limit` say where."""

    def __init__(self, error: SizeLimitError):
        super().__init__(f"the model is too large to load here: {error}")
        self.field, self.value, self.limit = error.field, error.value, error.limit


class Checkpoint(NamedTuple):
    model: nn.Module
    tokenizer: Tokenizer
    config: ModelConfig
    card: str


def _weights(model: nn.Module) -> dict[str, torch.Tensor]:
    """Every parameter once (a tied weight under its first name) and every persistent buffer."""
    tensors = dict(model.named_parameters())
    tensors.update(model.named_buffers())
    persistent = model.state_dict(keep_vars=True).keys()
    return {name: tensor for name, tensor in tensors.items() if name in persistent}


def to_bytes(model: nn.Module, tokenizer: Tokenizer, card: str = "", metadata: dict | None = None,
             dtype: torch.dtype = torch.float32) -> bytes:
    """The whole model as one safetensors file (weights stored as `dtype`: float32 or float16)."""
    if dtype not in STORAGE_DTYPES:
        raise ValueError(f"weights can be stored as {list(STORAGE_DTYPES.values())}, not {dtype}")
    tensors = {name: t.detach().to("cpu", dtype).contiguous() for name, t in _weights(model).items()}
    header = {
        "format": FORMAT,
        "config": model.config.to_json(),
        "tokenizer": tokenizer.to_json(),
        "card": card,
        "metadata": json.dumps(metadata or {}, sort_keys=True),
    }
    return safetensors_save(tensors, metadata=header)


def save(directory: str | Path, model: nn.Module, tokenizer: Tokenizer, card: str = "",
         metadata: dict | None = None, dtype: torch.dtype = torch.float32) -> Path:
    """Write model.safetensors, tokenizer.json and card.md into `directory` (created if needed)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / MODEL_FILE).write_bytes(to_bytes(model, tokenizer, card, metadata, dtype))
    (directory / TOKENIZER_FILE).write_text(tokenizer.to_json(), encoding="utf-8")
    (directory / CARD_FILE).write_text(card, encoding="utf-8")
    return directory


def rewrite_card(directory: str | Path, card: str, metadata: dict) -> None:
    """Replace the card and training metadata of the checkpoint in `directory` (its header and card.md).

    Only the header of model.safetensors is rewritten: the bytes of every tensor stay as they are.
    """
    directory = Path(directory)
    file = directory / MODEL_FILE
    data = file.read_bytes()
    header = _parse_header(data, len(data))
    fields = _header_fields(header)
    (old_size,) = struct.unpack("<Q", data[:8])
    header["__metadata__"] = {**fields, "card": card, "metadata": json.dumps(metadata, sort_keys=True)}
    encoded = json.dumps(header, separators=(",", ":")).encode("utf-8")
    encoded += b" " * (-len(encoded) % 8)                              # safetensors pads its header to 8 bytes
    partial = file.with_suffix(".part")
    partial.write_bytes(struct.pack("<Q", len(encoded)) + encoded + data[8 + old_size:])
    os.replace(partial, file)
    (directory / CARD_FILE).write_text(card, encoding="utf-8")


class _EndOfPrefix(Exception):
    """Parsing reached the end of the bytes given."""


class _Prefix(io.BytesIO):
    """A file's first bytes for pickletools: reading past them raises _EndOfPrefix instead of returning less."""

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        if size is not None and size >= 0 and len(chunk) < size:
            raise _EndOfPrefix
        return chunk

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        if not line.endswith(b"\n"):
            raise _EndOfPrefix
        return line


def _pickle_protocol(head: bytes) -> str | None:
    """The protocol of the pickle that `head` (a file's first bytes) begins, or None if it is no pickle.

    Protocols 2 to 5 open with the PROTO opcode. Protocols 0 and 1 have no signature, so their
    opcodes are parsed (pickletools.genops, which never runs them): a pickle parses cleanly up to
    STOP or to the end of `head`, while other bytes soon meet an unknown opcode.
    """
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return str(head[1])
    opcodes = 0
    try:
        for opcode, _, _ in pickletools.genops(_Prefix(head)):
            opcodes += 1
            if opcode.name == "STOP":
                break
    except _EndOfPrefix:
        pass
    except ValueError:
        return None
    return "0 or 1" if opcodes >= 3 else None


def _what_else(head: bytes) -> tuple[str, str]:
    """What a file that is not safetensors is, from its first bytes, and its reason code ("pickle" or
    "not_safetensors", see CheckpointError)."""
    if head[:4] in ZIP_SIGNATURES:
        (name_length,) = struct.unpack("<H", head[26:28]) if len(head) >= 28 else (0,)
        first_entry = head[30:30 + name_length]
        if first_entry.endswith(b"data.pkl"):
            return ("a PyTorch torch.save file (a zip archive holding a pickle); pickles can run code, so only "
                    ".safetensors checkpoints are accepted"), "pickle"
        return "a zip archive, not a safetensors checkpoint", "not_safetensors"
    protocol = _pickle_protocol(head)
    if protocol is not None:
        return (f"a Python pickle (protocol {protocol}), as in a PyTorch .pt/.pth/.bin file; pickles can run code, "
                "so only .safetensors checkpoints are accepted"), "pickle"
    return ("not a safetensors checkpoint (one starts with an 8-byte header length followed by a JSON '{')",
            "not_safetensors")


def _parse_header(data: bytes, file_size: int) -> dict:
    """Check that `data` (the file, or at least its first 8 + header bytes) is safetensors; return the header.

    Runs before any parser sees the bytes, so zips, pickles, truncation and absurd sizes get a clear message.
    """
    if file_size > 8 and data[8:9] != b"{":                                  # the JSON header opens at byte 8
        what, reason = _what_else(data[:SNIFF_BYTES])
        raise CheckpointError(f"this file is {what}", reason)
    if file_size < 8:
        raise CheckpointError(f"the file is {file_size} bytes long: too short to be a safetensors checkpoint",
                              "not_safetensors")
    (header_size,) = struct.unpack("<Q", data[:8])
    if header_size > MAX_HEADER_BYTES:
        raise CheckpointError(f"the header claims {header_size:,} bytes (the limit is {MAX_HEADER_BYTES:,}): "
                              "this is not a valid safetensors checkpoint", "not_safetensors")
    if 8 + header_size > file_size:
        raise CheckpointError(f"the header claims {header_size:,} bytes but only {file_size - 8:,} follow: "
                              "the file is truncated or not a safetensors checkpoint", "damaged")
    try:
        header = json.loads(data[8:8 + header_size])
    except RecursionError:
        raise CheckpointError("the header is nested more deeply than JSON can be read: this is not a usable "
                              "checkpoint", "not_safetensors") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise CheckpointError("the header is not JSON: this is not a safetensors checkpoint",
                              "not_safetensors") from None
    if not isinstance(header, dict):
        raise CheckpointError("the header is not a JSON object: this is not a safetensors checkpoint",
                              "not_safetensors")
    body = file_size - 8 - header_size
    for name, info in header.items():
        if name == "__metadata__":
            continue
        offsets = info.get("data_offsets") if isinstance(info, dict) else None
        if not (isinstance(offsets, list) and len(offsets) == 2 and 0 <= offsets[0] <= offsets[1] <= body):
            raise CheckpointError(f"tensor {name!r} points outside the file: the file is truncated or corrupt",
                                  "damaged")
    return header


def _header_fields(header: dict) -> dict:
    metadata = header.get("__metadata__") or {}
    if metadata.get("format") != FORMAT or "config" not in metadata or "tokenizer" not in metadata:
        raise CheckpointError("this safetensors file has no Transformer Playground config and tokenizer in its "
                              "header; save models with the Playground's download button or playground.checkpoint.save",
                              "not_playground")
    return metadata


def _config(text, limits: SizeLimits | None) -> ModelConfig:
    """The header's config, within `limits`: its fields are compared before anything is built."""
    try:
        values = json.loads(text)
        if limits is not None and isinstance(values, dict):
            limits.check_fields(values)
        config = ModelConfig.from_dict(values)
    except SizeLimitError as error:
        raise CheckpointTooLarge(error) from None
    except RecursionError:                               # JSON nested thousands deep: refused, never read
        raise CheckpointError("the checkpoint's config is invalid: it is nested more deeply than any config "
                              "(a flat JSON object of numbers and names)") from None
    except (ValueError, TypeError) as error:
        raise CheckpointError(f"the checkpoint's config is invalid: {error}") from None
    if limits is not None:
        try:
            limits.check(config)                                              # parameters counted on the meta device
        except SizeLimitError as error:
            raise CheckpointTooLarge(error) from None
    return config


def _check_tokenizer_size(text: str, config: ModelConfig) -> None:
    """A tokenizer's JSON no larger than a vocabulary of the config's size needs (parsing a larger one
    could cost seconds and hundreds of MB before its size is known)."""
    size = len(text.encode("utf-8"))
    limit = TOKENIZER_BASE_BYTES + TOKENIZER_BYTES_PER_TOKEN * max(config.vocab_size, config.target_vocab_size)
    if size > limit:
        raise CheckpointTooLarge(SizeLimitError("tokenizer_bytes", size, limit))


def from_bytes(data: bytes, limits: SizeLimits | None = None) -> Checkpoint:
    """Rebuild a model from one checkpoint file's bytes, checking everything on the way.

    With `limits`, a config beyond them raises CheckpointTooLarge before any weight is allocated, and
    so does a tokenizer JSON larger than the config's vocabulary needs, before it is parsed.
    """
    if len(data) > MAX_FILE_BYTES:
        raise CheckpointError(f"the file is {len(data) / 2**20:.0f} MB; checkpoints are limited to "
                              f"{MAX_FILE_BYTES // 2**20} MB")
    fields = _header_fields(_parse_header(data, len(data)))
    config = _config(fields["config"], limits)
    if limits is not None and isinstance(fields["tokenizer"], str):
        _check_tokenizer_size(fields["tokenizer"], config)
    try:
        tokenizer = tokenizer_from_json(fields["tokenizer"])
    except ForeignTokenizer as error:
        raise CheckpointError(f"the checkpoint's tokenizer is not the Playground's own: {error}", "foreign_tokenizer",
                              {"parts": ", ".join(error.parts)}) from None
    except (ValueError, KeyError, TypeError) as error:
        raise CheckpointError(f"the checkpoint's tokenizer is invalid: {error}") from None
    if tokenizer.vocab_size > min(config.vocab_size, config.target_vocab_size):
        raise CheckpointError(f"the tokenizer has {tokenizer.vocab_size} tokens but the model only "
                              f"{min(config.vocab_size, config.target_vocab_size)}")
    try:
        tensors = safetensors_load(data)
    except SafetensorError as error:
        raise CheckpointError(f"the weights could not be read: {error}") from None
    model = build_model(config)
    _copy_weights(model, tensors)
    return Checkpoint(model.eval(), tokenizer, config, fields.get("card", ""))


def _copy_weights(model: nn.Module, tensors: dict[str, torch.Tensor]) -> None:
    expected = _weights(model)
    missing, unexpected = sorted(set(expected) - set(tensors)), sorted(set(tensors) - set(expected))
    if missing or unexpected:
        raise CheckpointError(f"the weights do not match the config: missing {missing[:5]}, unexpected {unexpected[:5]}")
    for name, target in expected.items():
        source = tensors[name]
        if source.shape != target.shape:
            raise CheckpointError(f"tensor {name!r} has shape {tuple(source.shape)} but the config needs "
                                  f"{tuple(target.shape)}")
        if not source.is_floating_point():
            raise CheckpointError(f"tensor {name!r} has dtype {source.dtype}; weights must be floating point")
        if not torch.isfinite(source).all():
            raise CheckpointError(f"tensor {name!r} contains NaN or infinite values")
    with torch.no_grad():
        for name, target in expected.items():
            target.copy_(tensors[name].to(target.dtype))


def _model_file(path: Path) -> Path:
    return path / MODEL_FILE if path.is_dir() else path


def load(path: str | Path) -> Checkpoint:
    """Load a saved directory or a single .safetensors file -> (model, tokenizer, config, card)."""
    path = Path(path)
    file = _model_file(path)
    if not file.is_file():
        raise CheckpointError(f"no checkpoint at {file}")
    if file.stat().st_size > MAX_FILE_BYTES:
        raise CheckpointError(f"{file.name} is larger than the {MAX_FILE_BYTES // 2**20} MB limit")
    return from_bytes(file.read_bytes())


def load_metadata(path: str | Path) -> dict:
    """The training metadata stored with a checkpoint, read from its header alone."""
    file = _model_file(Path(path))
    file_size = file.stat().st_size
    with file.open("rb") as handle:
        head = handle.read(8)
        header_size = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
        head += handle.read(min(header_size, MAX_HEADER_BYTES))
    return _training_metadata(_header_fields(_parse_header(head, file_size)))


def metadata_from_bytes(data: bytes) -> dict:
    """The training metadata stored with a checkpoint, read from its bytes' header alone (a file
    checked by from_bytes, such as the model a browser kept)."""
    return _training_metadata(_header_fields(_parse_header(data, len(data))))


def _training_metadata(fields: dict) -> dict:
    try:
        metadata = json.loads(fields.get("metadata") or "{}")
    except RecursionError:
        raise CheckpointError("the checkpoint's training metadata is nested more deeply than JSON can be read") from None
    except ValueError:
        raise CheckpointError("the checkpoint's training metadata is not valid JSON") from None
    return metadata if isinstance(metadata, dict) else {}


def timeline_files(directory: str | Path) -> dict[int, Path]:
    """step -> checkpoint file of a saved directory's training timeline, by step (empty when it has none)."""
    folder = Path(directory) / TIMELINE_DIR
    if not folder.is_dir():
        return {}
    found = {int(m.group(1)): f for f in folder.iterdir() if (m := TIMELINE_FILE.fullmatch(f.name)) and f.is_file()}
    return dict(sorted(found.items()))
