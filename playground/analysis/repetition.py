"""How much a generated text repeats itself: the share of its n-grams seen earlier in the same
text, and the loop it ends in.

Greedy decoding of a small language model soon falls into a loop: once a stretch of text repeats,
the context that led to it repeats too, and so does the most likely continuation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

REPEAT_N = 4            # a repeat is an n-gram of this many tokens that already occurred


@dataclass(frozen=True)
class Repetition:
    """repeated: share of the n-grams of `ids` that already occurred earlier in `ids` (0 = none
    repeats, near 1 = a loop); n_grams: how many n-grams there are; loop: the shortest period p
    such that the last `loop_tokens` tokens repeat with period p (0 when the text ends in no loop
    that has gone round at least twice)."""

    n: int
    repeated: float
    n_grams: int
    loop: int
    loop_tokens: int


def repetition(ids: Sequence[int], n: int = REPEAT_N) -> Repetition:
    """How much the token sequence `ids` repeats itself (see Repetition)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    ids = list(ids)
    grams = [tuple(ids[i:i + n]) for i in range(len(ids) - n + 1)]
    seen, repeats = set(), 0
    for gram in grams:
        repeats += gram in seen
        seen.add(gram)
    loop, covered = _tail_loop(ids)
    return Repetition(n, repeats / len(grams) if grams else 0.0, len(grams), loop, covered)


def _tail_loop(ids: list[int]) -> tuple[int, int]:
    """(period, tokens covered) of the shortest period the end of `ids` repeats with, gone round at
    least twice; (0, 0) for none."""
    for period in range(1, len(ids) // 2 + 1):
        covered = period
        while covered < len(ids) and ids[-1 - covered] == ids[-1 - covered + period]:
            covered += 1
        if covered >= 2 * period:
            return period, covered
    return 0, 0
