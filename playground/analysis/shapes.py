"""The shape walk-through: the tensor shape at every stage of a forward pass, and the size of its
values (mean, standard deviation, largest), read from a trace.

Record the pass with Trace(include=("*",)); every recorded tensor becomes one ShapeRow, in the
order the forward pass produced it. Symbols: B batch, T target / sequence length, S source length
(the encoder of an encoder-decoder), D d_model, H heads, Dh head size, F d_ff, V vocabulary.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import torch

from playground.model import ModelConfig, Trace

_NAME = re.compile(r"^(?P<stack>encoder|decoder)\.(?:(?P<layer>\d+)\.)?(?P<part>.+)$")


@dataclass(frozen=True)
class ShapeRow:
    """One recorded tensor: where it is (stage), its trace name, its shape, what it holds, and its
    values' mean, standard deviation and largest value (over every entry; NaN for an empty tensor)."""

    stage: str                   # e.g. "decoder block 0: self-attention"
    name: str                    # the trace name, e.g. "decoder.0.self_attn.q"
    shape: tuple[int, ...]
    note: str                    # what the tensor is, with this config's numbers
    symbols: str                 # the shape in symbols, e.g. "[B, H, T, Dh]"
    mean: float = math.nan
    std: float = math.nan
    max: float = math.nan


def value_stats(tensor: torch.Tensor) -> tuple[float, float, float]:
    """(mean, standard deviation, largest value) of every entry of `tensor` (the standard deviation of
    one entry is 0); NaN for each when it is empty. One pass over the values as they are (accumulated in
    float64 on the CPU, torch's accumulation type for float32; given in the tensor's precision), so a
    large tensor, such as a large vocabulary's logits, is not copied to be summarised."""
    values = tensor.detach().flatten()
    if values.numel() == 0:
        return math.nan, math.nan, math.nan
    if not values.is_floating_point():
        values = values.double()
    std, mean = torch.std_mean(values, correction=0)
    return float(mean), float(std), float(values.max())


def _attention_rows(part: str, kind: str, q_len: str, k_len: str, c: ModelConfig) -> tuple[str, str]:
    """(symbols, note) of one attention tensor: part in q, k, v, scores, weights, out."""
    heads = f"{c.n_heads} heads of {c.head_dim}"
    kv_heads, kv = (heads, "H") if c.kv_heads == c.n_heads else \
        (f"{c.kv_heads} key/value heads of {c.head_dim}, each shared by {c.n_heads // c.kv_heads} query heads", "Hkv")
    source = "the encoder output" if kind == "cross" else "the same positions"
    masked = {"decoder self": "causal: position t sees keys 0..t", "cross": "every target position sees every source token",
              "encoder self": "every position sees every other (pad keys masked)"}
    table = {
        "q": (f"[B, H, {q_len}, Dh]", f"queries x W_Q, split into {heads}"),
        "k": (f"[B, {kv}, {k_len}, Dh]", f"keys from {source} x W_K, split into {kv_heads}"),
        "v": (f"[B, {kv}, {k_len}, Dh]", f"values from {source} x W_V, split into {kv_heads}"),
        "scores": (f"[B, H, {q_len}, {k_len}]", f"Q K^T / sqrt({c.head_dim}), one score per query-key pair, before the mask"),
        "weights": (f"[B, H, {q_len}, {k_len}]", f"softmax over the keys, each row sums to 1; {masked[kind]}"),
        "out": (f"[B, {q_len}, D]", f"the heads' weighted values merged back to {c.d_model} and projected by W_O"),
    }
    return table[part]


def _describe(stack: str, layer: str | None, part: str, c: ModelConfig) -> tuple[str, str, str]:
    """(stage, symbols, note) of one trace name inside a stack."""
    length = "S" if stack == "encoder" and c.has_decoder else "T"      # a seq2seq encoder reads the source
    if layer is None:
        if part == "tok_embed":
            scale = f", scaled by sqrt({c.d_model})" if c.scale_embedding else ""
            return f"{stack} embedding", f"[B, {length}, D]", f"token embeddings{scale}: one {c.d_model}-vector per token"
        if part == "pos_embed":
            return f"{stack} embedding", f"[{length}, D]", f"{c.positional} positional encodings, added to the token embeddings"
        norm = f"the final {'RMSNorm' if c.norm_type == 'rmsnorm' else 'LayerNorm'}" if c.norm == "pre" else "the stream as it leaves the last block (post-norm has no final norm)"
        return f"{stack} final norm", f"[B, {length}, D]", norm
    block = f"{stack} block {layer}"
    stream = f"[B, {length}, D]"
    if part.startswith(("self_attn.", "cross_attn.")):
        sublayer, piece = part.split(".", 1)
        if sublayer == "cross_attn":
            symbols, note = _attention_rows(piece, "cross", length, "S", c)
            return f"{block}: cross-attention", symbols, note
        symbols, note = _attention_rows(piece, f"{stack} self", length, length, c)
        return f"{block}: self-attention", symbols, note
    described = {
        "resid_pre": (f"{block}: self-attention", stream, "the residual stream entering the block"),
        "resid_mid": (f"{block}: self-attention", stream, "the stream after self-attention was added"),
        "resid_cross": (f"{block}: cross-attention", stream, "the stream after cross-attention was added"),
        "ffn.gate": (f"{block}: feed-forward", f"[B, {length}, F]",
                     f"{c.activation}(x W_gate): the gate, {c.d_ff} values at every position"),
        "ffn.hidden": (f"{block}: feed-forward", f"[B, {length}, F]",
                       f"gate * (x W_up): widened from {c.d_model} to {c.d_ff} at every position" if c.gated_ffn else
                       f"{c.activation}(x W_1 + b_1): widened from {c.d_model} to {c.d_ff} at every position"),
        "ffn.out": (f"{block}: feed-forward", stream, f"x W_2 + b_2: back to {c.d_model}"),
        "resid_post": (f"{block}: feed-forward", stream, "the residual stream leaving the block"),
    }
    if part not in described:
        raise ValueError(f"unknown trace name part {part!r} in {stack} block {layer}")
    return described[part]


def shape_walkthrough(trace: Trace, config: ModelConfig) -> list[ShapeRow]:
    """Every tensor of a forward pass recorded with Trace(include=("*",)), in forward order."""
    if not isinstance(trace, Trace):
        raise TypeError(f"trace must be a playground.model.Trace, got {type(trace).__name__}")
    if not isinstance(config, ModelConfig):
        raise TypeError(f"config must be a ModelConfig, got {type(config).__name__}")
    if "logits" not in trace or not any(name.endswith(".weights") for name in trace.names()):
        raise ValueError("the trace lacks the logits or the attention weights; record the forward pass "
                         "with Trace(include=('*',))")
    vocab = trace["logits"].shape[-1]
    if vocab != config.target_vocab_size or any(
            trace[name].shape[-1] != config.d_model for name in trace.names() if name.endswith("tok_embed")):
        raise ValueError("the trace does not match the config (different d_model or vocabulary); "
                         "pass the config of the model that recorded it")
    rows = []
    for name, tensor in trace.cache.items():
        if name == "logits":
            stage, symbols = "output", "[B, T, V]"
            note = f"one score per vocabulary token ({vocab}); softmax turns them into next-token probabilities"
        else:
            match = _NAME.match(name)
            if match is None:
                raise ValueError(f"unknown trace name {name!r}")
            stage, symbols, note = _describe(match["stack"], match["layer"], match["part"], config)
        rows.append(ShapeRow(stage, name, tuple(tensor.shape), note, symbols, *value_stats(tensor)))
    return rows
