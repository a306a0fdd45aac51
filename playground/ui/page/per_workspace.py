"""Values kept beside a session's Workspace for as long as it lives, without the Workspace holding them."""
from __future__ import annotations

import threading
import weakref
from typing import Callable, Generic, Hashable, TypeVar

T = TypeVar("T")


class PerWorkspace(Generic[T]):
    """One value per (workspace, key), made by `make()` when first asked for and dropped with the
    workspace. Safe across the server's threads: two first asks get the same value."""

    def __init__(self, make: Callable[[], T]):
        self._make = make
        self._values: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()    # workspace -> {key: value}
        self._lock = threading.Lock()

    def of(self, workspace, key: Hashable = None) -> T:
        """`workspace`'s value under `key`."""
        with self._lock:
            values = self._values.get(workspace)
            if values is None:
                values = self._values[workspace] = {}
            if key not in values:
                values[key] = self._make()
            return values[key]
