"""Views of shipped models, computed once and shared by every session.

A class clicks the same examples again and again. Shipped models are read-only, so the views a
pure handler draws from a form that names only shipped models never go stale: the first session
to ask computes them, every later one gets the same updates back, already serialised. The cache
is one LRU, bounded in bytes, for the whole process.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Hashable

from gradio.components.plot import PlotData

DEFAULT_MAX_BYTES = 64 * 2**20
OTHER_UPDATE_BYTES = 512          # a control update, counted at a typical serialised size


def update_bytes(value: Any) -> int:
    """About how many bytes an update takes once serialised (figures and text exactly, the rest typical)."""
    if isinstance(value, PlotData):
        return len(value.plot)
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    if isinstance(value, dict):                       # gr.update(value=figure, visible=...)
        return OTHER_UPDATE_BYTES + update_bytes(value.get("value"))
    return OTHER_UPDATE_BYTES


def _copied(updates: dict) -> dict:
    """`updates` with each update dict copied: Gradio takes a sent update dict apart in place."""
    return {name: dict(update) if isinstance(update, dict) else update for name, update in updates.items()}


class ViewCache:
    """Key -> updates, least recently used first out once `max_bytes` is exceeded."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        if max_bytes <= 0:
            raise ValueError(f"a view cache needs max_bytes > 0, got {max_bytes}")
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Hashable, tuple[dict, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> dict | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return _copied(entry[0])

    def put(self, key: Hashable, updates: dict) -> None:
        """Keep `updates` under `key`; one larger than the whole cache is not kept."""
        size = sum(update_bytes(value) for value in updates.values())
        if size > self.max_bytes:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self.bytes -= previous[1]
            self._entries[key] = (_copied(updates), size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def __len__(self) -> int:
        return len(self._entries)


SHARED_VIEWS = ViewCache()
