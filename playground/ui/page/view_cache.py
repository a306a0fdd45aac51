"""Views of shipped models, computed once and shared by every session.

A class clicks the same examples again and again. Shipped models are read-only, so the views a
pure handler draws from a form that names only shipped models never go stale: the first session
to ask computes them, every later one gets the same updates back, already serialised. The cache
is one LRU, bounded in bytes, for the whole process.
"""
from __future__ import annotations

from typing import Hashable

from ..server.bytes_lru import BytesLRU, size_of

DEFAULT_MAX_BYTES = 64 * 2**20


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
        super().put(key, _copied(updates), size_of(updates))


SHARED_VIEWS = ViewCache()
