"""LayerNorm and softmax worked step by step on a few numbers, as a learner would on paper, with
torch's own functions run on the same numbers beside the result."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import torch
import torch.nn.functional as F

MAX_VALUES = 12                 # numbers a worked example takes at most
MAX_MAGNITUDE = 1e6             # the largest |number| it takes
LAYER_NORM_EPS = 1e-5           # torch.nn.LayerNorm's default


def _checked(values: Sequence[float], least: int) -> list[float]:
    numbers = [float(v) for v in values]
    if not least <= len(numbers) <= MAX_VALUES:
        raise ValueError(f"give between {least} and {MAX_VALUES} numbers, got {len(numbers)}")
    if not all(math.isfinite(v) and abs(v) <= MAX_MAGNITUDE for v in numbers):
        raise ValueError(f"every number must be finite and at most {MAX_MAGNITUDE:g} in size, got {numbers}")
    return numbers


@dataclass(frozen=True)
class LayerNormSteps:
    """x, its mean, each x - mean and its square, the (biased) variance, sqrt(variance + eps), the
    normalised values (gamma = 1, beta = 0), and torch.nn.functional.layer_norm's output on x."""

    x: list[float]
    mean: float
    deviations: list[float]
    squares: list[float]
    variance: float
    eps: float
    std: float
    normalised: list[float]
    torch_normalised: list[float]


def layer_norm_steps(values: Sequence[float], eps: float = LAYER_NORM_EPS) -> LayerNormSteps:
    """LayerNorm of one vector of 2 to MAX_VALUES numbers, worked step by step (in float64)."""
    x = _checked(values, 2)
    mean = math.fsum(x) / len(x)
    deviations = [v - mean for v in x]
    squares = [d * d for d in deviations]
    variance = math.fsum(squares) / len(x)              # divided by n, not n - 1, as LayerNorm does
    std = math.sqrt(variance + eps)
    by_torch = F.layer_norm(torch.tensor(x, dtype=torch.float64), (len(x),), eps=eps)   # [n]
    return LayerNormSteps(x, mean, deviations, squares, variance, eps, std, [d / std for d in deviations],
                          by_torch.tolist())


@dataclass(frozen=True)
class SoftmaxSteps:
    """The scores, the scale 1/sqrt(d_k) and the scaled scores, their largest, each scaled score minus it
    and its exponential, their sum, the probabilities, torch.softmax's on the scaled scores, and
    exp(scaled score) itself where it is finite (None where it overflows a float64)."""

    scores: list[float]
    d_k: int
    scaled: list[float]
    largest: float
    shifted: list[float]
    exps: list[float]
    total: float
    probabilities: list[float]
    torch_probabilities: list[float]
    raw_exps: list[float | None]


def softmax_steps(scores: Sequence[float], d_k: int = 1) -> SoftmaxSteps:
    """softmax(scores / sqrt(d_k)) of 1 to MAX_VALUES scores, worked step by step (in float64).
    Subtracting the largest scaled score first divides every exponential by the same number, so the
    probabilities are unchanged and no exponential overflows."""
    s = _checked(scores, 1)
    if isinstance(d_k, bool) or not isinstance(d_k, int) or not 1 <= d_k <= 4096:
        raise ValueError(f"d_k must be a whole number from 1 to 4096, got {d_k!r}")
    scaled = [v / math.sqrt(d_k) for v in s]
    largest = max(scaled)
    shifted = [v - largest for v in scaled]
    exps = [math.exp(v) for v in shifted]
    total = math.fsum(exps)
    by_torch = torch.softmax(torch.tensor(scaled, dtype=torch.float64), dim=-1)          # [n]
    raw = [math.exp(v) if v < 709 else None for v in scaled]                             # e^709.8 overflows
    return SoftmaxSteps(s, d_k, scaled, largest, shifted, exps, total, [e / total for e in exps], by_torch.tolist(),
                        raw)
