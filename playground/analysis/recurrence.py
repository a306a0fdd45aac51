"""Why attention replaced recurrence: the cost of mixing n positions of width d in one layer
(Vaswani et al., 2017, Table 1).

- Self-attention: every query against every key, Q K^T and weights times V, n * n * d
  multiply-adds each: 2 n^2 d. All positions at once: 1 sequential step, and any two positions
  are 1 step apart.
- A recurrent layer h_t = tanh(W h_{t-1} + U x_t): two d x d products per position: 2 n d^2,
  in n sequential steps, and the first position reaches the last through n - 1 steps.

The two mixing costs are equal where 2 n^2 d = 2 n d^2, at n = d: for shorter sequences (the usual
case when d is a few hundred) attention is also the cheaper one. Both layers also pay for their
projections (about 8 n d^2 for Q, K, V and the output), which do not depend on how positions mix.
"""
from __future__ import annotations

from dataclasses import dataclass


def attention_mixing(n: int, d: int) -> int:
    """Multiply-adds of Q K^T and weights times V for n positions of width d: 2 n^2 d."""
    _check(n, d)
    return 2 * n * n * d


def recurrent_mixing(n: int, d: int) -> int:
    """Multiply-adds of W h_{t-1} and U x_t at each of n positions of width d: 2 n d^2."""
    _check(n, d)
    return 2 * n * d * d


@dataclass(frozen=True)
class MixingCost:
    """For each length: attention's and recurrence's multiply-adds, sequential steps and longest path."""

    d: int
    lengths: list[int]
    attention: list[int]
    recurrent: list[int]
    attention_steps: list[int]
    recurrent_steps: list[int]
    attention_path: list[int]
    recurrent_path: list[int]

    @property
    def crossover(self) -> int | None:
        """The shortest listed length at which attention mixes at least as expensively as recurrence."""
        return next((n for n, a, r in zip(self.lengths, self.attention, self.recurrent) if a >= r), None)


def mixing_costs(d: int, lengths: list[int]) -> MixingCost:
    """The costs at every length in `lengths` (increasing) for width `d`."""
    if not lengths or any(b <= a for a, b in zip(lengths, lengths[1:])):
        raise ValueError("lengths must be a non-empty increasing list")
    return MixingCost(d, list(lengths), [attention_mixing(n, d) for n in lengths],
                      [recurrent_mixing(n, d) for n in lengths], [1] * len(lengths), list(lengths),
                      [1] * len(lengths), [n - 1 for n in lengths])


def _check(n: int, d: int) -> None:
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive integers, got n={n}, d={d}")
