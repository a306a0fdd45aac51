"""Prompts read once: a Stepper that has read a shipped model's prompt is kept, and every new
generation from that prompt starts from a fork of it instead of reading the prompt again.

A class starts the same examples again and again. Shipped models (pretrained, untrained) are never
changed and live as long as the process, so a kept Stepper never goes stale; a session's own models
are read afresh each time, so nothing here keeps one alive. At most FRESH_KEPT Steppers are kept,
least recently used first out."""
from __future__ import annotations

import threading
from collections import OrderedDict

from playground.generate import SamplingConfig, Stepper

from playground.zoo import ModelEntry

FRESH_KEPT = 32
SHARED_SOURCES = ("pretrained", "untrained")

_fresh: OrderedDict[tuple, Stepper] = OrderedDict()        # (model, prompt) -> a Stepper that has taken no step
_lock = threading.Lock()


def started(entry: ModelEntry, prompt: str, settings: SamplingConfig) -> Stepper:
    """A Stepper of `entry` that has read `prompt` and decodes with `settings`."""
    if entry.source not in SHARED_SOURCES:
        return Stepper(entry.model, entry.tokenizer, prompt, settings)
    key = (entry.model, prompt)
    with _lock:
        fresh = _fresh.get(key)
        if fresh is not None:
            _fresh.move_to_end(key)
    if fresh is None:
        fresh = Stepper(entry.model, entry.tokenizer, prompt, settings)
        with _lock:
            _fresh[key] = fresh
            while len(_fresh) > FRESH_KEPT:
                _fresh.popitem(last=False)
    return fresh.fork(settings)
