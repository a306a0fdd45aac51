"""The playground's three architectures rebuilt from torch's own Transformer layers.

torch.nn.TransformerEncoderLayer, TransformerDecoderLayer and nn.Transformer implement the
same blocks independently, so with the weights copied across (`copy_from`) they are the
reference the hand-written model is checked against, and the baseline the model bench times.
Token embeddings (times sqrt(D) where configured), learned positions and the output head are
written here as in the model; torch has no layers for them.

Where torch and the playground differ on purpose:
- nn.Transformer ends both stacks with a LayerNorm whatever the norm placement; the playground
  adds that final LayerNorm only to pre-norm stacks (a post-norm block already ends in one), so
  the references drop torch's for post-norm stacks.
- torch keeps the query, key and value projections in one matrix `in_proj_weight` [3D, D];
  the playground keeps w_q, w_k, w_v, which `copy_from` stacks in that order.
"""
from __future__ import annotations

import math

import torch
from torch import nn

from playground.model import ModelConfig


def layer_options(config: ModelConfig) -> dict:
    """The keyword arguments torch's Transformer layers take for this config."""
    return dict(d_model=config.d_model, nhead=config.n_heads, dim_feedforward=config.d_ff, dropout=0.0,
                activation=config.activation, norm_first=config.norm == "pre", batch_first=True, bias=config.bias)


def _final_norm(config: ModelConfig) -> nn.LayerNorm | None:
    return nn.LayerNorm(config.d_model, bias=config.bias) if config.norm == "pre" else None


class _Embedding(nn.Module):
    """tokens[ids] * (sqrt(D) or 1) + learned positions[:T].  [B, T] -> [B, T, D]"""

    def __init__(self, vocab_size: int, config: ModelConfig):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, config.d_model)
        self.positions = nn.Embedding(config.max_len, config.d_model)
        self.scale = math.sqrt(config.d_model) if config.scale_embedding else 1.0

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.tokens(ids) * self.scale + self.positions.weight[: ids.size(1)]

    def copy_from(self, ours: nn.Module) -> None:
        self.tokens.weight.copy_(ours.tokens.weight)
        self.positions.weight.copy_(ours.positions.embedding.weight)


def _copy_linear(ours: nn.Linear, theirs: nn.Linear) -> None:
    theirs.weight.copy_(ours.weight)
    if ours.bias is not None:
        theirs.bias.copy_(ours.bias)


def _copy_attention(ours: nn.Module, theirs: nn.MultiheadAttention) -> None:
    theirs.in_proj_weight.copy_(torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight]))
    if ours.w_q.bias is not None:
        theirs.in_proj_bias.copy_(torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias]))
    _copy_linear(ours.w_o, theirs.out_proj)


def _copy_norm(ours: nn.Module, theirs: nn.LayerNorm | None) -> None:
    if theirs is None:
        return
    theirs.weight.copy_(ours.weight)
    if ours.bias is not None:
        theirs.bias.copy_(ours.bias)


def _copy_feed_forward(ours: nn.Module, theirs: nn.Module) -> None:
    _copy_linear(ours.w_in, theirs.linear1)
    _copy_linear(ours.w_out, theirs.linear2)


def _copy_encoder(ours: nn.Module, theirs: nn.TransformerEncoder) -> None:
    """Our EncoderStack's (or a decoder-only stack's) blocks -> torch encoder layers."""
    for block, layer in zip(ours.blocks, theirs.layers, strict=True):
        _copy_attention(block.self_attn, layer.self_attn)
        _copy_feed_forward(block.ffn, layer)
        _copy_norm(block.norm_self, layer.norm1)
        _copy_norm(block.norm_ffn, layer.norm2)
    _copy_norm(ours.final_norm, theirs.norm)


def _copy_decoder(ours: nn.Module, theirs: nn.TransformerDecoder) -> None:
    for block, layer in zip(ours.blocks, theirs.layers, strict=True):
        _copy_attention(block.self_attn, layer.self_attn)
        _copy_attention(block.cross_attn, layer.multihead_attn)
        _copy_feed_forward(block.ffn, layer)
        _copy_norm(block.norm_self, layer.norm1)
        _copy_norm(block.norm_cross, layer.norm2)
        _copy_norm(block.norm_ffn, layer.norm3)
    _copy_norm(ours.final_norm, theirs.norm)


class _Head(nn.Module):
    """Shared by the three references: the output head, tied to `embedding` when configured."""

    def _make_head(self, config: ModelConfig, vocab_size: int, embedding: nn.Embedding) -> None:
        self.head = nn.Linear(config.d_model, vocab_size, bias=False)
        if config.tie_weights:
            self.head.weight = embedding.weight

    def _copy_head(self, ours: nn.Module) -> None:
        if not self.config.tie_weights:
            self.head.weight.copy_(ours.head.weight)


class TorchReference(_Head):
    """A GPT: torch.nn.TransformerEncoderLayer stack with a causal mask (decoder-only)."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.embed = _Embedding(config.vocab_size, config)
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(**layer_options(config)),
                                            config.n_decoder_layers, norm=_final_norm(config),
                                            enable_nested_tensor=False)
        self._make_head(config, config.vocab_size, self.embed.tokens)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:                   # [B, T] -> [B, T, V]
        mask = nn.Transformer.generate_square_subsequent_mask(ids.size(1))  # [T, T], -inf above the diagonal
        return self.head(self.layers(self.embed(ids), mask=mask, is_causal=True))

    @torch.no_grad()
    def copy_from(self, model: nn.Module) -> TorchReference:
        """Take every weight of a playground DecoderOnly with learned positions."""
        self.embed.copy_from(model.decoder.embed)
        _copy_encoder(model.decoder, self.layers)
        self._copy_head(model)
        return self


class TorchEncoderReference(_Head):
    """A BERT-style encoder: torch.nn.TransformerEncoderLayer stack, padding keys masked."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.embed = _Embedding(config.vocab_size, config)
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(**layer_options(config)),
                                            config.n_encoder_layers, norm=_final_norm(config),
                                            enable_nested_tensor=False)
        self._make_head(config, config.vocab_size, self.embed.tokens)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:                   # [B, S] -> [B, S, V]
        return self.head(self.layers(self.embed(ids), src_key_padding_mask=ids == self.config.pad_id))

    @torch.no_grad()
    def copy_from(self, model: nn.Module) -> TorchEncoderReference:
        """Take every weight of a playground EncoderOnly with learned positions."""
        self.embed.copy_from(model.encoder.embed)
        _copy_encoder(model.encoder, self.layers)
        self._copy_head(model)
        return self


class TorchEncoderDecoderReference(_Head):
    """The original Transformer: torch.nn.Transformer between our embeddings and head."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.source_embed = _Embedding(config.vocab_size, config)
        self.target_embed = _Embedding(config.target_vocab_size, config)
        if config.tie_weights:
            self.target_embed.tokens.weight = self.source_embed.tokens.weight
        encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(**layer_options(config)), config.n_encoder_layers,
                                        norm=_final_norm(config), enable_nested_tensor=False)
        decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(**layer_options(config)), config.n_decoder_layers,
                                        norm=_final_norm(config))
        self.transformer = nn.Transformer(custom_encoder=encoder, custom_decoder=decoder, **layer_options(config))
        self._make_head(config, config.target_vocab_size, self.target_embed.tokens)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:  # [B, S], [B, T] -> [B, T, V]
        padding = src == self.config.pad_id                                  # [B, S]
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))   # [T, T]
        out = self.transformer(self.source_embed(src), self.target_embed(tgt), tgt_mask=mask, tgt_is_causal=True,
                               src_key_padding_mask=padding, memory_key_padding_mask=padding)
        return self.head(out)

    @torch.no_grad()
    def copy_from(self, model: nn.Module) -> TorchEncoderDecoderReference:
        """Take every weight of a playground EncoderDecoder with learned positions."""
        self.source_embed.copy_from(model.encoder.embed)
        self.target_embed.copy_from(model.decoder.embed)
        _copy_encoder(model.encoder, self.transformer.encoder)
        _copy_decoder(model.decoder, self.transformer.decoder)
        self._copy_head(model)
        return self
