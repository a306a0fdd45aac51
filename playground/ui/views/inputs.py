"""What a model reads: the characters it accepts, and whether an input is like the ones it was
trained on (a task model trained on 10-letter sources writes 10 letters whatever it reads)."""
from __future__ import annotations

import functools
from pathlib import Path

from playground.checkpoint import CheckpointError, load_metadata
from playground.data import tasks

from playground.zoo import ModelEntry, ModelRegistry
from ..text.i18n import text
from ..text.markup import literal

MAX_CHARS_LISTED = 60          # a larger alphabet is described by its size, not listed


def accepted_text(entry: ModelEntry, lang: str) -> str:
    """"Accepts: a b c ..." for a character vocabulary; any text for a byte-level tokenizer."""
    chars = getattr(entry.tokenizer, "chars", None)
    if chars is None:
        return text(lang, "accepted_any")
    if len(chars) > MAX_CHARS_LISTED:
        return text(lang, "accepted_many", n=len(chars))
    shown = " ".join({" ": "␣", "\n": "↵", "\t": "⇥"}.get(ch, ch) for ch in chars)
    return text(lang, "accepted_chars", chars=literal(shown))


def trained_lengths(registry: ModelRegistry, entry: ModelEntry) -> tuple[int, int] | None:
    """(shortest, longest) source a shipped task model was trained on, when its task has a length."""
    if entry.source != "pretrained" or registry.get(entry.name) is None:
        return None
    return _task_lengths(str(registry.directory / entry.name))


@functools.lru_cache(maxsize=64)          # a shipped model's task never changes; building one costs ms (dates)
def _task_lengths(folder: str) -> tuple[int, int] | None:
    try:
        metadata = load_metadata(Path(folder))
    except (CheckpointError, OSError, ValueError):
        return None
    if not metadata.get("task"):
        return None
    knobs = tasks.get(metadata["task"], **(metadata.get("task_knobs") or {})).knobs
    if "length" not in knobs:
        return None
    return knobs.get("min_length", knobs["length"]), knobs["length"]


def input_note(registry: ModelRegistry, entry: ModelEntry, value, lang: str) -> str:
    """The characters the model accepts, and a warning when `value` is not like its training inputs."""
    lines = [accepted_text(entry, lang)]
    lengths = trained_lengths(registry, entry)
    if lengths is not None and isinstance(value, str) and value and not lengths[0] <= len(value) <= lengths[1]:
        low, high = lengths
        key = "input_outside_training_fixed" if low == high else "input_outside_training"
        lines.append(text(lang, key, model=literal(entry.name), n=len(value), low=low, high=high))
    return "\n\n".join(lines)
