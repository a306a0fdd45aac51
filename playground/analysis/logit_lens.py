"""The logit lens: what the model would predict if it stopped after each layer.

The residual stream leaving block i (trace `STACK.{i}.resid_post`, [B, T, D]) is read out the way
the last one is, through the stack's final norm and the output head:

    lens_i = head(final_norm(resid_post_i))                 [B, T, V]

For the last block of a pre-norm model this is exactly the model's logits (the final norm is
applied once, after the last block); for a post-norm model each block already ends in a norm and
the final norm is the identity. STACK is the stack the head reads: the decoder, or the encoder
of an encoder-only model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch import nn

from playground.model import Trace


@dataclass
class LogitLens:
    stack: str                   # "decoder" or "encoder": the stack whose layers are read
    top_ids: np.ndarray          # [L, T] the most likely next token after each layer, at each position
    top_probs: np.ndarray        # [L, T] its probability


def read_stack(model: nn.Module) -> nn.Module:
    """The stack the output head reads: the decoder, or the encoder of an encoder-only model."""
    return model.decoder if model.has_decoder else model.encoder


def layer_logits(model: nn.Module, trace: Trace, layer: int) -> torch.Tensor:
    """The lens after block `layer`: head(final_norm(resid_post)).  [B, T, V]"""
    stack = read_stack(model)
    key = f"{stack.name}.{layer}.resid_post"
    if key not in trace:
        raise KeyError(f"{key} was not recorded; trace the pass with Trace(include=('*.resid_post',))")
    with torch.no_grad():
        return model.head(stack.final_norm(trace[key]))


def logit_lens(model: nn.Module, ids: Sequence[int], source: Sequence[int] | None = None) -> LogitLens:
    """The top token and its probability after every layer, at every position of the input `ids`
    (the decoder's input; `source` is what the encoder of a seq2seq model reads)."""
    if len(ids) == 0:
        raise ValueError("the input is empty; give at least one token id")
    if model.has_encoder and model.has_decoder and not source:
        raise ValueError("a sequence-to-sequence model needs the source its encoder reads")
    stack = read_stack(model)
    trace = Trace(include=(f"{stack.name}.*.resid_post",))
    with torch.no_grad():
        memory = model.encode(torch.tensor([list(source)]), trace) if source else None
        model.decode(torch.tensor([list(ids)]), memory, None, trace)
    tops = []
    for layer in range(len(stack.blocks)):
        probs = torch.softmax(layer_logits(model, trace, layer)[0].double(), dim=-1)   # [T, V]
        tops.append(probs.max(dim=-1))
    return LogitLens(stack.name, torch.stack([t.indices for t in tops]).numpy(),
                     torch.stack([t.values for t in tops]).float().numpy())
