"""What the C allocator keeps of the memory the server has freed: bounded, and handed back.

Under a class the server's live data stays within the caches' bounds (README, "Serving a class"), but
glibc's malloc keeps freed memory for reuse: one arena per thread that ever allocated (up to eight per
core), each holding its freed chunks, so the process's resident memory grew with every burst of
requests served by different threads and never came down (a soak: 308 MiB in use against 918 MiB
freed and kept). Two settings bound it, both through glibc itself, so they apply on a Hugging Face
Space without any setting of the Space:

- `bound_arenas()` at start-up: mallopt(M_ARENA_MAX, ARENAS), so threads share a few arenas instead
  of each filling its own (the same as MALLOC_ARENA_MAX=2 in the environment, which would have to be
  set before the process starts);
- `trim()`: malloc_trim(0) returns the free pages of every arena to the system. `Trimmer.tick` calls
  it when the server goes idle after serving events, and at most every TRIM_EVERY_S while it is busy.

Elsewhere (macOS, Windows, musl) both are no-ops: those allocators return memory by themselves.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import platform
import time
from typing import Callable

M_ARENA_MAX = -8            # glibc's mallopt parameter number (malloc.h)
ARENAS = 2                  # a 2-vCPU Space: one arena per core is enough; fewer keeps less freed memory
TRIM_EVERY_S = 60.0         # while busy, give freed memory back at most this often (a trim takes ~10-50 ms)

log = logging.getLogger(__name__)


def _glibc() -> ctypes.CDLL | None:
    """The process's C library when it is glibc (the only one with these two calls), else None."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_libc = _glibc()


def available() -> bool:
    """Whether the allocator can be bounded and trimmed here (Linux with glibc)."""
    return _libc is not None


def bound_arenas(arenas: int = ARENAS) -> bool:
    """Let all threads share at most `arenas` malloc arenas from now on; True where it applied."""
    if _libc is None:
        return False
    applied = bool(_libc.mallopt(M_ARENA_MAX, arenas))
    if not applied:
        log.warning("mallopt(M_ARENA_MAX, %d) was refused", arenas)
    return applied


def trim() -> bool:
    """Give the free pages of every arena back to the system; True when some were."""
    return bool(_libc.malloc_trim(0)) if _libc is not None else False


class Trimmer:
    """Decides when to trim, from a count of events served and whether any is waiting or running.

    tick(served, busy) is called every few seconds: it trims after a burst (events were served since
    the last trim and none is under way now) and, under steady load, every TRIM_EVERY_S at most.
    """

    def __init__(self, trim_fn: Callable[[], bool] = trim, every_s: float = TRIM_EVERY_S,
                 clock: Callable[[], float] = time.monotonic):
        self._trim, self.every_s, self._clock = trim_fn, every_s, clock
        self._served_at_trim = 0
        self._last_trim = clock()
        self.trims = 0

    def due(self, served: int, busy: bool) -> bool:
        if served == self._served_at_trim:
            return False                         # nothing was freed since the last trim
        return not busy or self._clock() - self._last_trim >= self.every_s

    def tick(self, served: int, busy: bool) -> bool:
        """Trim when due; True when it did."""
        if not self.due(served, busy):
            return False
        self._trim()
        self._served_at_trim, self._last_trim = served, self._clock()
        self.trims += 1
        return True
