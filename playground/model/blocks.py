"""Transformer blocks, built from the model's config: feed-forward (plain or gated), norms (LayerNorm or
RMSNorm), encoder block, decoder block; pre- or post-norm.

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
from .config import ModelConfig
from .hooks import HookPoint
from .positional import PositionalEncoding


def residual_add(x: torch.Tensor, sublayer_out: torch.Tensor) -> torch.Tensor:
    """The residual connection: the sub-layer adds to the stream instead of replacing it."""
    return x + sublayer_out


def activation_function(name: str) -> nn.Module:
    """"relu", "gelu" (exact), "gelu_tanh" (the tanh approximation GPT-2 was trained with) or "silu" (x sigmoid(x))."""
    if name == "gelu_tanh":
        return nn.GELU(approximate="tanh")
    return {"gelu": nn.GELU, "silu": nn.SiLU}.get(name, nn.ReLU)()


class RMSNorm(nn.Module):
    """RMSNorm(x) = x / sqrt(mean(x^2) + eps) * weight: LayerNorm without the centring and without a bias.  [..., D]"""

    def __init__(self, d_model: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))
        self.register_parameter("bias", None)     # none, as a LayerNorm without bias says it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean_square = x.pow(2).mean(dim=-1, keepdim=True)                   # [..., 1]
        return x * torch.rsqrt(mean_square + self.eps) * self.weight


def make_norm(config: ModelConfig) -> nn.Module:
    """The configured norm over the model's features: LayerNorm or RMSNorm."""
    if config.norm_type == "rmsnorm":
        return RMSNorm(config.d_model, config.norm_eps)
    return nn.LayerNorm(config.d_model, eps=config.norm_eps, bias=config.bias)


def make_attention(config: ModelConfig) -> MultiHeadAttention:
    return MultiHeadAttention(config.d_model, config.n_heads, config.bias, config.dropout,
                              n_kv_heads=config.kv_heads, qkv_bias=config.projection_bias)


class FeedForward(nn.Module):
    """Position-wise feed-forward.  [B, T, D] -> [B, T, F] -> [B, T, D]

        plain:  FFN(x) = W_out act(W_in x + b_in) + b_out
        gated:  FFN(x) = W_out (act(W_gate x) * W_in x)      (SwiGLU with SiLU: gate, up = W_in, down = W_out)
    """

    def __init__(self, config: ModelConfig):
        super().__init__()
        d_model, d_ff, bias = config.d_model, config.d_ff, config.bias
        self.w_gate = nn.Linear(d_model, d_ff, bias=bias) if config.gated_ffn else None
        self.w_in = nn.Linear(d_model, d_ff, bias=bias)
        self.activation = activation_function(config.activation)
        self.dropout = nn.Dropout(config.dropout)
        self.w_out = nn.Linear(d_ff, d_model, bias=bias)
        self.hook_gate = HookPoint() if config.gated_ffn else None
        self.hook_hidden, self.hook_out = HookPoint(), HookPoint()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.w_gate is None:
            hidden = self.activation(self.w_in(x))                           # [B, T, F]
        else:
            hidden = self.hook_gate(self.activation(self.w_gate(x))) * self.w_in(x)   # [B, T, F]
        hidden = self.hook_hidden(hidden)
        return self.hook_out(self.w_out(self.dropout(hidden)))               # [B, T, D]


class _Block(nn.Module):
    """What encoder and decoder blocks share: the sub-layer wrapper and the feed-forward."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.pre_norm = config.norm == "pre"
        self.residual: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] = residual_add
        self.dropout = nn.Dropout(config.dropout)
        self.ffn = FeedForward(config)
        self.norm_ffn = make_norm(config)
        self.hook_resid_pre, self.hook_resid_mid, self.hook_resid_post = HookPoint(), HookPoint(), HookPoint()

    def sublayer(self, x: torch.Tensor, norm: nn.Module, fn: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
        if self.pre_norm:
            return self.residual(x, self.dropout(fn(norm(x))))
        return norm(self.residual(x, self.dropout(fn(x))))

    def feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.hook_resid_post(self.sublayer(x, self.norm_ffn, self.ffn))


class EncoderBlock(_Block):
    """Self-attention (bidirectional unless a mask says otherwise), then feed-forward."""

    def __init__(self, config: ModelConfig):
        super().__init__(config)
        self.self_attn = make_attention(config)
        self.norm_self = make_norm(config)

    def forward(self, x, mask=None, positions: PositionalEncoding | None = None):
        x = self.hook_resid_pre(x)                                           # [B, T, D]
        x = self.sublayer(x, self.norm_self, lambda h: self.self_attn(h, mask, positions=positions))
        return self.feed_forward(self.hook_resid_mid(x))


class DecoderBlock(_Block):
    """Masked self-attention, cross-attention to the encoder output (seq2seq only), feed-forward."""

    def __init__(self, config: ModelConfig, cross_attention: bool):
        super().__init__(config)
        self.self_attn = make_attention(config)
        self.norm_self = make_norm(config)
        self.cross_attn = make_attention(config) if cross_attention else None
        self.norm_cross = make_norm(config) if cross_attention else None
        self.hook_resid_cross = HookPoint() if cross_attention else None

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
