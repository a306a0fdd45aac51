"""ModelConfig: every architectural choice of a model, validated, and round-tripping through JSON."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields

from .sites import CROSS, DECODER_SELF, ENCODER_SELF, AttentionSite

ARCHITECTURES = ("encoder_decoder", "decoder_only", "encoder_only")
POSITIONAL_ENCODINGS = ("sinusoidal", "learned", "rope", "none")
NORM_PLACEMENTS = ("pre", "post")
NORM_TYPES = ("layernorm", "rmsnorm")
ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu")
ROPE_BASE_RANGE = (2.0, 1e9)
FIELD_RANGES = {   # the widest shapes the library builds (GPT-2 XL fits); a value outside is refused before any allocation
    "vocab_size": (2, 300_000), "tgt_vocab_size": (2, 300_000), "d_model": (1, 8_192), "n_heads": (1, 64), "n_kv_heads": (1, 64),
    "n_encoder_layers": (0, 48), "n_decoder_layers": (0, 48), "d_ff": (1, 32_768), "max_len": (1, 65_536),
}


class JsonConfig:
    """Round-trips a validated frozen dataclass through JSON; `describe` names it in errors."""

    describe = "config"

    def replace(self, **changes):
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict):
        if not isinstance(data, dict):
            raise ValueError(f"the {cls.describe} must be a JSON object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown {cls.describe} field(s) {unknown}; valid fields are {sorted(known)}")
        return cls(**data)

    @classmethod
    def from_json(cls, text: str):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"the {cls.describe} is not valid JSON: {error}") from None
        return cls.from_dict(data)


@dataclass(frozen=True)
class ModelConfig(JsonConfig):
    """The shape of a Transformer.

    arch: "encoder_decoder" (seq2seq with cross-attention), "decoder_only" (GPT) or
        "encoder_only" (BERT-style, bidirectional).
    vocab_size: source vocabulary (the only vocabulary outside encoder_decoder).
    tgt_vocab_size: target vocabulary of an encoder_decoder; None means the same as vocab_size.
    n_encoder_layers / n_decoder_layers: blocks per stack; a stack the architecture lacks has 0.
    positional: "sinusoidal" | "learned" | "rope" | "none".
    norm: "pre" (the norm before each sub-layer) or "post" (after the residual add).
    norm_type: "layernorm" (centre, scale to unit variance, then weight and bias) or "rmsnorm" (scale by the
        root mean square only, then weight: no centring, no bias).
    tie_weights: the output head reuses the token embedding (for encoder_decoder the source
        embedding, target embedding and head all share one matrix).
    scale_embedding: multiply token embeddings by sqrt(d_model) before adding positions.
    bias: biases in every Linear and LayerNorm (the output head never has one).
    activation: "relu", "gelu" (exact, with the error function), "gelu_tanh" (GPT-2's tanh
        approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) or "silu" (x sigmoid(x)).
    gated_ffn: the feed-forward multiplies act(W_gate x) by W_up x before W_down (SwiGLU with "silu").
    n_kv_heads: key/value heads; the query heads share them in equal groups (grouped-query attention,
        multi-query with 1). None means one per query head (multi-head attention).
    rope_base: the base of the rotary angles, pos * base^(-2i/Dh) (10,000; 1,000,000 for long contexts).
    qkv_bias: biases in the query, key and value projections only where it differs from `bias`
        (Qwen2: True with bias=False). None means as `bias`.
    norm_eps: the epsilon every norm adds to the variance (or the mean square).
    never_predict: token ids the output head never predicts: their logit is always -1e9, so their
        probability is exactly 0 (ids a tokenizer reserves that imported weights have no output for).
    """

    arch: str = "decoder_only"
    vocab_size: int = 64
    tgt_vocab_size: int | None = None
    d_model: int = 128
    n_heads: int = 4
    n_encoder_layers: int = 0
    n_decoder_layers: int = 2
    d_ff: int = 512
    max_len: int = 256
    positional: str = "sinusoidal"
    norm: str = "pre"
    activation: str = "gelu"
    dropout: float = 0.0
    tie_weights: bool = True
    scale_embedding: bool = True
    bias: bool = True
    pad_id: int = 0
    norm_eps: float = 1e-5
    never_predict: tuple[int, ...] = ()
    norm_type: str = "layernorm"
    gated_ffn: bool = False
    n_kv_heads: int | None = None
    rope_base: float = 10000.0
    qkv_bias: bool | None = None

    describe = "model config"

    def __post_init__(self) -> None:
        if isinstance(self.never_predict, list):                          # as read back from JSON
            object.__setattr__(self, "never_predict", tuple(self.never_predict))
        _validate(self)

    @property
    def target_vocab_size(self) -> int:
        """The vocabulary the output head predicts."""
        return self.tgt_vocab_size if self.tgt_vocab_size is not None else self.vocab_size

    @property
    def has_encoder(self) -> bool:
        """Whether the model reads a source through an encoder (bidirectional self-attention)."""
        return self.arch in ("encoder_decoder", "encoder_only")

    @property
    def has_decoder(self) -> bool:
        """Whether the model writes tokens one after another (causal self-attention, a KV cache)."""
        return self.arch in ("encoder_decoder", "decoder_only")

    def sites(self) -> tuple[AttentionSite, ...]:
        """The model's attention sites, encoder first: cross-attention joins a decoder to an encoder."""
        return ((ENCODER_SELF,) if self.has_encoder else ()) + ((DECODER_SELF,) if self.has_decoder else ()) + \
            ((CROSS,) if self.has_encoder and self.has_decoder else ())

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    @property
    def kv_heads(self) -> int:
        """Key/value heads: n_kv_heads, or one per query head."""
        return self.n_kv_heads if self.n_kv_heads is not None else self.n_heads

    @property
    def projection_bias(self) -> bool:
        """Whether the query, key and value projections have biases."""
        return self.qkv_bias if self.qkv_bias is not None else self.bias


def _require(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise ValueError(f"ModelConfig.{field}: {message}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(c: ModelConfig) -> None:
    _require(c.arch in ARCHITECTURES, "arch", f"{c.arch!r} is not one of {ARCHITECTURES}")
    for name, (low, high) in FIELD_RANGES.items():
        value = getattr(c, name)
        if name in ("tgt_vocab_size", "n_kv_heads") and value is None:
            continue
        _require(_is_int(value) and low <= value <= high, name,
                 f"must be an integer in [{low:,}, {high:,}], got {f'{value:,}' if _is_int(value) else repr(value)}")
    if c.arch == "encoder_decoder":
        _require(c.n_encoder_layers >= 1, "n_encoder_layers", "an encoder_decoder needs at least 1 encoder layer")
        _require(c.n_decoder_layers >= 1, "n_decoder_layers", "an encoder_decoder needs at least 1 decoder layer")
    else:
        _require(c.tgt_vocab_size is None, "tgt_vocab_size", f"only an encoder_decoder has a target vocabulary; use None for {c.arch}")
    if c.arch == "decoder_only":
        _require(c.n_decoder_layers >= 1, "n_decoder_layers", "a decoder_only model needs at least 1 decoder layer")
        _require(c.n_encoder_layers == 0, "n_encoder_layers", "a decoder_only model has no encoder: set it to 0")
    if c.arch == "encoder_only":
        _require(c.n_encoder_layers >= 1, "n_encoder_layers", "an encoder_only model needs at least 1 encoder layer")
        _require(c.n_decoder_layers == 0, "n_decoder_layers", "an encoder_only model has no decoder: set it to 0")
    _require(c.d_model % c.n_heads == 0, "d_model",
             f"{c.d_model} is not divisible by n_heads={c.n_heads}; "
             f"use a multiple of {c.n_heads} such as {max(c.n_heads, c.d_model // c.n_heads * c.n_heads)}")
    if c.n_kv_heads is not None:
        _require(c.n_heads % c.n_kv_heads == 0, "n_kv_heads",
                 f"the {c.n_heads} query heads share the key/value heads in equal groups, so n_kv_heads must divide "
                 f"n_heads; got {c.n_kv_heads} (use one of {[k for k in range(1, c.n_heads + 1) if c.n_heads % k == 0]})")
    _require(c.positional in POSITIONAL_ENCODINGS, "positional", f"{c.positional!r} is not one of {POSITIONAL_ENCODINGS}")
    if c.positional == "rope":
        _require(c.head_dim % 2 == 0, "positional",
                 f"rope rotates pairs of dimensions, so the head size d_model/n_heads must be even (got {c.head_dim})")
    _require(c.norm in NORM_PLACEMENTS, "norm", f"{c.norm!r} is not one of {NORM_PLACEMENTS}")
    _require(c.norm_type in NORM_TYPES, "norm_type", f"{c.norm_type!r} is not one of {NORM_TYPES}")
    low, high = ROPE_BASE_RANGE
    _require(isinstance(c.rope_base, (int, float)) and not isinstance(c.rope_base, bool) and low <= c.rope_base <= high,
             "rope_base", f"must be a number in [{low:g}, {high:g}], got {c.rope_base!r}")
    _require(c.qkv_bias is None or isinstance(c.qkv_bias, bool), "qkv_bias",
             f"must be true, false or null (as bias), got {c.qkv_bias!r}")
    _require(c.activation in ACTIVATIONS, "activation", f"{c.activation!r} is not one of {ACTIVATIONS}")
    _require(isinstance(c.dropout, (int, float)) and not isinstance(c.dropout, bool) and 0 <= c.dropout < 1,
             "dropout", f"must be in [0, 1), got {c.dropout!r}")
    for name in ("tie_weights", "scale_embedding", "bias", "gated_ffn"):
        _require(isinstance(getattr(c, name), bool), name, f"must be true or false, got {getattr(c, name)!r}")
    smallest_vocab = min(c.vocab_size, c.target_vocab_size)
    _require(_is_int(c.pad_id) and 0 <= c.pad_id < smallest_vocab, "pad_id",
             f"must be a token id in [0, {smallest_vocab}), got {c.pad_id!r}")
    _require(isinstance(c.norm_eps, (int, float)) and not isinstance(c.norm_eps, bool) and 0 < c.norm_eps < 1,
             "norm_eps", f"must be a number in (0, 1), got {c.norm_eps!r}")
    _require(isinstance(c.never_predict, tuple)
             and all(_is_int(i) and 0 <= i < c.target_vocab_size for i in c.never_predict)
             and len(set(c.never_predict)) == len(c.never_predict) < c.target_vocab_size,
             "never_predict", f"must be distinct token ids in [0, {c.target_vocab_size}) that leave at least one "
                              f"token to predict, got {c.never_predict!r}")
    if c.arch == "encoder_decoder" and c.tie_weights:
        _require(c.target_vocab_size == c.vocab_size, "tie_weights",
                 f"tying shares one embedding matrix between source, target and head, so the vocabularies must match "
                 f"(vocab_size={c.vocab_size}, tgt_vocab_size={c.target_vocab_size}); set tie_weights=False or equal sizes")
