"""Views of shipped models, computed once and shared by every session.

A class clicks the same examples again and again. Shipped models are read-only, so the views a
pure handler draws from a form that names only shipped models never go stale: the first session
to ask computes them, every later one gets the same updates back, already serialised. The cache
is one LRU, bounded in bytes, for the whole process.
"""
from __future__ import annotations

import sys
from typing import Any, Hashable

from gradio.components.plot import PlotData

from ..server.bytes_lru import BytesLRU

DEFAULT_MAX_BYTES = 64 * 2**20
OTHER_UPDATE_BYTES = 512          # an update's own object (a PlotData, an update dict, a component), roughly


def update_bytes(value: Any) -> int:
    """About how many bytes an update holds in memory. Strings (a figure's JSON, a panel's text) count
    as Python keeps them, at 1, 2 or 4 bytes a character by the widest one: a single arrow or Chinese
    label doubles a figure's JSON, an emoji quadruples it, so their length would undercount (a soak
    found the cache holding 2.6 times the bytes it counted). Update dicts, lists and a component sent
    whole (its constructor arguments) count what they hold."""
    if isinstance(value, PlotData):
        return OTHER_UPDATE_BYTES + sys.getsizeof(value.plot)
    if isinstance(value, (str, bytes, int, float)) or value is None:
        return sys.getsizeof(value)
    if isinstance(value, dict):                       # gr.update(value=figure, visible=...)
        return OTHER_UPDATE_BYTES + sum(update_bytes(item) for item in value.values())
    if isinstance(value, (list, tuple)):              # choices
        return sys.getsizeof(value) + sum(update_bytes(item) for item in value)
    arguments = getattr(value, "constructor_args", None)     # a component: gr.Dropdown(choices=...)
    if isinstance(arguments, dict):
        return OTHER_UPDATE_BYTES + update_bytes(arguments)
    return OTHER_UPDATE_BYTES


def _copied(updates: dict) -> dict:
    """`updates` with each update dict copied: Gradio takes a sent update dict apart in place."""
    return {name: dict(update) if isinstance(update, dict) else update for name, update in updates.items()}


class ViewCache(BytesLRU):
    """Key -> updates, least recently used first out once `max_bytes` is exceeded; each caller gets
    its own copy of the update dicts."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__(max_bytes, "view cache")
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> dict | None:
        with self.lock:
            updates = super().get(key)
            if updates is None:
                self.misses += 1
                return None
            self.hits += 1
            return _copied(updates)

    def put(self, key: Hashable, updates: dict) -> None:
        """Keep `updates` under `key`; one larger than the whole cache is not kept."""
        super().put(key, _copied(updates), sum(update_bytes(value) for value in updates.values()))


SHARED_VIEWS = ViewCache()
