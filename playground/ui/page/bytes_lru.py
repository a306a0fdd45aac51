"""A map bounded in bytes, least recently used out first, safe across threads: what the process's
shared caches (views, recorded passes) keep their entries in."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class BytesLRU:
    """Key -> value, each with its size in bytes; the least recently used go once `max_bytes` is exceeded."""

    def __init__(self, max_bytes: int, name: str):
        if max_bytes <= 0:
            raise ValueError(f"a {name} needs max_bytes > 0, got {max_bytes}")
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.lock = threading.RLock()    # reentrant: a weak reference's callback may drop entries while it is held

    def get(self, key: Hashable) -> Any | None:
        """The value under `key` (now the most recently used), None when there is none."""
        with self.lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep `value` (`size` bytes) under `key`; one larger than the whole map is not kept."""
        if size > self.max_bytes:
            return
        with self.lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self.bytes -= previous[1]
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def drop(self, matches: Callable[[Hashable], bool]) -> None:
        """Forget every entry whose key `matches`."""
        with self.lock:
            for key in [key for key in self._entries if matches(key)]:
                self.bytes -= self._entries.pop(key)[1]

    def __len__(self) -> int:
        return len(self._entries)
