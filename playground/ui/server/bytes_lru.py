"""A map bounded in bytes, least recently used out first, safe across threads: what the process's
shared caches (views, recorded passes) keep their entries in."""
from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

OBJECT_BYTES = 64             # an object's own header and fields beyond the data counted for it, roughly
# A Gradio component's own fields beyond its constructor's arguments (the lists, sets and dicts every
# component keeps): 2.8-3.0 KB measured with tracemalloc for a Radio, Slider, Textbox, Button or Plot.
COMPONENT_BYTES = 3 * 1024


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

    def grow(self, key: Hashable, size: int) -> None:
        """`size` more bytes held under `key` (its value grew in place); the least recently used go as
        `put` lets them, the grown entry among them when it is larger than the whole map."""
        with self.lock:
            entry = self._entries.get(key)
            if entry is None:
                return
            self._entries[key] = (entry[0], entry[1] + size)
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


def size_of(value: Any) -> int:
    """About how many bytes `value` holds in memory: arrays and tensors by their data; text as Python
    keeps it, at 1, 2 or 4 bytes a character by its widest one (one arrow or Chinese label doubles a
    figure's JSON, an emoji quadruples it: counting its length let a cache hold 2.6 times its bound);
    containers as Python lays them out plus what they hold; a Gradio component sent whole by its
    constructor's arguments and its own fields; any other object by its fields. An object met twice counts once."""
    return _size(value, set())


def _size(value: Any, seen: set[int]) -> int:
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int):                                    # numpy arrays
        return nbytes
    if hasattr(value, "numel") and hasattr(value, "element_size"):   # torch tensors
        return value.numel() * value.element_size()
    if isinstance(value, (str, bytes, int, float)) or value is None:
        return sys.getsizeof(value)
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, dict):                                    # an update dict: gr.update(value=..., visible=...)
        return sys.getsizeof(value) + sum(_size(k, seen) + _size(v, seen) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(_size(item, seen) for item in value)
    arguments = getattr(value, "constructor_args", None)          # a component: gr.Dropdown(choices=...)
    if isinstance(arguments, dict):
        return COMPONENT_BYTES + _size(arguments, seen)
    if hasattr(value, "__dict__"):                                 # a figure's PlotData, a recorded pass's parts
        return OBJECT_BYTES + _size(vars(value), seen)
    return OBJECT_BYTES
