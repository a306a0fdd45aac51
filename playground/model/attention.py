"""Scaled dot-product attention, written out, and multi-head attention with a KV cache.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k) + mask) V

The pieces (score function, head split and merge) are module attributes, so an experiment can
swap one from outside; the fused kernel is used only while every piece is the reference one
and no hook reads or replaces the scores or the weights.
"""
from __future__ import annotations

import math
import torch
import torch.nn.functional as F
from torch import nn

from .hooks import HookPoint, name_hook_points
from .positional import PositionalEncoding


def scaled_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Q K^T / sqrt(d_k).  [B, H, Tq, Dh] x [B, H, Tk, Dh] -> [B, H, Tq, Tk]"""
    return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))


def split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """[B, T, D] -> [B, H, T, Dh]: each head gets its own slice of the features, at every position."""
    batch, length, d_model = x.shape
    return x.view(batch, length, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """[B, H, T, Dh] -> [B, T, H*Dh]: the inverse of split_heads."""
    batch, n_heads, length, head_dim = x.shape
    return x.transpose(1, 2).reshape(batch, length, n_heads * head_dim)


def share_kv_heads(x: torch.Tensor, group: int) -> torch.Tensor:
    """[B, Hkv, T, Dh] -> [B, Hkv * group, T, Dh]: key/value head j serves query heads j*group .. (j+1)*group - 1."""
    return x if group == 1 else x.repeat_interleave(group, dim=1)


def _identity(x: torch.Tensor) -> torch.Tensor:
    return x


def attend(q, k, v, mask: torch.Tensor | None, score_fn=scaled_scores, dropout: nn.Module | None = None,
           on_scores=_identity, on_weights=_identity):
    """The explicit path. Returns (output [B, H, Tq, Dh], scores [B, H, Tq, Tk], weights [B, H, Tq, Tk]).

    mask: bool (True = may attend; False becomes -inf before the softmax) or, as in
    torch.nn.functional.scaled_dot_product_attention, float numbers added to the scores.
    on_scores, on_weights: what the scores and the weights pass through (a layer's hook points).
    """
    scores = on_scores(score_fn(q, k))
    if mask is None:
        masked = scores
    elif mask.dtype == torch.bool:
        masked = scores.masked_fill(~mask, float("-inf"))
    else:
        masked = scores + mask
    weights = on_weights(torch.softmax(masked, dim=-1))
    dropped = weights if dropout is None else dropout(weights)
    return dropped @ v, scores, weights


class LayerCache:
    """Keys and values one attention layer has already computed.

    They live in buffers [B, Hkv, capacity, Dh] (one per key/value head) that grow geometrically, so
    appending a token writes one slot instead of copying the whole history; `k` and `v` are views
    [B, Hkv, length, Dh].
    """

    def __init__(self):
        self._k: torch.Tensor | None = None
        self._v: torch.Tensor | None = None
        self.length = 0

    @property
    def k(self) -> torch.Tensor | None:
        return None if self._k is None else self._k[:, :, : self.length]

    @property
    def v(self) -> torch.Tensor | None:
        return None if self._v is None else self._v[:, :, : self.length]

    def append(self, k: torch.Tensor, v: torch.Tensor):
        """Add new keys/values [B, Hkv, Tnew, Dh]; return all of them [B, Hkv, length, Dh]."""
        end = self.length + k.size(2)
        if self._k is None or end > self._k.size(2):
            capacity = max(end, 64, 2 * (0 if self._k is None else self._k.size(2)))
            self._k, self._v = self._grown(self._k, k, capacity), self._grown(self._v, v, capacity)
        self._k[:, :, self.length:end] = k
        self._v[:, :, self.length:end] = v
        self.length = end
        return self.k, self.v

    def _grown(self, old: torch.Tensor | None, like: torch.Tensor, capacity: int) -> torch.Tensor:
        batch, heads, _, head_dim = like.shape
        buffer = like.new_zeros(batch, heads, capacity, head_dim)
        if old is not None:
            buffer[:, :, : self.length] = old[:, :, : self.length]
        return buffer

    def crop(self, length: int) -> None:
        """Forget every position from `length` on."""
        self.length = min(self.length, length)

    def reorder(self, batch_index: torch.Tensor) -> None:
        """Keep batch rows `batch_index` (in that order), e.g. the surviving beams."""
        if self._k is not None:
            self._k, self._v = self._k.index_select(0, batch_index), self._v.index_select(0, batch_index)

    def copy(self) -> "LayerCache":
        """An independent copy: appending to either leaves the other as it was."""
        twin = LayerCache()
        if self._k is not None:
            twin._k, twin._v = self._k.clone(), self._v.clone()
        twin.length = self.length
        return twin


class MultiHeadAttention(nn.Module):
    """Self- or cross-attention over H heads of size Dh = D / H.

    Grouped-query attention: with n_kv_heads < H, the keys and values have n_kv_heads heads, each
    shared by a group of H / n_kv_heads consecutive query heads (multi-query attention: one). The
    KV cache then holds n_kv_heads heads, H / n_kv_heads times less than multi-head attention.

    Self-attention: keys and values come from `x` and grow in `cache` while decoding.
    Cross-attention: keys and values come from `context` (the encoder output) and are computed
    once, then reused from `cache`.
    """

    def __init__(self, d_model: int, n_heads: int, bias: bool = True, dropout: float = 0.0,
                 n_kv_heads: int | None = None, qkv_bias: bool | None = None):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads or n_heads
        d_kv = self.n_kv_heads * (d_model // n_heads)                      # the keys' and values' width
        qkv_bias = bias if qkv_bias is None else qkv_bias
        self.w_q = nn.Linear(d_model, d_model, bias=qkv_bias)
        self.w_k = nn.Linear(d_model, d_kv, bias=qkv_bias)
        self.w_v = nn.Linear(d_model, d_kv, bias=qkv_bias)
        self.w_o = nn.Linear(d_model, d_model, bias=bias)
        self.dropout_p = dropout
        self.attn_dropout = nn.Dropout(dropout)
        self.score_fn = scaled_scores
        self.split = split_heads
        self.merge = merge_heads
        self.hook_q, self.hook_k, self.hook_v = HookPoint(), HookPoint(), HookPoint()
        self.hook_scores, self.hook_weights = HookPoint(), HookPoint()
        self.hook_z, self.hook_out = HookPoint(), HookPoint()
        name_hook_points(self)                   # "q", "weights", ...: a model renames them from its tree

    def uses_reference_pieces(self) -> bool:
        return self.score_fn is scaled_scores and self.split is split_heads and self.merge is merge_heads

    def uses_fused_kernel(self) -> bool:
        """Whether this pass may run the fused kernel: reference pieces, and nothing reads the scores or weights."""
        return self.uses_reference_pieces() and not (self.hook_scores.hooked or self.hook_weights.hooked)

    def forward(
        self,
        x: torch.Tensor,                          # [B, Tq, D]
        mask: torch.Tensor | None = None,         # bool (or additive float), broadcastable to [B, H, Tq, Tk]
        is_causal: bool = False,                  # mask is exactly the square causal mask
        context: torch.Tensor | None = None,      # [B, Tk, D] for cross-attention
        positions: PositionalEncoding | None = None,
        offset: int = 0,
        cache: LayerCache | None = None,
    ) -> torch.Tensor:                            # [B, Tq, D]
        if context is None:
            q, k, v = self.w_q(x), self.w_k(x), self.w_v(x)                  # [B, Tq, D], [B, Tq, Dkv] x 2
            q = self.split(q, self.n_heads)                                  # [B, H, Tq, Dh]
            k, v = self.split(k, self.n_kv_heads), self.split(v, self.n_kv_heads)   # [B, Hkv, Tq, Dh] each
            if positions is not None:
                q, k = positions.rotate(q, offset), positions.rotate(k, offset)
            if cache is not None:
                k, v = cache.append(k, v)                                    # [B, Hkv, Tk, Dh]
        elif cache is not None and cache.k is not None:
            q = self.split(self.w_q(x), self.n_heads)                        # [B, H, Tq, Dh]
            k, v = cache.k, cache.v
        else:
            q = self.split(self.w_q(x), self.n_heads)
            k = self.split(self.w_k(context), self.n_kv_heads)               # [B, Hkv, Tk, Dh]
            v = self.split(self.w_v(context), self.n_kv_heads)
            if cache is not None:
                cache.append(k, v)
        q, k, v = self.hook_q(q), self.hook_k(k), self.hook_v(v)

        dropout_p = self.dropout_p if self.training else 0.0
        group = self.n_heads // self.n_kv_heads                              # query heads per key/value head
        if self.uses_fused_kernel():
            z = F.scaled_dot_product_attention(q, k, v, attn_mask=None if is_causal else mask, is_causal=is_causal,
                                               dropout_p=dropout_p, enable_gqa=group > 1)
        else:
            k, v = share_kv_heads(k, group), share_kv_heads(v, group)        # [B, H, Tk, Dh]
            z, _, _ = attend(q, k, v, mask, self.score_fn, self.attn_dropout if dropout_p else None,
                             self.hook_scores, self.hook_weights)            # [B, H, Tq, Dh]
        heads = self.hook_z(z.transpose(1, 2))                               # [B, Tq, H, Dh]: each head's output
        return self.hook_out(self.w_o(self.merge(heads.transpose(1, 2))))    # [B, Tq, D]
