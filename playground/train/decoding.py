"""Batched decoding used while training: greedy decodes for exact match, sampled text for snapshots.

These run many sequences at once with a KV cache and no trace; step-by-step decoding for
people to watch lives in ``playground.generate``.
"""
from __future__ import annotations

import torch
from torch import nn

from playground.data import BOS_ID, EOS_ID


def until_eos(ids: list[int]) -> list[int]:
    """The ids up to and including the first eos (all of them when there is none)."""
    return ids[: ids.index(EOS_ID) + 1] if EOS_ID in ids else ids


@torch.no_grad()
def greedy_seq2seq(model: nn.Module, src: torch.Tensor, max_new: int) -> list[list[int]]:
    """Greedy decodes of an encoder-decoder for src [B, S]: up to ``max_new`` ids each, ending at eos."""
    memory = model.encode(src)                                               # [B, S, D]
    cache = model.new_cache()
    token = torch.full((src.size(0), 1), BOS_ID, dtype=torch.long)           # [B, 1]
    return _greedy_loop(lambda t: model.decode(t, memory, cache), token, max_new)


@torch.no_grad()
def greedy_continue(model: nn.Module, prompt: torch.Tensor, max_new: int) -> list[list[int]]:
    """Greedy continuations of a decoder-only model for equal-length prompts [B, P]."""
    cache = model.new_cache()
    logits = model(prompt, cache=cache)                                      # [B, P, V]
    first = logits[:, -1].argmax(-1, keepdim=True)                           # [B, 1]
    rest = _greedy_loop(lambda t: model(t, cache=cache), first, max_new - 1) if max_new > 1 else [[] for _ in first]
    return [until_eos([int(f)] + r) for f, r in zip(first[:, 0].tolist(), rest)]


def _greedy_loop(step, token: torch.Tensor, max_new: int) -> list[list[int]]:
    """Feed ``token`` [B, 1], append the argmax, repeat; stops early once every row has emitted eos."""
    out: list[torch.Tensor] = []
    finished = torch.zeros(token.size(0), dtype=torch.bool)                  # [B]
    for _ in range(max_new):
        token = step(token)[:, -1].argmax(-1, keepdim=True)                  # [B, 1]
        out.append(token)
        finished |= token[:, 0] == EOS_ID
        if bool(finished.all()):
            break
    if not out:
        return [[] for _ in range(token.size(0))]
    return [until_eos(row) for row in torch.cat(out, dim=1).tolist()]


@torch.no_grad()
def sample_continuation(
    model: nn.Module, prompt: list[int], max_new: int, temperature: float, generator: torch.Generator
) -> list[int]:
    """``max_new`` ids sampled after ``prompt`` from a decoder-only model at ``temperature``."""
    cache = model.new_cache()
    logits = model(torch.tensor([prompt]), cache=cache)                      # [1, P, V]
    out: list[int] = []
    for _ in range(max_new):
        probs = torch.softmax(logits[0, -1] / temperature, dim=-1)           # [V]
        token = int(torch.multinomial(probs, 1, generator=generator))
        out.append(token)
        logits = model(torch.tensor([[token]]), cache=cache)                 # [1, 1, V]
    return out
