"""What switching heads off changes: the next-token distribution, a generation, exact match.

Every function takes the model, the heads to switch off (`playground.model.interventions.Head`
values) and how ("zero" or "mean"), runs the model as it is and with those heads off, and
returns both. For a mean ablation, decoding reads the whole sequence at every step (no KV
cache), so the mean covers every position a prediction can see; a zero ablation decodes on the
cache, which gives the same tokens faster.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
import torch
from torch import nn

from playground.data import EOS_ID, pad_sequences
from playground.generate.batch import bos, greedy
from playground.model.interventions import Head, heads_off


@dataclass
class NextTokenChange:
    before: np.ndarray           # [V] probabilities with every head on
    after: np.ndarray            # [V] with the chosen heads off
    kl: float                    # KL(before || after) in nats: how much the prediction moved


@dataclass
class GenerationChange:
    before: list[int]            # greedy continuation with every head on
    after: list[int]             # with the chosen heads off
    changed: list[bool]          # per position of the longer one: the tokens differ (or one is missing)


@dataclass
class ExactMatchChange:
    before: float                # share of sources decoded exactly right, every head on
    after: float                 # with the chosen heads off
    outputs_before: list[list[int]]
    outputs_after: list[list[int]]


def kl_divergence(p_logits: torch.Tensor, q_logits: torch.Tensor) -> float:
    """KL(p || q) = sum_v p(v) (log p(v) - log q(v)) of two logit vectors [V], in nats. A KL is never
    negative; the sum's rounding can make two equal distributions come out at -1e-17, which is 0."""
    log_p = torch.log_softmax(p_logits.double(), dim=-1)
    log_q = torch.log_softmax(q_logits.double(), dim=-1)
    return max(0.0, float((log_p.exp() * (log_p - log_q)).sum()))


def _as_batch(ids: Sequence[int], what: str) -> torch.Tensor:
    if len(ids) == 0:
        raise ValueError(f"the {what} is empty; give at least one token id")
    return torch.tensor([list(ids)])                                         # [1, T]


@torch.no_grad()
def _last_logits(model: nn.Module, ids: torch.Tensor, source: torch.Tensor | None, position: int) -> torch.Tensor:
    memory = model.encode(source) if source is not None else None
    return model.decode(ids, memory)[0, position]                           # [V]


def next_token_change(model: nn.Module, heads: Iterable[Head], ids: Sequence[int], source: Sequence[int] | None = None,
                      how: str = "zero", position: int = -1) -> NextTokenChange:
    """The prediction at `position` of the decoder input `ids` (the source read by the encoder,
    for a seq2seq model), before and after switching `heads` off."""
    off = heads_off(model, heads, how)
    x = _as_batch(ids, "input")
    src = None if source is None else _as_batch(source, "source")
    if not -x.size(1) <= position < x.size(1):
        raise ValueError(f"position {position} is outside the input's {x.size(1)} tokens")
    before, after = _last_logits(model, x, src, position), _last_logits(off, x, src, position)
    return NextTokenChange(torch.softmax(before, -1).numpy(), torch.softmax(after, -1).numpy(),
                           kl_divergence(before, after))


def generation_change(model: nn.Module, heads: Iterable[Head], ids: Sequence[int], max_new: int,
                      source: Sequence[int] | None = None, how: str = "zero") -> GenerationChange:
    """Greedy continuations of `ids` (up to `max_new` tokens, ending at eos) before and after."""
    off = heads_off(model, heads, how)
    x = _as_batch(ids, "input")
    src = None if source is None else _as_batch(source, "source")
    before = greedy(model, x, max_new, src)[0]
    after = greedy(off, x, max_new, src, use_cache=how == "zero")[0]
    length = max(len(before), len(after))
    changed = [i >= len(before) or i >= len(after) or before[i] != after[i] for i in range(length)]
    return GenerationChange(before, after, changed)


def exact_match_change(model: nn.Module, heads: Iterable[Head], pairs: Sequence[tuple[Sequence[int], Sequence[int]]],
                       how: str = "zero") -> ExactMatchChange:
    """For a seq2seq model: the share of (source ids, target ids) pairs whose greedy decode is
    exactly the target, before and after switching `heads` off."""
    if not model.has_encoder or not model.has_decoder:
        raise ValueError(f"exact match compares a decoded target with the right one: it needs a sequence-to-sequence "
                         f"model, got {model.config.arch}")
    if not pairs:
        raise ValueError("give at least one (source, target) pair")
    off = heads_off(model, heads, how)
    src = pad_sequences([list(s) for s, _ in pairs])                         # [N, S]
    longest = max(len(t) for _, t in pairs) + 1                             # the target and its eos
    right = [[*t, EOS_ID] for _, t in pairs]
    before = greedy(model, bos(len(pairs)), longest, src)
    after = greedy(off, bos(len(pairs)), longest, src, use_cache=how == "zero")
    return ExactMatchChange(_share_right(before, right), _share_right(after, right), before, after)


def _share_right(outputs: list[list[int]], right: list[list[int]]) -> float:
    return float(np.mean([out == r for out, r in zip(outputs, right)]))
