"""What a model reads: the characters it accepts, and whether an input is like the ones it was
trained on (a task model trained on 10-letter sources writes 10 letters whatever it reads)."""
from __future__ import annotations

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
    """(shortest, longest) source a shipped task model was trained on, when its task has a length
    (the task its registry entry was loaded with)."""
    if entry.source != "pretrained" or registry.get(entry.name) is None or entry.task is None:
        return None
    knobs = entry.task.knobs
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
