"""Exposure bias: the same target decoded with teacher forcing and free-running.

Teacher forcing (how the model trains): at every position the decoder reads the TRUE target so
far and predicts the next token. Free-running (how it is used): it reads its OWN earlier outputs.
Both read the same tokens until the first position where the free-running model writes a token
that differs from the target; from the next position on, their inputs part, and a free-running
model meets prefixes it never saw in training.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from playground.data import BOS_ID, EOS_ID


@dataclass(frozen=True)
class TwoDecodings:
    """Position by position over the target: what teacher forcing and free-running predict, and the
    probability each gives the target token. `parted_at` is the first position where the
    free-running output differs from the target (None when they never part)."""

    target: list[int]
    teacher_forced: list[int]
    free_running: list[int]          # may be shorter: it stops at eos
    p_target_teacher: list[float]
    p_target_free: list[float]       # given its own earlier tokens
    parted_at: int | None


@torch.no_grad()
def teacher_forced_vs_free(model: nn.Module, prompt: list[int], target: list[int]) -> TwoDecodings:
    """Decode `target` both ways after `prompt` (seq2seq: the source, with bos + target + eos decoded;
    decoder-only: the prompt tokens, continued by the target). Greedy free-running, one token per step."""
    if model.has_encoder:
        memory = model.encode(torch.tensor([prompt]))
        start, target = [BOS_ID], [*target, EOS_ID]
    else:
        memory, start = None, list(prompt)
    read = torch.tensor([start + target[:-1]])                              # [1, P + N - 1]
    probs = torch.softmax(model.decode(read, memory)[0, len(start) - 1:].double(), dim=-1)   # [N, V]
    teacher = probs.argmax(dim=-1).tolist()
    p_teacher = probs[torch.arange(len(target)), torch.tensor(target)].tolist()

    cache = model.new_cache()
    step_probs = torch.softmax(model.decode(torch.tensor([start]), memory, cache)[0, -1].double(), dim=-1)
    free, p_free = [], []
    for wanted in target:
        token = int(step_probs.argmax())
        free.append(token)
        p_free.append(float(step_probs[wanted]))
        if token == EOS_ID or len(free) == len(target):
            break
        step_probs = torch.softmax(model.decode(torch.tensor([[token]]), memory, cache)[0, -1].double(), dim=-1)
    parted = next((i for i, (mine, wanted) in enumerate(zip(free, target)) if mine != wanted), None)
    return TwoDecodings(target, teacher, free, p_teacher, p_free, parted)
