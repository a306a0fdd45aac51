"""Why attention replaced recurrence: the cost of one layer over n positions of width d, like for like
(Vaswani et al., 2017, Table 1, with each layer's projections counted).

- A self-attention layer: the Q, K, V and output projections, 4 n d^2 multiply-adds, and the mixing,
  Q K^T and the weights times V, n * n * d each: 4 n d^2 + 2 n^2 d. All positions at once: 1 sequential
  step, and any two positions are 1 step apart.
- A recurrent layer h_t = tanh(W h_{t-1} + U x_t): two d x d products per position: 2 n d^2, in n
  sequential steps, and the first position reaches the last through n - 1 steps.

Attention costs (2 + n / d) times the recurrent layer's multiply-adds: more at every length. What it
buys is parallel steps and a path of length 1 between any two positions.
"""
from __future__ import annotations

from dataclasses import dataclass


def attention_layer(n: int, d: int) -> int:
    """Multiply-adds of a self-attention layer over n positions of width d: 4 n d^2 + 2 n^2 d."""
    _check(n, d)
    return 4 * n * d * d + 2 * n * n * d


def recurrent_layer(n: int, d: int) -> int:
    """Multiply-adds of W h_{t-1} and U x_t at each of n positions of width d: 2 n d^2."""
    _check(n, d)
    return 2 * n * d * d


@dataclass(frozen=True)
class LayerCost:
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
    def ratios(self) -> list[float]:
        """Attention's multiply-adds over recurrence's, at each length (2 + n / d)."""
        return [a / r for a, r in zip(self.attention, self.recurrent)]


def layer_costs(d: int, lengths: list[int]) -> LayerCost:
    """The costs at every length in `lengths` (increasing) for width `d`."""
    if not lengths or any(b <= a for a, b in zip(lengths, lengths[1:])):
        raise ValueError("lengths must be a non-empty increasing list")
    return LayerCost(d, list(lengths), [attention_layer(n, d) for n in lengths],
                     [recurrent_layer(n, d) for n in lengths], [1] * len(lengths), list(lengths),
                     [1] * len(lengths), [n - 1 for n in lengths])


def _check(n: int, d: int) -> None:
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive integers, got n={n}, d={d}")
