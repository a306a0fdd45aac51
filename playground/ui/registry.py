"""The models every session can pick: the shipped pretrained checkpoints and small untrained ones.

Each checkpoint under the pretrained directory (a folder holding model.safetensors) is loaded
once at start-up and shared by every session, read-only: weights never require gradients and
models only run under `torch.inference_mode`. A session that trains or uploads a model keeps
its own copy in its Workspace.

Two small models with random weights are always offered, clearly named, so the Attention and
Generate tabs work before any training and so trained attention can be compared with chance.
"""
from __future__ import annotations

import logging
import os
import string
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from playground.checkpoint import MODEL_FILE, CheckpointError, load
from playground.data import CharTokenizer, Tokenizer
from playground.model import ModelConfig, build_model

PRETRAINED_ENV_VAR = "PLAYGROUND_PRETRAINED_DIR"
DEFAULT_PRETRAINED_DIR = Path(__file__).resolve().parents[2] / "pretrained"
UNTRAINED_SEED = 0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelEntry:
    """A model ready to run: its weights, tokenizer, config, card and where it came from.

    source: "pretrained" (shipped), "untrained" (random weights) or "session" (this session's own).
    """

    name: str
    model: nn.Module
    tokenizer: Tokenizer
    config: ModelConfig
    card: str
    source: str

    @property
    def generative(self) -> bool:
        return self.config.arch in ("decoder_only", "encoder_decoder")

    @property
    def n_parameters(self) -> int:
        """Trainable parameters, a tied weight counted once."""
        return sum(p.numel() for p in self.model.parameters())


def freeze(model: nn.Module) -> nn.Module:
    """Evaluation mode, no gradients: safe to share between sessions."""
    model.eval()
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    return model


def ascii_tokenizer() -> CharTokenizer:
    """One token per printable ASCII character (letters, digits, punctuation, space)."""
    return CharTokenizer(string.ascii_letters + string.digits + string.punctuation + " ")


def seeded_model(config: ModelConfig, seed: int = UNTRAINED_SEED) -> nn.Module:
    """A frozen model with random weights drawn from `seed`, leaving the global RNG untouched."""
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return freeze(build_model(config))


def untrained_entries() -> list[ModelEntry]:
    """A decoder-only and an encoder-decoder model with seeded random weights, over printable ASCII."""
    tokenizer = ascii_tokenizer()
    vocab = tokenizer.vocab_size
    configs = {
        "untrained-gpt": ModelConfig(arch="decoder_only", vocab_size=vocab, d_model=64, n_heads=4,
                                     n_decoder_layers=2, d_ff=256, max_len=128),
        "untrained-seq2seq": ModelConfig(arch="encoder_decoder", vocab_size=vocab, d_model=64, n_heads=4,
                                         n_encoder_layers=2, n_decoder_layers=2, d_ff=256, max_len=128),
    }
    return [ModelEntry(name, seeded_model(config), tokenizer, config, "", "untrained")
            for name, config in configs.items()]


def pretrained_dir(override: str | Path | None = None) -> Path:
    """`override`, else $PLAYGROUND_PRETRAINED_DIR, else the repository's pretrained/ folder."""
    if override is not None:
        return Path(override)
    return Path(os.environ.get(PRETRAINED_ENV_VAR) or DEFAULT_PRETRAINED_DIR)


def load_pretrained(directory: Path) -> tuple[list[ModelEntry], list[str]]:
    """Every checkpoint folder under `directory`, sorted by name, and a note per folder that failed."""
    entries, problems = [], []
    if not directory.is_dir():
        return entries, problems
    for folder in sorted(p for p in directory.iterdir() if (p / MODEL_FILE).is_file()):
        try:
            model, tokenizer, config, card = load(folder)
        except CheckpointError as error:
            problems.append(f"{folder.name}: {error}")
            log.warning("skipping pretrained model %s: %s", folder.name, error)
            continue
        entries.append(ModelEntry(folder.name, freeze(model), tokenizer, config, card, "pretrained"))
    return entries, problems


class ModelRegistry:
    """The shared models by name: pretrained first, then the untrained ones."""

    def __init__(self, directory: str | Path | None = None):
        self.directory = pretrained_dir(directory)
        pretrained, self.problems = load_pretrained(self.directory)
        self._entries = {e.name: e for e in [*pretrained, *untrained_entries()]}

    def names(self, generative_only: bool = False) -> list[str]:
        return [n for n, e in self._entries.items() if e.generative or not generative_only]

    def get(self, name: str) -> ModelEntry | None:
        return self._entries.get(name)

    def entries(self) -> list[ModelEntry]:
        return list(self._entries.values())

    def default(self, generative_only: bool = False) -> str:
        """The first pretrained model (generative if asked), else the first untrained one."""
        return self.names(generative_only)[0]
