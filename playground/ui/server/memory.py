"""What the C allocator keeps of the memory the server has freed: bounded, and handed back.

Under a class the server's live data stays within the caches' bounds (README, "Serving a class"), but
glibc's malloc keeps freed memory for reuse: one arena per thread that ever allocated (up to eight per
core), each holding its freed chunks, so the process's resident memory grew with every burst of
requests served by different threads and never came down (a soak: 308 MiB in use against 918 MiB
freed and kept). Two settings bound it, both through glibc itself, so they apply on a Hugging Face
Space without any setting of the Space:

- `bound_arenas()` at start-up: mallopt(M_ARENA_MAX, ARENAS), so threads share a few arenas instead
  of each filling its own (the same as MALLOC_ARENA_MAX=2 in the environment, which would have to be
  set before the process starts); and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD), so every block of
  that size or more (tensors, figures' JSON, replies) is its own mapping, handed back to the system the
  moment it is freed. Left to itself glibc raises that threshold to the size of each large block freed
  (up to 32 MiB), after which such blocks are carved out of the arenas, where a few live small chunks
  between them keep hundreds of MiB from being returned even by a trim;
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

M_MMAP_THRESHOLD = -3       # glibc's mallopt parameter numbers (malloc.h)
M_ARENA_MAX = -8
ARENAS = 2                  # a 2-vCPU Space: one arena per core is enough; fewer keeps less freed memory
# Blocks from this size up are mapped on their own and unmapped when freed (see bound_arenas). Setting
# it at all stops glibc's raising it; 256 KiB, glibc's own starting value doubled, keeps the many small
# blocks of a request in the arenas, where a map and unmap each would cost more than they hold.
MMAP_THRESHOLD = 256 * 1024
# While busy, give freed memory back at most this often. Measured in a class-like load (shared 2-core
# machine at load 14-17): a trim every 10 s returned 10 MiB (median; up to 35) and took 35 ms (median;
# up to 0.46 s); every 15 s that is about 0.2% of a core, and RSS carries at most 15 s of freed memory
# instead of a minute's.
TRIM_EVERY_S = 15.0

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


def bound_arenas(arenas: int = ARENAS, mmap_threshold: int = MMAP_THRESHOLD) -> bool:
    """Let all threads share at most `arenas` malloc arenas from now on, and keep blocks of
    `mmap_threshold` bytes or more out of them; True where both applied."""
    if _libc is None:
        return False
    applied = True
    for parameter, name, value in ((M_ARENA_MAX, "M_ARENA_MAX", arenas),
                                   (M_MMAP_THRESHOLD, "M_MMAP_THRESHOLD", mmap_threshold)):
        if not _libc.mallopt(parameter, value):
            log.warning("mallopt(%s, %d) was refused", name, value)
            applied = False
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
