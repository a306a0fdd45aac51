"""Per-head projections against one fused projection: the same numbers, the same parameters, one
matrix product instead of H.

Multi-head attention could give every head h its own W_Q^h of shape [D, Dh] and compute
q^h = x W_Q^h, H small products. Stacking the H matrices side by side gives one [D, H * Dh] = [D, D]
matrix, so x W_Q computed once and cut into H slices of Dh columns is exactly the same q^h, with
the same parameters. The model does that fused product (for Q, K and V alike) and then
reshapes [B, T, D] -> [B, T, H, Dh] -> [B, H, T, Dh].
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from playground.model import MultiHeadAttention

TIMING_REPEATS = 20


@dataclass(frozen=True)
class ProjectionComparison:
    """heads, head_dim, tokens: the sizes compared; max_difference: the largest difference between
    the per-head queries and the fused queries' slices; parameters: per-head total and fused;
    per_head_ms / fused_ms: median time of the H products and of the one product."""

    heads: int
    head_dim: int
    tokens: int
    max_difference: float
    per_head_parameters: int
    fused_parameters: int
    per_head_ms: float
    fused_ms: float


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2]


@torch.no_grad()
def compare_projections(attention: MultiHeadAttention, tokens: int, seed: int = 0,
                        repeats: int = TIMING_REPEATS) -> ProjectionComparison:
    """The queries of `attention` on a random [1, tokens, D] input, per head and fused (see module doc)."""
    if tokens < 1:
        raise ValueError(f"tokens must be >= 1, got {tokens}")
    w_q = attention.w_q
    heads = attention.n_heads
    head_dim = w_q.out_features // heads
    x = torch.randn(1, tokens, w_q.in_features, generator=torch.Generator().manual_seed(seed))   # [1, T, D]
    weight, bias = w_q.weight, w_q.bias                                    # [D_out, D_in], [D_out]
    per_head_weights = [weight[h * head_dim:(h + 1) * head_dim] for h in range(heads)]       # H x [Dh, D]
    per_head_biases = [None if bias is None else bias[h * head_dim:(h + 1) * head_dim] for h in range(heads)]

    def per_head():                                                         # H x [1, T, Dh]
        return [torch.nn.functional.linear(x, w, b) for w, b in zip(per_head_weights, per_head_biases)]

    def fused():
        return w_q(x).view(1, tokens, heads, head_dim).transpose(1, 2)    # [1, H, T, Dh]

    separate, together = per_head(), fused()
    difference = max(float((separate[h] - together[:, h]).abs().max()) for h in range(heads))
    per_head_parameters = sum(w.numel() + (0 if b is None else b.numel())
                              for w, b in zip(per_head_weights, per_head_biases))
    fused_parameters = weight.numel() + (0 if bias is None else bias.numel())
    return ProjectionComparison(heads, head_dim, tokens, difference, per_head_parameters, fused_parameters,
                                _median_ms(per_head, repeats), _median_ms(fused, repeats))
