"""Recorded forward passes, kept by model and input and shared by every session.

A model is never changed once it is shown: shipped models are read-only, and a session's trained
model is a frozen copy. So a pass recorded once serves every later view of the same input: a moved
layer or head slider, another score or kind, another student on the same example. One LRU for the
process, bounded in bytes; the passes of a model that is forgotten go with it.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Hashable

import torch.nn as nn

from playground.model import Trace

DEFAULT_MAX_BYTES = 48 * 2**20


@dataclass(frozen=True)
class RecordedPass:
    """A model's pass over one input: the trace of every tensor and the ids on each side (see
    views.AttentionPass, which adds the model's entry)."""

    trace: Trace
    source_ids: tuple[int, ...]
    target_ids: tuple[int, ...]
    generated: bool
    derived: dict = field(default_factory=dict, compare=False)    # what views compute from it, by key

    @property
    def bytes(self) -> int:
        return sum(tensor.numel() * tensor.element_size() for tensor in self.trace.cache.values())


class PassCache:
    """(model, key) -> RecordedPass, least recently used first out once `max_bytes` is exceeded."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        if max_bytes <= 0:
            raise ValueError(f"a pass cache needs max_bytes > 0, got {max_bytes}")
        self.max_bytes = max_bytes
        self.bytes = 0
        self._refs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # model -> its one weak reference
        self._entries: OrderedDict[tuple[weakref.ref, Hashable], tuple[RecordedPass, int]] = OrderedDict()
        self._lock = threading.RLock()            # a model's weak reference may call back while the lock is held

    def get(self, model: nn.Module, key: Hashable) -> RecordedPass | None:
        with self._lock:
            ref = self._refs.get(model)
            entry = None if ref is None else self._entries.get((ref, key))
            if entry is None:
                return None
            self._entries.move_to_end((ref, key))
            return entry[0]

    def put(self, model: nn.Module, key: Hashable, recorded: RecordedPass) -> None:
        """Keep `recorded` under (model, key); a pass larger than the whole cache is not kept."""
        size = recorded.bytes
        if size > self.max_bytes:
            return
        with self._lock:
            ref = self._refs.get(model)
            if ref is None:
                ref = self._refs[model] = weakref.ref(model, self._forget)
            previous = self._entries.pop((ref, key), None)
            if previous is not None:
                self.bytes -= previous[1]
            self._entries[(ref, key)] = (recorded, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def _forget(self, ref: weakref.ref) -> None:
        """Drop every pass of a model that no longer exists."""
        with self._lock:
            for gone in [k for k in self._entries if k[0] is ref]:
                self.bytes -= self._entries.pop(gone)[1]

    def __len__(self) -> int:
        return len(self._entries)


SHARED_PASSES = PassCache()
