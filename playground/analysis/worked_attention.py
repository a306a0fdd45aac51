"""Attention by hand: one head of a real model on a few tokens, every intermediate matrix.

    scores  = Q K^T                 [Tq, Tk]
    scaled  = scores / sqrt(d_k)
    masked  = scaled, -inf where the mask hides a key
    weights = softmax(masked) row by row
    output  = weights V             [Tq, d_k]

Q, K and V are the head's own, recorded by a Trace while the model runs on the tokens; the rest
is computed here with plain tensor operations, so it can be checked against what the model did.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from playground.model import AttentionSite, Trace, causal_mask


@dataclass(frozen=True)
class WorkedAttention:
    """Every step of one head on one input (batch row 0), as float64 tensors."""

    site: AttentionSite
    layer: int
    head: int
    q: torch.Tensor              # [Tq, Dh]
    k: torch.Tensor              # [Tk, Dh]
    v: torch.Tensor              # [Tk, Dh]
    scores: torch.Tensor         # [Tq, Tk]  Q K^T
    scaled: torch.Tensor         # [Tq, Tk]  / sqrt(d_k)
    mask: torch.Tensor           # [Tq, Tk]  bool, True = visible
    masked: torch.Tensor         # [Tq, Tk]  -inf where hidden
    weights: torch.Tensor        # [Tq, Tk]
    output: torch.Tensor         # [Tq, Dh]

    @property
    def d_k(self) -> int:
        return self.q.size(-1)


def traced_run(model: nn.Module, source: list[int] | None, target: list[int] | None) -> Trace:
    """Run the model once on one sequence (source for the encoder, target for the decoder), recording everything."""
    trace = Trace(("*",))
    with torch.inference_mode():
        memory = model.encode(torch.tensor([source]), trace) if model.has_encoder else None
        if model.has_decoder:
            model.decode(torch.tensor([target]), memory, trace=trace)
    return trace


def work_through(trace: Trace, site: AttentionSite, layer: int, head: int) -> WorkedAttention:
    """The head's Q, K, V from `trace` and every step of attention computed from them by hand; with
    grouped-query attention, K and V are those of the key/value head the query head shares."""
    queries, keys, values = (trace[site.key(layer, part)][0] for part in ("q", "k", "v"))  # [H, T, Dh], [Hkv, T, Dh] x 2
    kv_head = head // (queries.size(0) // keys.size(0))
    q, k, v = queries[head].double(), keys[kv_head].double(), values[kv_head].double()    # [T, Dh] each
    scores = q @ k.T                                                         # [Tq, Tk]
    scaled = scores / math.sqrt(q.size(-1))
    if site.causal:
        mask = causal_mask(q.size(0), k.size(0))
    else:
        mask = torch.ones(q.size(0), k.size(0), dtype=torch.bool)           # one unpadded input: every key visible
    masked = scaled.masked_fill(~mask, float("-inf"))
    exp = torch.exp(masked - masked.max(dim=-1, keepdim=True).values)       # softmax, written out
    weights = exp / exp.sum(dim=-1, keepdim=True)
    return WorkedAttention(site, layer, head, q, k, v, scores, scaled, mask, masked, weights, weights @ v)


def attention_module(model: nn.Module, site: AttentionSite, layer: int) -> nn.Module:
    """The MultiHeadAttention of `site` in block `layer`."""
    return getattr(getattr(model, site.stack).blocks[layer], site.sublayer)


def recombined_output(model: nn.Module, trace: Trace, site: AttentionSite, layer: int) -> torch.Tensor:
    """Every head worked by hand, concatenated and passed through the layer's W_o: [Tq, D], which
    equals the sub-layer's traced output when the hand computation is right."""
    module = attention_module(model, site, layer)
    heads = torch.cat([work_through(trace, site, layer, h).output for h in range(module.n_heads)], dim=-1)  # [Tq, D]
    out = heads @ module.w_o.weight.double().T
    return out if module.w_o.bias is None else out + module.w_o.bias.double()
