"""What one token costs: forward-pass FLOPs, activation memory, KV-cache memory.

Conventions (D = d_model, F = d_ff, V = output vocabulary, n = context_length, the keys each
query attends to; a full pass over n tokens computes every n x n score, masked or not; Dkv =
n_kv_heads x head size, the keys' and values' width: D unless attention is grouped-query):

FLOPs count the matrix products only, at 2 FLOPs per multiply-add; softmax, norms, activations,
biases and residual adds are O(D) per token and left out. Per token and layer:
    attention          4 D^2 + 4 D Dkv   Q and output projections (D x D), K and V (D x Dkv)
    attention_scores   4 D n     Q K^T (D n multiply-adds over all heads) and weights x V (D n)
    feed_forward       4 D F     W_1 (D x F) and W_2 (F x D); 6 D F gated (W_gate too)
and once per token
    output_head        2 D V
For an encoder-decoder model a "token" is one source token through the encoder plus one target
token through the decoder (both with n keys); a decoder layer there also has cross-attention:
4 D^2 + 4 D Dkv more projections (Q, output per target token; K, V per source token) and 4 D n more scores.
Without biases, attention + feed_forward + output_head = 2 x their parameter counts
(`playground.model.count_parameters`).

Activation memory counts every tensor a forward pass produces (what backpropagation keeps and
what Trace(include=("*",)) records), per token, at `bytes_per_value` each:
    embedding       D (+ D for additive sinusoidal / learned positions)
    residual        per layer: stream before, between and after the sub-layers, 3 D (4 D with
                    cross-attention), plus the final norm's output D per stack
    attention       per layer: q, k, v, output, 2 D + 2 Dkv (as much again for cross-attention)
    attention_maps  per layer: scores and weights, 2 H n (another 2 H n for cross-attention)
    feed_forward    per layer: hidden F and output D (and the gate F when gated)

The KV cache keeps a key and a value of width Dkv per decoder layer and token: grouped-query
attention divides it by n_heads / n_kv_heads (`kv_cache_against_multi_head`).
    logits          V
"""
from __future__ import annotations

from playground.model import CROSS, ModelConfig

FLOP_COMPONENTS = ("attention", "attention_scores", "feed_forward", "output_head")
MEMORY_COMPONENTS = ("embedding", "residual", "attention", "attention_maps", "feed_forward", "logits")


def _check(config: ModelConfig, context_length: int) -> None:
    if not isinstance(config, ModelConfig):
        raise TypeError(f"config must be a ModelConfig, got {type(config).__name__}")
    if isinstance(context_length, bool) or not isinstance(context_length, int) or context_length < 1:
        raise ValueError(f"context_length must be a positive integer (keys each token attends to), got {context_length!r}")


def _layers(config: ModelConfig) -> tuple[int, int]:
    """(self-attention-only layers, layers with cross-attention) a token pair passes through."""
    if CROSS in config.sites():
        return config.n_encoder_layers + config.n_decoder_layers, config.n_decoder_layers
    return config.n_encoder_layers + config.n_decoder_layers, 0


def _kv_width(config: ModelConfig) -> int:
    """Dkv: the width of one token's key (or value), all key/value heads together."""
    return config.kv_heads * config.head_dim


def flops_per_token(config: ModelConfig, context_length: int) -> dict[str, int]:
    """Forward FLOPs of one token attending to `context_length` keys: component -> FLOPs, plus "total"."""
    _check(config, context_length)
    d, n, d_kv = config.d_model, context_length, _kv_width(config)
    blocks, cross = _layers(config)
    projections = 4 * d * d + 4 * d * d_kv
    flops = {
        "attention": (blocks + cross) * projections,
        "attention_scores": blocks * 4 * d * n + cross * 4 * d * n,
        "feed_forward": blocks * (6 if config.gated_ffn else 4) * d * config.d_ff,
        "output_head": 2 * d * config.target_vocab_size,
    }
    flops["total"] = sum(flops.values())
    return flops


def activation_memory_per_token(config: ModelConfig, context_length: int, bytes_per_value: int = 4) -> dict[str, int]:
    """Bytes of activations a forward pass produces per token: component -> bytes, plus "total"."""
    _check(config, context_length)
    if isinstance(bytes_per_value, bool) or bytes_per_value not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8 (e.g. 4 for float32), got {bytes_per_value!r}")
    d, n, d_kv = config.d_model, context_length, _kv_width(config)
    blocks, cross = _layers(config)
    stacks = int(config.has_encoder) + int(config.has_decoder)
    additive = config.positional in ("sinusoidal", "learned")
    values = {
        "embedding": stacks * d * (2 if additive else 1),
        "residual": blocks * 3 * d + cross * d + stacks * d,
        "attention": (blocks + cross) * (2 * d + 2 * d_kv),
        "attention_maps": blocks * 2 * config.n_heads * n + cross * 2 * config.n_heads * n,
        "feed_forward": blocks * ((2 if config.gated_ffn else 1) * config.d_ff + d),
        "logits": config.target_vocab_size,
    }
    memory = {name: count * bytes_per_value for name, count in values.items()}
    memory["total"] = sum(memory.values())
    return memory


def kv_cache_per_token(config: ModelConfig, bytes_per_value: int = 4) -> int:
    """Bytes the KV cache keeps per decoded token: a key and a value of width Dkv (n_kv_heads x head size)
    in every decoder layer.

    For an encoder-decoder model this includes the cross-attention keys and values of one source token.
    Encoder-only models do not decode and keep no cache (0).
    """
    if not isinstance(config, ModelConfig):
        raise TypeError(f"config must be a ModelConfig, got {type(config).__name__}")
    if isinstance(bytes_per_value, bool) or bytes_per_value not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8 (e.g. 4 for float32), got {bytes_per_value!r}")
    cross = 2 if CROSS in config.sites() else 1              # a decoder layer caches its cross-attention keys too
    return cross * config.n_decoder_layers * 2 * _kv_width(config) * bytes_per_value


def kv_cache_against_multi_head(config: ModelConfig, bytes_per_value: int = 4) -> dict[str, float]:
    """The KV cache per token of `config` beside the same model with one key/value head per query head:
    {"bytes": ..., "multi_head_bytes": ..., "saving": multi_head_bytes / bytes} (saving 1 without grouping)."""
    own = kv_cache_per_token(config, bytes_per_value)
    full = kv_cache_per_token(config.replace(n_kv_heads=None), bytes_per_value)
    return {"bytes": own, "multi_head_bytes": full, "saving": full / own if own else 1.0}
