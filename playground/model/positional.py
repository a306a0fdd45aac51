"""Positional encodings behind one interface.

Each encoding offers `added(offset, length)`, the vectors an absolute encoding adds to the
embeddings, and `rotate(x, offset)` for encodings applied to queries and keys inside attention (RoPE).
`offset` is the absolute position of the first token (the KV-cache length while decoding).
"""
from __future__ import annotations

import math

import torch
from torch import nn


def sinusoidal_table(length: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(pos / base^(2i/d)).  [T, D]"""
    position = torch.arange(length, dtype=torch.float32)[:, None]          # [T, 1]
    even_dims = torch.arange(0, d_model, 2, dtype=torch.float32)           # [ceil(D/2)]
    angle = position / base ** (even_dims / d_model)                        # [T, ceil(D/2)]
    table = torch.zeros(length, d_model)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return table


def rope_angles(positions: torch.Tensor, head_dim: int, base: float = 10000.0) -> torch.Tensor:
    """Rotation angle of each pair: positions[t] * base^(-2i/Dh).  [T, Dh/2]"""
    inverse_frequency = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)
    return positions.float()[:, None] * inverse_frequency[None, :]


class PositionalEncoding(nn.Module):
    """No positions at all: attention is then permutation-equivariant."""

    def added(self, offset: int, length: int) -> torch.Tensor | None:
        """The vectors added to the embeddings at positions offset..offset+length-1 [T, D]; None when none are."""
        return None

    def rotate(self, x: torch.Tensor, offset: int = 0) -> torch.Tensor:  # [B, H, T, Dh]
        return x

    def table(self, length: int) -> torch.Tensor | None:
        """The additive table [T, D] for plots, or None when positions are not added."""
        return None


class SinusoidalPositions(PositionalEncoding):
    """Fixed sin/cos table, computed once; positions past max_len are computed on demand."""

    def __init__(self, d_model: int, max_len: int):
        super().__init__()
        self.d_model = d_model
        self.register_buffer("pe", sinusoidal_table(max_len, d_model), persistent=False)  # [max_len, D]

    def table(self, length: int) -> torch.Tensor:
        if length <= self.pe.size(0):
            return self.pe[:length]
        return sinusoidal_table(length, self.d_model).to(self.pe.device)

    def added(self, offset, length):
        return self.table(offset + length)[offset:]


class LearnedPositions(PositionalEncoding):
    """One trained vector per position, up to max_len."""

    def __init__(self, d_model: int, max_len: int):
        super().__init__()
        self.embedding = nn.Embedding(max_len, d_model)

    def table(self, length: int) -> torch.Tensor:
        return self.embedding.weight[:length]

    def added(self, offset, length):
        end = offset + length
        if end > self.embedding.num_embeddings:
            raise ValueError(f"position {end - 1} is past the learned table (max_len={self.embedding.num_embeddings})")
        return self.embedding.weight[offset:end]


class RotaryPositions(PositionalEncoding):
    """RoPE: rotate each pair (x[j], x[j + Dh/2]) of q and k by angle pos * base^(-2j/Dh).

    The dot product of a rotated query and key then depends only on their distance.
    """

    def __init__(self, head_dim: int, max_len: int, base: float = 10000.0):
        super().__init__()
        self.head_dim = head_dim
        self.base = base
        angles = rope_angles(torch.arange(max_len), head_dim, base)          # [max_len, Dh/2]
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def _cos_sin(self, offset: int, length: int):
        end = offset + length
        if end <= self.cos.size(0):
            return self.cos[offset:end], self.sin[offset:end]
        angles = rope_angles(torch.arange(offset, end, device=self.cos.device), self.head_dim, self.base)
        return angles.cos(), angles.sin()

    def rotate(self, x, offset=0):                                           # [B, H, T, Dh]
        cos, sin = self._cos_sin(offset, x.size(-2))                         # [T, Dh/2]
        first, second = x.chunk(2, dim=-1)                                   # [B, H, T, Dh/2] each
        return torch.cat((first * cos - second * sin, first * sin + second * cos), dim=-1)


def build_positional(kind: str, d_model: int, head_dim: int, max_len: int, rope_base: float = 10000.0) -> PositionalEncoding:
    if kind == "sinusoidal":
        return SinusoidalPositions(d_model, max_len)
    if kind == "learned":
        return LearnedPositions(d_model, max_len)
    if kind == "rope":
        return RotaryPositions(head_dim, max_len, rope_base)
    if kind == "none":
        return PositionalEncoding()
    raise ValueError(f"unknown positional encoding {kind!r}")


def embedding_scale(d_model: int, enabled: bool) -> float:
    """sqrt(d_model) when token embeddings are scaled before positions are added, else 1."""
    return math.sqrt(d_model) if enabled else 1.0
