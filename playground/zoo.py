"""The model zoo: the shipped pretrained checkpoints and small untrained models, loaded once and shared.

Each checkpoint under the pretrained directory (a folder holding model.safetensors) is loaded
once at start-up and shared by every session, read-only: weights never require gradients and
models only run under `torch.inference_mode`. A model trained or uploaded in a session of the
app is that session's own copy (playground.ui keeps it in the session's Workspace).

A pretrained folder may also hold a training timeline, `timeline/step_XXXXXX.safetensors`:
complete checkpoints of the same run from initialisation to the end. They are loaded lazily,
the first time a session asks for a step, and shared read-only like the final models.

Two small models with random weights are always offered, clearly named, so every view works
before any training and trained attention can be compared with chance.
"""
from __future__ import annotations

import logging
import math
import os
import string
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import torch
from torch import nn

from playground.checkpoint import (
    MODEL_FILE,
    CheckpointError,
    load,
    load_metadata,
    timeline_files,
)
from playground.data import CharTokenizer, Tokenizer, tasks
from playground.data.tasks import Task
from playground.model import ModelConfig, build_model

PRETRAINED_ENV_VAR = "PLAYGROUND_PRETRAINED_DIR"
DEFAULT_PRETRAINED_DIR = Path(__file__).resolve().parents[1] / "pretrained"
UNTRAINED_SEED = 0
MAX_RECORDED_EXAMPLES = 5            # examples read from a checkpoint's metadata (a training records 3)
MAX_RECORDED_EXAMPLE_CHARS = 400

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelEntry:
    """A model ready to run: its weights, tokenizer, config, card and where it came from.

    source: "pretrained" (shipped), "untrained" (random weights) or "session" (this session's own).
    task: the sequence-to-sequence task a shipped model was trained on (its held-out examples
    measure it), None for every other model.
    held_out_loss: mean cross-entropy per token (nats) on data its training held out: a shipped
    model's as its training stored it, a model trained in the session its last validation loss (also
    when the browser kept it: its file records it under the app's secret); None where none is known
    (uploaded: a file may claim anything; imported from the Hub, untrained).
    examples: inputs like those it was trained on (a model trained in the session: pieces of its
    own data, which its checkpoint records too), for the views to start from; () where none are known.
    """

    name: str
    model: nn.Module
    tokenizer: Tokenizer
    config: ModelConfig
    card: str
    source: str
    task: Task | None = None
    held_out_loss: float | None = None
    examples: tuple[str, ...] = ()

    @property
    def generative(self) -> bool:
        """Whether the model writes text token by token (it has a decoder)."""
        return self.model.has_decoder

    @cached_property
    def n_parameters(self) -> int:
        """Trainable parameters, a tied weight counted once (counted once per entry: its model never changes)."""
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
    with torch.random.fork_rng(devices=[]):         # the CPU's RNG only: on ZeroGPU, CUDA's is out of reach here
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
        metadata = load_metadata(folder)
        entries.append(ModelEntry(folder.name, freeze(model), tokenizer, config, card, "pretrained",
                                  checkpoint_task(metadata), held_out_loss(metadata)))
    return entries, problems


def checkpoint_task(metadata: dict) -> Task | None:
    """The seq2seq task a checkpoint's metadata names, if any."""
    if metadata.get("task") is None:
        return None
    return tasks.get(metadata["task"], **metadata.get("task_knobs", {}))


def held_out_loss(metadata: dict) -> float | None:
    """The validation loss a checkpoint's training metadata records (see playground.train.card.metadata;
    a timeline checkpoint records the one at its step), None when it records none."""
    loss = metadata.get("val_loss")
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not math.isfinite(loss):
        return None
    return float(loss)


def recorded_examples(metadata: dict) -> tuple[str, ...]:
    """The inputs a checkpoint's metadata records as the model's examples (a model trained in the app:
    pieces of its own data): those of its first MAX_RECORDED_EXAMPLES entries that are texts of at
    most MAX_RECORDED_EXAMPLE_CHARS characters; () when it records none."""
    examples = metadata.get("examples")
    if not isinstance(examples, list):
        return ()
    return tuple(example for example in examples[:MAX_RECORDED_EXAMPLES]
                 if isinstance(example, str) and 0 < len(example) <= MAX_RECORDED_EXAMPLE_CHARS)


class ModelRegistry:
    """The shared models by name: pretrained first, then the untrained ones."""

    def __init__(self, directory: str | Path | None = None):
        self.directory = pretrained_dir(directory)
        pretrained, self.problems = load_pretrained(self.directory)
        self._entries = {e.name: e for e in [*pretrained, *untrained_entries()]}
        self._timelines = {e.name: files for e in pretrained if (files := timeline_files(self.directory / e.name))}
        self._timeline_entries: dict[tuple[str, int], ModelEntry] = {}
        self._timeline_lock = threading.Lock()

    def timeline_steps(self, name: str) -> list[int]:
        """The training steps saved in a pretrained model's timeline, ascending ([] when it has none)."""
        return list(self._timelines.get(name, {}))

    def timeline_entry(self, name: str, step: int) -> ModelEntry:
        """The model `name` as it was at training `step` of its timeline, loaded once and shared.

        Raises KeyError when the model has no checkpoint at that step, CheckpointError when the
        file cannot be loaded.
        """
        file = self._timelines.get(name, {}).get(step)
        if file is None:
            raise KeyError(f"{name} has no timeline checkpoint at step {step}; steps: {self.timeline_steps(name)}")
        with self._timeline_lock:
            key = (name, step)
            if key not in self._timeline_entries:
                model, tokenizer, config, card = load(file)
                self._timeline_entries[key] = ModelEntry(name, freeze(model), tokenizer, config, card, "pretrained",
                                                         held_out_loss=held_out_loss(load_metadata(file)))
            return self._timeline_entries[key]

    def names(self, generative_only: bool = False) -> list[str]:
        return [n for n, e in self._entries.items() if e.generative or not generative_only]

    def get(self, name: str) -> ModelEntry | None:
        return self._entries.get(name)

    def entries(self) -> list[ModelEntry]:
        return list(self._entries.values())

    def default(self, generative_only: bool = False) -> str:
        """The first pretrained model (generative if asked), else the first untrained one."""
        return self.names(generative_only)[0]
