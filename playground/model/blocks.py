"""Transformer blocks: feed-forward, encoder block, decoder block; pre- or post-norm.

Every sub-layer is wrapped the same way:
    pre-norm:  x = residual(x, dropout(sublayer(norm(x))))
    post-norm: x = norm(residual(x, dropout(sublayer(x))))
`residual` and the norms are attributes, so an experiment can swap them from outside.
"""
from __future__ import annotations

from typing import Callable

import torch
from torch import nn

from .attention import LayerCache, MultiHeadAttention
from .hooks import HookPoint
from .positional import PositionalEncoding


def residual_add(x: torch.Tensor, sublayer_out: torch.Tensor) -> torch.Tensor:
    """The residual connection: the sub-layer adds to the stream instead of replacing it."""
    return x + sublayer_out


def activation_function(name: str) -> nn.Module:
    """"relu", "gelu" (exact) or "gelu_tanh" (the tanh approximation GPT-2 was trained with)."""
    if name == "gelu_tanh":
        return nn.GELU(approximate="tanh")
    return nn.GELU() if name == "gelu" else nn.ReLU()


class FeedForward(nn.Module):
    """Position-wise FFN(x) = W2 act(W1 x + b1) + b2.  [B, T, D] -> [B, T, F] -> [B, T, D]"""

    def __init__(self, d_model: int, d_ff: int, activation: str, name: str, bias: bool = True, dropout: float = 0.0):
        super().__init__()
        self.name = name
        self.w_in = nn.Linear(d_model, d_ff, bias=bias)
        self.activation = activation_function(activation)
        self.dropout = nn.Dropout(dropout)
        self.w_out = nn.Linear(d_ff, d_model, bias=bias)
        self.hook_hidden, self.hook_out = HookPoint(f"{name}.hidden"), HookPoint(f"{name}.out")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = self.hook_hidden(self.activation(self.w_in(x)))              # [B, T, F]
        return self.hook_out(self.w_out(self.dropout(hidden)))               # [B, T, D]


class _Block(nn.Module):
    """What encoder and decoder blocks share: the sub-layer wrapper and the feed-forward."""

    def __init__(self, d_model: int, d_ff: int, activation: str, norm: str, bias: bool, dropout: float, name: str,
                 norm_eps: float = 1e-5):
        super().__init__()
        self.norm_eps = norm_eps
        self.name = name
        self.pre_norm = norm == "pre"
        self.residual: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] = residual_add
        self.dropout = nn.Dropout(dropout)
        self.ffn = FeedForward(d_model, d_ff, activation, f"{name}.ffn", bias, dropout)
        self.norm_ffn = self.layer_norm(d_model, bias)
        self.hook_resid_pre = HookPoint(f"{name}.resid_pre")
        self.hook_resid_mid = HookPoint(f"{name}.resid_mid")
        self.hook_resid_post = HookPoint(f"{name}.resid_post")

    def layer_norm(self, d_model: int, bias: bool) -> nn.LayerNorm:
        return nn.LayerNorm(d_model, eps=self.norm_eps, bias=bias)

    def sublayer(self, x: torch.Tensor, norm: nn.Module, fn: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
        if self.pre_norm:
            return self.residual(x, self.dropout(fn(norm(x))))
        return norm(self.residual(x, self.dropout(fn(x))))

    def feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.hook_resid_post(self.sublayer(x, self.norm_ffn, self.ffn))


class EncoderBlock(_Block):
    """Self-attention (bidirectional unless a mask says otherwise), then feed-forward."""

    def __init__(self, d_model, n_heads, d_ff, activation, norm, bias, dropout, name, norm_eps=1e-5):
        super().__init__(d_model, d_ff, activation, norm, bias, dropout, name, norm_eps)
        self.self_attn = MultiHeadAttention(d_model, n_heads, f"{name}.self_attn", bias, dropout)
        self.norm_self = self.layer_norm(d_model, bias)

    def forward(self, x, mask=None, positions: PositionalEncoding | None = None):
        x = self.hook_resid_pre(x)                                           # [B, T, D]
        x = self.sublayer(x, self.norm_self, lambda h: self.self_attn(h, mask, positions=positions))
        return self.feed_forward(self.hook_resid_mid(x))


class DecoderBlock(_Block):
    """Masked self-attention, cross-attention to the encoder output (seq2seq only), feed-forward."""

    def __init__(self, d_model, n_heads, d_ff, activation, norm, bias, dropout, name, cross_attention: bool,
                 norm_eps=1e-5):
        super().__init__(d_model, d_ff, activation, norm, bias, dropout, name, norm_eps)
        self.self_attn = MultiHeadAttention(d_model, n_heads, f"{name}.self_attn", bias, dropout)
        self.norm_self = self.layer_norm(d_model, bias)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, f"{name}.cross_attn", bias, dropout) if cross_attention else None
        self.norm_cross = self.layer_norm(d_model, bias) if cross_attention else None
        self.hook_resid_cross = HookPoint(f"{name}.resid_cross") if cross_attention else None

    def forward(
        self,
        x,                                        # [B, T, D]
        mask=None,                                # [Tq, Tk] or broadcastable
        is_causal: bool = False,
        positions: PositionalEncoding | None = None,
        offset: int = 0,
        memory=None,                              # [B, S, D] encoder output
        memory_mask=None,                         # [B, 1, 1, S]
        self_cache: LayerCache | None = None,
        cross_cache: LayerCache | None = None,
    ):
        x = self.hook_resid_pre(x)
        x = self.sublayer(x, self.norm_self, lambda h: self.self_attn(
            h, mask, is_causal, positions=positions, offset=offset, cache=self_cache))
        x = self.hook_resid_mid(x)
        if self.cross_attn is not None:
            x = self.sublayer(x, self.norm_cross, lambda h: self.cross_attn(
                h, memory_mask, context=memory, cache=cross_cache))
            x = self.hook_resid_cross(x)
        return self.feed_forward(x)
