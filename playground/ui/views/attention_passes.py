"""Recorded forward passes, kept by model and input and shared by every session.

A model is never changed once it is shown: shipped models are read-only, and a session's trained
model is a frozen copy. So a pass recorded once serves every later view of the same input: a moved
layer or head slider, another score or kind, another student on the same example. One LRU for the
process, bounded in bytes (a pass and what views compute from it); the passes of a model that is
forgotten go with it.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Hashable

import torch.nn as nn

from playground.model import Trace

from ..server.bytes_lru import BytesLRU, size_of

DEFAULT_MAX_BYTES = 48 * 2**20


@dataclass(frozen=True)
class RecordedPass:
    """A model's pass over one input: the trace of every tensor and the ids on each side (see
    views.AttentionPass, which adds the model's entry)."""

    trace: Trace
    source_ids: tuple[int, ...]
    target_ids: tuple[int, ...]
    generated: bool
    derived: "DerivedValues" = field(default_factory=lambda: DerivedValues(), compare=False)   # see DerivedValues

    @property
    def bytes(self) -> int:
        return sum(tensor.numel() * tensor.element_size() for tensor in self.trace.cache.values())


class DerivedValues(dict):
    """What views compute from a pass, by key (weights, head scores, the shapes' table): kept with the
    pass, their bytes counted with it in the cache that holds it."""

    def __init__(self):
        super().__init__()
        self.grown = lambda size: None            # told each new value's size (PassCache.put binds it)

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.grown(size_of(value))


class PassCache:
    """(model, key) -> RecordedPass, least recently used first out once `max_bytes` is exceeded."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        self._kept = BytesLRU(max_bytes, "pass cache")                        # (model's weak reference, key) -> pass
        self._refs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # model -> its one weak reference

    @property
    def bytes(self) -> int:
        return self._kept.bytes

    def get(self, model: nn.Module, key: Hashable) -> RecordedPass | None:
        with self._kept.lock:
            ref = self._refs.get(model)
            return None if ref is None else self._kept.get((ref, key))

    def put(self, model: nn.Module, key: Hashable, recorded: RecordedPass) -> None:
        """Keep `recorded` under (model, key); a pass larger than the whole cache is not kept."""
        with self._kept.lock:
            ref = self._refs.get(model)
            if ref is None:
                ref = self._refs[model] = weakref.ref(model, self._forget)
            self._kept.put((ref, key), recorded, recorded.bytes + sum(map(size_of, recorded.derived.values())))
            recorded.derived.grown = lambda size: self._kept.grow((ref, key), size)

    def _forget(self, ref: weakref.ref) -> None:
        """Drop every pass of a model that no longer exists."""
        self._kept.drop(lambda key: key[0] is ref)

    def __len__(self) -> int:
        return len(self._kept)


SHARED_PASSES = PassCache()
