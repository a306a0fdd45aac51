"""The tutorials' classic bugs, as replacements for reference components.

Each bug is installed into an already built model from outside, by swapping one of the pieces the
reference code exposes (`DecoderStack.mask_builder`, `MultiHeadAttention.score_fn / split /
merge`, a block's `residual`, the embedding's `scale`). The reference model code has no bug
branches; the weights are untouched, so a broken model and the reference can start identical.
"""
from __future__ import annotations

import torch
from torch import nn

from playground.model import MultiHeadAttention, causal_mask
from playground.model.blocks import DecoderBlock, EncoderBlock
from playground.model.models import DecoderStack, Embedding


def upper_triangular_mask(n_queries: int, n_keys: int, device=None) -> torch.Tensor:
    """`torch.triu(ones)` used as the "may attend" mask: each query sees itself and every LATER key.  [Tq, Tk]

    The queries are the last Tq of the Tk positions (as in `causal_mask`), so a query at absolute
    position p may attend to keys p, p+1, ...: during training it reads the very token it must predict.
    """
    offset = n_keys - n_queries
    return torch.ones(n_queries, n_keys, dtype=torch.bool, device=device).triu(diagonal=offset)


def unscaled_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Q K^T without the 1/sqrt(d_k).  [B, H, Tq, Dh] x [B, H, Tk, Dh] -> [B, H, Tq, Tk]"""
    return q @ k.transpose(-2, -1)


def split_heads_without_transpose(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """[B, T, D] -> [B, H, T, Dh] by `view` alone: "head" h gets a block of consecutive positions
    cut into rows of Dh numbers, so a row mixes pieces of different positions and features.

    Written with `reshape`, which is `view` on the contiguous projection the mistake is made on;
    the projections here may arrive as strided slices, which `view` would reject.
    """
    batch, length, d_model = x.shape
    return x.reshape(batch, n_heads, length, d_model // n_heads)


def merge_heads_without_transpose(x: torch.Tensor) -> torch.Tensor:
    """[B, H, T, Dh] -> [B, T, H*Dh] by `reshape` alone: the inverse of split_heads_without_transpose."""
    batch, n_heads, length, head_dim = x.shape
    return x.reshape(batch, length, n_heads * head_dim)


def merge_heads_contiguous_view(x: torch.Tensor) -> torch.Tensor:
    """[B, H, T, Dh] -> [B, T, H*Dh] as the tutorial fixes its `view` error: transpose, copy into
    one contiguous block with `.contiguous()`, then `view` (the reference's `reshape` does the same)."""
    batch, n_heads, length, head_dim = x.shape
    return x.transpose(1, 2).contiguous().view(batch, length, n_heads * head_dim)


def float_causal_mask(n_queries: int, n_keys: int, device=None) -> torch.Tensor:
    """The causal mask as 0/1 floats (1 = may attend).  [Tq, Tk]

    The attention reads a float mask as numbers ADDED to the scores (the convention of
    torch.nn.functional.scaled_dot_product_attention), so allowed keys get +1, future keys +0:
    nothing is hidden.
    """
    return causal_mask(n_queries, n_keys, device).float()


def no_residual(x: torch.Tensor, sublayer_out: torch.Tensor) -> torch.Tensor:
    """A sub-layer that replaces the stream instead of adding to it: x is dropped."""
    return sublayer_out


def _attention_layers(model: nn.Module) -> list[MultiHeadAttention]:
    return [module for module in model.modules() if isinstance(module, MultiHeadAttention)]


def _require(found: list, what: str, model: nn.Module) -> list:
    if not found:
        raise ValueError(f"this bug needs a model with {what}; {type(model).__name__} has none")
    return found


def see_the_future(model: nn.Module) -> None:
    """Every decoder stack builds its self-attention mask upper-triangular."""
    for stack in _require([m for m in model.modules() if isinstance(m, DecoderStack)], "a decoder", model):
        stack.mask_builder = upper_triangular_mask


def forget_score_scale(model: nn.Module) -> None:
    """Every attention layer (self and cross) computes Q K^T without dividing by sqrt(d_k)."""
    for attention in _require(_attention_layers(model), "attention layers", model):
        attention.score_fn = unscaled_scores


def forget_embedding_scale(model: nn.Module) -> None:
    """Token embeddings are added to the positions without the sqrt(d_model) factor."""
    for embedding in _require([m for m in model.modules() if isinstance(m, Embedding)], "embeddings", model):
        embedding.scale = 1.0


def split_heads_wrongly(model: nn.Module) -> None:
    """Every attention layer splits and merges heads with view/reshape and no transpose."""
    for attention in _require(_attention_layers(model), "attention layers", model):
        attention.split = split_heads_without_transpose
        attention.merge = merge_heads_without_transpose


def merge_heads_via_contiguous(model: nn.Module) -> None:
    """Every attention layer merges its heads with transpose + contiguous + view."""
    for attention in _require(_attention_layers(model), "attention layers", model):
        attention.merge = merge_heads_contiguous_view


def mask_with_floats(model: nn.Module) -> None:
    """Every decoder stack builds its causal mask as 0/1 floats instead of booleans."""
    for stack in _require([m for m in model.modules() if isinstance(m, DecoderStack)], "a decoder", model):
        stack.mask_builder = float_causal_mask


def drop_residuals(model: nn.Module) -> None:
    """Every block of every stack loses both residual connections."""
    blocks = [m for m in model.modules() if isinstance(m, (EncoderBlock, DecoderBlock))]
    for block in _require(blocks, "Transformer blocks", model):
        block.residual = no_residual
