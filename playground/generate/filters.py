"""Filters on a next-token distribution, applied in order: repetition penalty, temperature, top-k, top-p.

Every function takes and returns float64 numpy vectors [V]; the filtered distributions are
renormalised, so each stage is itself a probability distribution. Ties are broken towards the
lower token id everywhere, the same way `numpy.argmax` breaks them, so top-k 1 equals greedy.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Sequence

import numpy as np

from .settings import SamplingConfig


def softmax(logits: np.ndarray) -> np.ndarray:
    """exp(z - max z) / sum exp(z - max z).  [V] -> [V]"""
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def apply_temperature(logits: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(logits / T): T < 1 sharpens, T > 1 flattens, T -> 0 tends to one-hot on the argmax."""
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    return softmax(logits / temperature)


def apply_repetition_penalty(logits: np.ndarray, seen: Sequence[int], penalty: float) -> np.ndarray:
    """The logits with ln(penalty) taken from every token id in `seen` (each counted once): after the
    softmax, each token already in the context has its probability divided by `penalty`, and the
    distribution is renormalised.  [V] -> [V]

    This is the shift-free form of the CTRL penalty (Keskar et al., 2019), which divides a positive
    logit by the penalty and multiplies a negative one: that depends on where the logits' zero lies,
    which softmax ignores; subtracting ln(penalty) does the same to every seen token whatever it is.
    """
    if not penalty >= 1:
        raise ValueError(f"repetition_penalty must be >= 1 (1 = off), got {penalty}")
    out = np.array(logits, dtype=np.float64)
    ids = np.unique(np.asarray(list(seen), dtype=np.int64))
    if ids.size and (ids.min() < 0 or ids.max() >= out.shape[0]):
        raise ValueError(f"seen token ids must lie in 0..{out.shape[0] - 1}")
    out[ids] -= np.log(penalty)
    return out


def _order(probs: np.ndarray) -> np.ndarray:
    """Token ids from most to least likely, ties by lower id."""
    return np.argsort(-probs, kind="stable")


def _keep(probs: np.ndarray, kept: np.ndarray) -> np.ndarray:
    out = np.zeros_like(probs)
    out[kept] = probs[kept]
    return out / out.sum()


def top_k_filter(probs: np.ndarray, k: int) -> np.ndarray:
    """Keep the k most likely tokens (all of them when k >= V) and renormalise."""
    if k < 1:
        raise ValueError(f"top_k must be >= 1, got {k}")
    return _keep(probs, _order(probs)[:k])


def top_p_filter(probs: np.ndarray, p: float) -> np.ndarray:
    """Nucleus filter: keep the smallest set of most likely tokens whose mass reaches p, renormalise.

    The most likely token is always kept, however small p is.
    """
    if not 0 < p <= 1:
        raise ValueError(f"top_p must be in (0, 1], got {p}")
    order = _order(probs)
    mass = np.cumsum(probs[order])                                           # [V]
    n_keep = min(int(np.count_nonzero(mass < p * (1 - 1e-12))) + 1, len(probs))
    return _keep(probs, order[:n_keep])


def filter_stages(logits: np.ndarray, settings: SamplingConfig,
                  seen: Sequence[int] = ()) -> tuple[np.ndarray, "OrderedDict[str, np.ndarray]"]:
    """(raw probabilities, stage name -> probabilities after that filter) for the active filters;
    `seen`: the token ids already in the context, which a repetition penalty lowers.

    A repetition penalty other than 1 adds the stage "repetition" first (greedy then picks the most
    likely token after it). Beam search, and greedy without a penalty, use the raw distribution.
    Sampling always has "temperature", then "top-k" and "top-p" when they are set.
    """
    raw = softmax(logits)
    stages: OrderedDict[str, np.ndarray] = OrderedDict()
    if settings.strategy == "beam":
        return raw, stages
    if settings.repetition_penalty != 1:
        logits = apply_repetition_penalty(logits, seen, settings.repetition_penalty)
        stages["repetition"] = softmax(logits)
    if settings.strategy != "sample":
        return raw, stages
    probs = stages["temperature"] = apply_temperature(logits, settings.temperature)
    if settings.top_k is not None:
        probs = stages["top-k"] = top_k_filter(probs, settings.top_k)
    if settings.top_p is not None:
        stages["top-p"] = top_p_filter(probs, settings.top_p)
    return raw, stages


def draw(probs: np.ndarray, seed: int, position: int) -> int:
    """A token drawn from `probs` with a generator seeded by (seed, position); never a zero-probability token."""
    u = np.random.default_rng((seed, position)).random()
    index = int(np.searchsorted(np.cumsum(probs), u * probs.sum(), side="right"))
    return index if index < len(probs) else int(np.flatnonzero(probs)[-1])
