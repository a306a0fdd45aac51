"""Batched decoding without a trace: greedy decodes (exact match while training, what an
intervention changes), sampled text for training snapshots.

These run many sequences at once through the models' one interface (encode, decode with a KV
cache); step-by-step decoding for people to watch is the Stepper.
"""
from __future__ import annotations

import torch
from torch import nn

from playground.data import BOS_ID, EOS_ID
from playground.device import model_device


def until_eos(ids: list[int]) -> list[int]:
    """The ids up to and including the first eos (all of them when there is none)."""
    return ids[: ids.index(EOS_ID) + 1] if EOS_ID in ids else ids


@torch.no_grad()
def greedy(model: nn.Module, ids: torch.Tensor, max_new: int, source: torch.Tensor | None = None,
           use_cache: bool = True) -> list[list[int]]:
    """Greedy continuations of equal-length decoder inputs ids [B, P]: up to ``max_new`` ids each, ending at eos.

    ``source`` [B, S] is what an encoder reads (None without one); a seq2seq decoder starts from
    ids = <bos>. Without the cache every step reads the whole sequence again, so an intervention
    that looks at every position of a pass (mean ablation) sees all of them.
    """
    if not model.has_decoder:
        raise ValueError(f"a {model.config.arch} model has no decoder to continue a sequence with")
    device = model_device(model)
    ids = ids.to(device)
    memory = model.encode(None if source is None else source.to(device))                                            # Memory, or None
    cache = model.new_cache() if use_cache else None
    sequence = ids                                                           # [B, P + generated]
    logits = model.decode(ids, memory, cache, last_only=True)                # [B, 1, V]
    out: list[torch.Tensor] = []
    finished = torch.zeros(ids.size(0), dtype=torch.bool, device=device)     # [B]
    for step in range(max_new):
        token = logits[:, -1].argmax(-1, keepdim=True)                       # [B, 1]
        out.append(token)
        finished |= token[:, 0] == EOS_ID
        if bool(finished.all()) or step == max_new - 1:
            break
        sequence = torch.cat([sequence, token], dim=1)
        if use_cache:
            logits = model.decode(token, memory, cache)                      # [B, 1, V]
        else:
            logits = model.decode(sequence, memory, last_only=True)          # [B, 1, V]
    if not out:
        return [[] for _ in range(ids.size(0))]
    return [until_eos(row) for row in torch.cat(out, dim=1).tolist()]


def bos(batch: int) -> torch.Tensor:
    """A seq2seq decoder's first input: <bos> for each of ``batch`` rows.  [B, 1]"""
    return torch.full((batch, 1), BOS_ID, dtype=torch.long)


@torch.no_grad()
def sample_continuation(
    model: nn.Module, prompt: list[int], max_new: int, temperature: float, generator: torch.Generator
) -> list[int]:
    """``max_new`` ids sampled after ``prompt`` from a decoder-only model at ``temperature``."""
    device = model_device(model)
    cache = model.new_cache()
    logits = model.decode(torch.tensor([prompt], device=device), None, cache, last_only=True)  # [1, 1, V]
    out: list[int] = []
    for _ in range(max_new):
        probs = torch.softmax(logits[0, -1] / temperature, dim=-1).cpu()     # [V], drawn by a CPU generator
        token = int(torch.multinomial(probs, 1, generator=generator))
        out.append(token)
        logits = model.decode(torch.tensor([[token]], device=device), None, cache)  # [1, 1, V]
    return out
