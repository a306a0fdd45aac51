"""The three architectures: EncoderDecoder (seq2seq), DecoderOnly (GPT), EncoderOnly (BERT-style)."""
from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn

from .attention import LayerCache
from .blocks import DecoderBlock, EncoderBlock, make_norm
from .config import ModelConfig
from .hooks import HookPoint, name_hook_points
from .masks import causal_mask, padding_mask
from .positional import build_positional, embedding_scale
from .sites import AttentionSite
from .trace import Trace, recording


NEVER_LOGIT = -1e9   # the logit of a never-predicted id: exp(NEVER_LOGIT - max) is exactly 0 in float32 and
                     # float64, while log-probabilities stay finite (so 0 * log 0 terms stay 0, not NaN)


def final_norm(config: ModelConfig) -> nn.Module:
    """The norm a pre-norm stack ends with (a post-norm stack's last block already normalised)."""
    return make_norm(config) if config.norm == "pre" else nn.Identity()


class Embedding(nn.Module):
    """Token embedding (times sqrt(D) where configured) plus additive positions, then dropout."""

    def __init__(self, vocab_size: int, config: ModelConfig):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, config.d_model)
        self.scale = embedding_scale(config.d_model, config.scale_embedding)
        self.positions = build_positional(config.positional, config.d_model, config.head_dim, config.max_len,
                                          config.rope_base)
        self.dropout = nn.Dropout(config.dropout)
        self.hook_tok_embed = HookPoint()
        additive = self.positions.table(1) is not None                      # RoPE and none add no vectors
        self.hook_pos_embed = HookPoint() if additive else None

    def forward(self, ids: torch.Tensor, offset: int = 0) -> torch.Tensor:
        x = self.hook_tok_embed(self.tokens(ids) * self.scale)               # [B, T, D]
        added = self.positions.added(offset, ids.size(1))                    # [T, D], None for RoPE and none
        if added is not None:
            x = x + self.hook_pos_embed(added)
        return self.dropout(x)


class Memory(NamedTuple):
    """What the encoder hands the rest of the model."""

    hidden: torch.Tensor                  # [B, S, D]
    mask: torch.Tensor | None             # [B, 1, 1, S] key mask, None when nothing is padded


class KVCache:
    """Per-layer key/value caches of a decoder; `length` tokens have been processed."""

    def __init__(self, n_layers: int):
        self.self_attn = [LayerCache() for _ in range(n_layers)]
        self.cross_attn = [LayerCache() for _ in range(n_layers)]

    @property
    def length(self) -> int:
        return self.self_attn[0].length

    def crop(self, length: int) -> None:
        """Forget every position from `length` on (cross-attention keys stay)."""
        for layer in self.self_attn:
            layer.crop(length)

    def reorder(self, batch_index: torch.Tensor) -> None:
        """Keep batch rows `batch_index` in every layer (beam search reorders its hypotheses)."""
        for layer in self.self_attn + self.cross_attn:
            layer.reorder(batch_index)

    def copy(self) -> "KVCache":
        """An independent copy of every layer's keys and values."""
        twin = KVCache(0)
        twin.self_attn = [layer.copy() for layer in self.self_attn]
        twin.cross_attn = [layer.copy() for layer in self.cross_attn]
        return twin


class EncoderStack(nn.Module):
    """Embedding, N bidirectional blocks, and a final LayerNorm for pre-norm stacks."""

    def __init__(self, config: ModelConfig, vocab_size: int):
        super().__init__()
        self.pad_id = config.pad_id
        self.embed = Embedding(vocab_size, config)
        self.blocks = nn.ModuleList(EncoderBlock(config) for _ in range(config.n_encoder_layers))
        self.final_norm = final_norm(config)
        self.hook_final_norm = HookPoint()

    def forward(self, ids: torch.Tensor):
        """ids [B, S] -> (hidden [B, S, D], key mask [B, 1, 1, S] or None when nothing is padded)."""
        mask = padding_mask(ids, self.pad_id) if bool((ids == self.pad_id).any()) else None
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x, mask, self.embed.positions)
        return self.hook_final_norm(self.final_norm(x)), mask


class DecoderStack(nn.Module):
    """Embedding, N causal blocks (with cross-attention in a seq2seq model), final LayerNorm."""

    def __init__(self, config: ModelConfig, vocab_size: int, cross_attention: bool):
        super().__init__()
        self.embed = Embedding(vocab_size, config)
        self.blocks = nn.ModuleList(DecoderBlock(config, cross_attention) for _ in range(config.n_decoder_layers))
        self.final_norm = final_norm(config)
        self.hook_final_norm = HookPoint()
        self.mask_builder = causal_mask

    def forward(self, ids, cache: KVCache | None = None, memory=None, memory_mask=None):
        """ids [B, T] (the new tokens when a cache is given) -> hidden [B, T, D]."""
        offset = cache.length if cache is not None else 0
        n_keys = offset + ids.size(1)
        mask = self.mask_builder(ids.size(1), n_keys, ids.device)            # [Tq, Tk]
        is_causal = False
        if self.mask_builder is causal_mask:
            is_causal = offset == 0                                          # the kernel's own square mask
            mask = None if ids.size(1) == 1 else mask                        # one new query sees every key
        x = self.embed(ids, offset)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, is_causal, self.embed.positions, offset, memory, memory_mask,
                      cache.self_attn[i] if cache is not None else None,
                      cache.cross_attn[i] if cache is not None else None)
        return self.hook_final_norm(self.final_norm(x))


class _LanguageModelHead(nn.Module):
    """Shared pieces: the config, the output head, initialisation, and the one interface of the
    three architectures:

        memory = model.encode(src, trace)                  # Memory, or None without an encoder
        logits = model.decode(ids, memory, cache, trace)   # [B, T, V]
        logits = model.decode(ids, memory, cache, trace, last_only=True)   # [B, 1, V]: the next token's only
        model.sites()                                      # the model's attention sites

    `has_encoder` says whether the model reads a source through an encoder; `has_decoder`
    whether it writes tokens one after another (and so has a KV cache to decode with).
    """

    config: ModelConfig

    @property
    def has_encoder(self) -> bool:
        return self.config.has_encoder

    @property
    def has_decoder(self) -> bool:
        return self.config.has_decoder

    def sites(self) -> tuple[AttentionSite, ...]:
        """The attention sites of this model, encoder first."""
        return self.config.sites()

    def new_cache(self) -> KVCache:
        """An empty KV cache for decoding."""
        if not self.has_decoder:
            raise ValueError(f"a {self.config.arch} model has no decoder to cache keys and values for")
        return KVCache(self.config.n_decoder_layers)

    def encode(self, src: torch.Tensor | None, trace: Trace | None = None) -> Memory | None:
        """src [B, S] -> the encoder's Memory; None for a model without an encoder."""
        return None

    def _make_head(self, vocab_size: int, embedding: nn.Embedding) -> None:
        self.head = nn.Linear(self.config.d_model, vocab_size, bias=False)
        if self.config.tie_weights:
            self.head.weight = embedding.weight
        never = torch.zeros(vocab_size, dtype=torch.bool)
        never[list(self.config.never_predict)] = True
        self.register_buffer("never_predict", never, persistent=False)      # [V]
        self.hook_logits = HookPoint()

    def _finish(self) -> None:
        """Name the hook points from the module tree, then draw the initial weights."""
        name_hook_points(self)
        self._initialise()

    def _initialise(self) -> None:
        """Linear weights ~ N(0, 0.02); token embeddings ~ N(0, 1/D) when scaled by sqrt(D), else N(0, 0.02)."""
        if self.head.weight.is_meta:                       # built on the meta device to be sized: no values to draw
            return
        token_std = self.config.d_model ** -0.5 if self.config.scale_embedding else 0.02
        for module in self.modules():
            if isinstance(module, nn.Linear):
                nn.init.normal_(module.weight, std=0.02)
                if module.bias is not None:
                    nn.init.zeros_(module.bias)
        for name, module in self.named_modules():
            if isinstance(module, nn.Embedding):
                nn.init.normal_(module.weight, std=token_std if name.endswith("tokens") else 0.02)

    def logits(self, hidden: torch.Tensor, last_only: bool = False) -> torch.Tensor:
        """hidden [B, T, D] -> logits [B, T, V]; [B, 1, V] of the last position when `last_only` (what choosing
        the next token needs: the head, the largest matrix of a model with a large vocabulary, runs once)."""
        out = self.head(hidden[:, -1:] if last_only else hidden)             # [B, T or 1, V]
        if self.config.never_predict:
            out = out.masked_fill(self.never_predict, NEVER_LOGIT)
        return self.hook_logits(out)


class DecoderOnly(_LanguageModelHead):
    """GPT: predicts token t+1 from tokens 0..t."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.decoder = DecoderStack(config, config.vocab_size, cross_attention=False)
        self._make_head(config.vocab_size, self.decoder.embed.tokens)
        self._finish()

    def decode(self, ids: torch.Tensor, memory: Memory | None = None, cache: KVCache | None = None,
               trace: Trace | None = None, last_only: bool = False) -> torch.Tensor:
        """ids [B, T] -> logits [B, T, V] ([B, 1, V] when `last_only`). With a cache, ids are the new tokens
        only. No memory."""
        if memory is not None:
            raise ValueError("a decoder_only model reads no encoder memory; pass memory=None")
        with recording(trace):
            return self.logits(self.decoder(ids, cache), last_only)

    def forward(self, ids: torch.Tensor, cache: KVCache | None = None, trace: Trace | None = None) -> torch.Tensor:
        """ids [B, T] -> logits [B, T, V]. With a cache, ids are the new tokens only."""
        return self.decode(ids, None, cache, trace)


class EncoderOnly(_LanguageModelHead):
    """BERT-style: every position sees both sides; the head predicts each (masked) token."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.encoder = EncoderStack(config, config.vocab_size)
        self._make_head(config.vocab_size, self.encoder.embed.tokens)
        self._finish()

    def encode(self, src: torch.Tensor, trace: Trace | None = None) -> Memory:
        """src [B, S] -> Memory(hidden [B, S, D], key mask)."""
        with recording(trace):
            return Memory(*self.encoder(src))

    def decode(self, ids: torch.Tensor, memory: Memory | None = None, cache: KVCache | None = None,
               trace: Trace | None = None, last_only: bool = False) -> torch.Tensor:
        """The head's prediction at every position of ids [B, T] -> logits [B, T, V] ([B, 1, V] when `last_only`).

        `memory` is the encoding of `ids` when the caller already has it; there is no cache (every
        position sees the whole input, so nothing is decoded token by token).
        """
        if cache is not None:
            raise ValueError("an encoder_only model reads its whole input at once; it has no KV cache")
        if memory is None:
            memory = self.encode(ids, trace)
        with recording(trace):
            return self.logits(memory.hidden, last_only)

    def forward(self, ids: torch.Tensor, trace: Trace | None = None) -> torch.Tensor:
        """ids [B, T] -> logits [B, T, V]."""
        return self.decode(ids, None, None, trace)


class EncoderDecoder(_LanguageModelHead):
    """The original Transformer: the encoder reads the source, the decoder writes the target."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.encoder = EncoderStack(config, config.vocab_size)
        self.decoder = DecoderStack(config, config.target_vocab_size, cross_attention=True)
        if config.tie_weights:
            self.decoder.embed.tokens.weight = self.encoder.embed.tokens.weight
        self._make_head(config.target_vocab_size, self.decoder.embed.tokens)
        self._finish()

    def encode(self, src: torch.Tensor, trace: Trace | None = None) -> Memory:
        """src [B, S] -> Memory(hidden [B, S, D], source key mask [B, 1, 1, S] or None)."""
        with recording(trace):
            return Memory(*self.encoder(src))

    def decode(self, tgt: torch.Tensor, memory: Memory | None = None, cache: KVCache | None = None,
               trace: Trace | None = None, last_only: bool = False) -> torch.Tensor:
        """tgt [B, T] (new tokens when cached) -> logits [B, T, V] ([B, 1, V] when `last_only`), attending to
        the encoder's memory."""
        if memory is None:
            raise ValueError("an encoder_decoder model decodes from the encoder's memory: call encode(src) first")
        with recording(trace):
            return self.logits(self.decoder(tgt, cache, memory.hidden, memory.mask), last_only)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor, trace: Trace | None = None) -> torch.Tensor:
        """src [B, S], tgt [B, T] (bos + target, teacher forcing) -> logits [B, T, V]."""
        return self.decode(tgt, self.encode(src, trace), trace=trace)


MODEL_CLASSES = {"encoder_decoder": EncoderDecoder, "decoder_only": DecoderOnly, "encoder_only": EncoderOnly}


def build_model(config: ModelConfig) -> nn.Module:
    """A freshly initialised model of the configured architecture."""
    if not isinstance(config, ModelConfig):
        raise TypeError(f"build_model needs a ModelConfig, got {type(config).__name__}")
    return MODEL_CLASSES[config.arch](config)
