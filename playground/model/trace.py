"""Trace: opt-in recording of what happens inside a forward pass, under stable names.

Names follow one scheme (TransformerLens-style), with STACK in {"encoder", "decoder"}:

    STACK.tok_embed              [B, T, D]   token embeddings (scaled by sqrt(D) where configured)
    STACK.pos_embed              [T, D]      additive positions (sinusoidal / learned only)
    STACK.{i}.resid_pre          [B, T, D]   residual stream entering block i
    STACK.{i}.ATTN.q             [B, H, T, Dh]   one per query head
    STACK.{i}.ATTN.k|v           [B, Hkv, T, Dh] one per key/value head (Hkv = H unless grouped-query); they
                                             span the whole cache during decoding
    STACK.{i}.ATTN.scores        [B, H, Tq, Tk] scaled scores before the mask and softmax
    STACK.{i}.ATTN.weights       [B, H, Tq, Tk] attention probabilities (rows sum to 1), one per query head
    STACK.{i}.ATTN.z             [B, Tq, H, Dh] each head's output, before the heads are merged (*)
    STACK.{i}.ATTN.out           [B, Tq, D]  after the output projection
    STACK.{i}.resid_mid          [B, T, D]   after the self-attention sub-layer
    STACK.{i}.resid_cross        [B, T, D]   after the cross-attention sub-layer (seq2seq decoder)
    STACK.{i}.ffn.gate           [B, T, F]   act(W_gate x) of a gated feed-forward (SwiGLU)
    STACK.{i}.ffn.hidden         [B, T, F]   feed-forward activations (gated: gate * W_in x)
    STACK.{i}.ffn.out            [B, T, D]
    STACK.{i}.resid_post         [B, T, D]   residual stream leaving block i
    STACK.final_norm             [B, T, D]   (pre-norm models; LayerNorm or RMSNorm)
    logits                       [B, T, V]

where ATTN is "self_attn" or "cross_attn". Each name is a hook point (hooks.py); a Trace is the
hook that keeps a detached copy of every activation its patterns match:

    trace = Trace(include=("*.weights", "logits"))
    logits = model(ids, trace=trace)            # or: with trace: logits = model(ids)
    trace["decoder.1.self_attn.weights"]        # [B, H, T, T]

(*) The per-head outputs repeat `out` before its projection, so a pattern records them only when
it ends in ".z" ("*.z", "decoder.0.self_attn.z"): `*` records the rest, the tensors the shape
walk-through and the activation-memory count describe. When nothing records the scores or the
weights, attention runs on the fused kernel.
"""
from __future__ import annotations

from contextlib import nullcontext
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import ContextManager, Iterable

import torch

from .hooks import active_hooks
from .sites import AttentionSite

HEAD_OUTPUT = "z"


class Trace:
    """Collects activations whose names match any of the given glob patterns."""

    def __init__(self, include: Iterable[str] = ("*",)):
        self.patterns = tuple(include)
        self.cache: dict[str, torch.Tensor] = {}
        self._contexts: list[ContextManager] = []

    def wants(self, name: str) -> bool:
        return _matches(self.patterns, name)

    def record(self, name: str, tensor: torch.Tensor) -> None:
        if self.wants(name):
            self.cache[name] = tensor.detach()

    def _hook(self, tensor: torch.Tensor, name: str) -> None:
        self.cache[name] = tensor.detach()

    def __enter__(self) -> "Trace":
        """Record every pass run inside the `with` block."""
        context = active_hooks(((self.wants, self._hook),))
        context.__enter__()
        self._contexts.append(context)
        return self

    def __exit__(self, *exc) -> None:
        self._contexts.pop().__exit__(*exc)

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.cache[name]

    def __contains__(self, name: str) -> bool:
        return name in self.cache

    def names(self) -> list[str]:
        return list(self.cache)

    def attention(self, site: AttentionSite, part: str = "weights") -> torch.Tensor:
        """All layers' `part` ("weights" or "scores") of one attention site, stacked: [L, B, H, Tq, Tk]."""
        layers = []
        while site.key(len(layers), part) in self.cache:
            layers.append(self.cache[site.key(len(layers), part)])
        if not layers:
            raise KeyError(f"no {site.name} {part} were recorded; recorded: {self.names()[:8]}...")
        return torch.stack(layers)


@lru_cache(maxsize=8192)
def _matches(patterns: tuple[str, ...], name: str) -> bool:
    """Whether `name` matches any of the glob `patterns` (names and patterns repeat every forward pass);
    a per-head output only by a pattern that asks for it."""
    if name.endswith(f".{HEAD_OUTPUT}"):
        patterns = tuple(p for p in patterns if p.endswith(f".{HEAD_OUTPUT}"))
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def recording(trace: Trace | None) -> ContextManager:
    """The context in which `trace` records (nothing happens for None)."""
    return nullcontext() if trace is None else trace
