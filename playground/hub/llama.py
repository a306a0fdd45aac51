"""Llama-family (Llama 3, SmolLM2) and Qwen2-family (Qwen2, Qwen2.5) checkpoints in the project's own DecoderOnly.

Both are pre-norm decoders with RMSNorm, a SwiGLU feed-forward, rotary positions (base `rope_theta`)
and grouped-query attention; no biases, except Qwen2's query, key and value projections. Their
weights are stored as torch.nn.Linear stores them, [out, in], so they are copied as they are:

    model.embed_tokens                      -> decoder.embed.tokens             (rows moved to project ids)
    model.layers.{i}.input_layernorm        -> decoder.blocks.{i}.norm_self
    model.layers.{i}.self_attn.q|k|v|o_proj -> decoder.blocks.{i}.self_attn.w_q | w_k | w_v | w_o
    model.layers.{i}.post_attention_layernorm -> decoder.blocks.{i}.norm_ffn
    model.layers.{i}.mlp.gate|up|down_proj  -> decoder.blocks.{i}.ffn.w_gate | w_in | w_out
    model.norm, lm_head                     -> decoder.final_norm, head          (head: unless tied)

What the stack does not implement is refused by name: scaled or interleaved rotary positions,
sliding-window attention, a head size other than hidden_size / heads, biases Llama does not have.
Only safetensors weights are read; nothing is unpickled.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file

from playground.model import ModelConfig, build_model, count_parameters

from .fetch import HubImportError, Repository
from .gpt2 import CONFIG_FILE, TOKENIZER_FILE, ImportedModel, matched_weights, weights_file
from .tokenizer import NEVER_PREDICTED, IdMap, import_tokenizer

FAMILIES = {"llama": ("LlamaForCausalLM", "Llama"), "qwen2": ("Qwen2ForCausalLM", "Qwen2")}


class LlamaConfig(NamedTuple):
    """What config.json says about a Llama- or Qwen2-family model, checked to be runnable exactly."""

    family: str                    # "llama" | "qwen2"
    vocab_size: int
    hidden_size: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    intermediate_size: int
    max_positions: int
    rope_theta: float
    rms_norm_eps: float
    tied: bool
    qkv_bias: bool
    end_of_text: int
    begin_of_text: int | None


def _refuse(field: str, value, why: str) -> HubImportError:
    return HubImportError(f"config.json sets {field}={str(value)[:60]}: {why}, which the playground's model does not "
                          "implement", "unsupported_field", field=field)


def _rope_theta(raw: dict) -> float:
    """The rotary base, from `rope_theta` (older files) or `rope_parameters` (newer); refused when scaled."""
    parameters = raw.get("rope_parameters") or {}
    scaling = raw.get("rope_scaling")
    for name, value in (("rope_scaling", scaling), ("rope_parameters", parameters)):
        kind = value.get("rope_type", value.get("type", "default")) if isinstance(value, dict) else value
        if value and kind != "default":
            raise _refuse(name, value, "rotary positions scaled for long contexts")
    if raw.get("rope_interleaved"):
        raise _refuse("rope_interleaved", True, "rotary positions on interleaved pairs")
    theta = parameters.get("rope_theta", raw.get("rope_theta", 10000.0)) if isinstance(parameters, dict) else \
        raw.get("rope_theta", 10000.0)
    if not isinstance(theta, (int, float)) or isinstance(theta, bool) or theta <= 1:
        raise HubImportError(f"config.json rope_theta must be a number above 1, got {theta!r}")
    return float(theta)


def _token_id(value) -> int | None:
    """A special token id as config.json gives it (an id, a list of ids, or null)."""
    if isinstance(value, list):
        value = value[0] if value else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_config(raw: dict) -> LlamaConfig:
    """config.json (already parsed) -> LlamaConfig, refusing what the stack cannot run exactly."""
    family = raw.get("model_type")
    if family not in FAMILIES:
        raise HubImportError(f"model_type {family!r} is not a Llama or Qwen2 model", "unsupported_family",
                             kind=str(family)[:40])
    causal_lm, name = FAMILIES[family]
    architectures = raw.get("architectures") or [causal_lm]
    if causal_lm not in architectures:
        raise HubImportError(f"this {name} is a {', '.join(map(str, architectures))}, not a language model ({causal_lm})")
    if raw.get("hidden_act", "silu") != "silu":
        raise _refuse("hidden_act", raw["hidden_act"], "a feed-forward gate other than SiLU")
    if family == "llama":
        for flag in ("attention_bias", "mlp_bias"):
            if raw.get(flag):
                raise _refuse(flag, True, "biases a Llama does not usually have")
    if raw.get("use_sliding_window") or any(kind != "full_attention" for kind in raw.get("layer_types") or []):
        raise _refuse("use_sliding_window", True, "sliding-window attention")
    sizes = {}
    for field in ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                  "max_position_embeddings"):
        value = raw.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise HubImportError(f"config.json {field} must be a positive integer, got {value!r}")
        sizes[field] = value
    heads, hidden = sizes["num_attention_heads"], sizes["hidden_size"]
    kv_heads = raw.get("num_key_value_heads") or heads
    head_dim = raw.get("head_dim")
    if head_dim is not None and head_dim * heads != hidden:
        raise _refuse("head_dim", head_dim, f"a head size other than hidden_size / heads = {hidden / heads:g}")
    end_of_text = _token_id(raw.get("eos_token_id"))
    if end_of_text is None:
        raise HubImportError("config.json names no eos_token_id: the playground needs the end-of-text token")
    eps = raw.get("rms_norm_eps", 1e-6)
    return LlamaConfig(family, sizes["vocab_size"], hidden, sizes["num_hidden_layers"], heads, kv_heads,
                       sizes["intermediate_size"], sizes["max_position_embeddings"], _rope_theta(raw),
                       float(eps), bool(raw.get("tie_word_embeddings", False)), family == "qwen2",
                       end_of_text, _token_id(raw.get("bos_token_id")))


def model_config(llama: LlamaConfig, ids: IdMap) -> ModelConfig:
    """The project's ModelConfig of a Llama- or Qwen2-family model."""
    try:
        return ModelConfig(arch="decoder_only", vocab_size=ids.vocab_size, d_model=llama.hidden_size,
                           n_heads=llama.n_heads, n_kv_heads=llama.n_kv_heads, n_decoder_layers=llama.n_layers,
                           d_ff=llama.intermediate_size, max_len=llama.max_positions, positional="rope",
                           rope_base=llama.rope_theta, norm="pre", norm_type="rmsnorm", activation="silu",
                           gated_ffn=True, dropout=0.0, tie_weights=llama.tied, scale_embedding=False, bias=False,
                           qkv_bias=llama.qkv_bias, norm_eps=llama.rms_norm_eps, never_predict=NEVER_PREDICTED)
    except ValueError as error:
        raise HubImportError(f"config.json describes a model the playground cannot build: {error}") from None


def expected_shapes(llama: LlamaConfig) -> dict[str, tuple[int, ...]]:
    """The checkpoint's tensor names and shapes for a config."""
    d, f, d_kv = llama.hidden_size, llama.intermediate_size, llama.n_kv_heads * (llama.hidden_size // llama.n_heads)
    shapes = {"model.embed_tokens.weight": (llama.vocab_size, d), "model.norm.weight": (d,)}
    for i in range(llama.n_layers):
        layer = f"model.layers.{i}."
        shapes.update({layer + "input_layernorm.weight": (d,), layer + "post_attention_layernorm.weight": (d,),
                       layer + "self_attn.q_proj.weight": (d, d), layer + "self_attn.k_proj.weight": (d_kv, d),
                       layer + "self_attn.v_proj.weight": (d_kv, d), layer + "self_attn.o_proj.weight": (d, d),
                       layer + "mlp.gate_proj.weight": (f, d), layer + "mlp.up_proj.weight": (f, d),
                       layer + "mlp.down_proj.weight": (d, f)})
        if llama.qkv_bias:
            shapes.update({layer + "self_attn.q_proj.bias": (d,), layer + "self_attn.k_proj.bias": (d_kv,),
                           layer + "self_attn.v_proj.bias": (d_kv,)})
    if not llama.tied:
        shapes["lm_head.weight"] = (llama.vocab_size, d)
    return shapes


def read_weights(path: Path, llama: LlamaConfig) -> dict[str, torch.Tensor]:
    """model.safetensors -> the checkpoint's tensors by name, as float32, each checked against the config."""
    try:
        stored = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:
        raise HubImportError(f"model.safetensors is damaged or not a safetensors file: {error}") from None
    if llama.tied:
        stored.pop("lm_head.weight", None)                                   # some files keep the tied copy
    return matched_weights(stored, expected_shapes(llama))


PARTS = {"input_layernorm": "norm_self", "post_attention_layernorm": "norm_ffn", "self_attn.q_proj": "self_attn.w_q",
         "self_attn.k_proj": "self_attn.w_k", "self_attn.v_proj": "self_attn.w_v", "self_attn.o_proj": "self_attn.w_o",
         "mlp.gate_proj": "ffn.w_gate", "mlp.up_proj": "ffn.w_in", "mlp.down_proj": "ffn.w_out"}


def convert_weights(weights: dict[str, torch.Tensor], llama: LlamaConfig, ids: IdMap) -> dict[str, torch.Tensor]:
    """The checkpoint's tensors -> the state dict of the project's DecoderOnly."""
    tokens = ids.gather(weights.pop("model.embed_tokens.weight"))            # [V', D]
    state = {"decoder.embed.tokens.weight": tokens, "decoder.final_norm.weight": weights.pop("model.norm.weight"),
             "head.weight": tokens if llama.tied else ids.gather(weights.pop("lm_head.weight"))}
    for name, tensor in weights.items():
        _, _, layer, rest = name.split(".", 3)                               # model.layers.{i}.PART.weight|bias
        part, kind = rest.rsplit(".", 1)
        state[f"decoder.blocks.{layer}.{PARTS[part]}.{kind}"] = tensor
    return state


def model_card(repository: Repository, llama: LlamaConfig, config: ModelConfig, n_parameters: int) -> str:
    family = FAMILIES[llama.family][1]
    return (f"# {repository.name}\n\n{family} weights imported from `{repository.source}` into the playground's own "
            f"decoder-only model: {config.n_decoder_layers} layers, {config.n_heads} query heads sharing "
            f"{config.kv_heads} key/value heads, d_model={config.d_model}, RMSNorm, SwiGLU, rotary positions (base "
            f"{config.rope_base:g}), {n_parameters:,} parameters. Token ids follow the playground's convention: the "
            "end-of-text token is <eos> (and <bos> as an input).\n")


def import_llama(repository: Repository, raw: dict, max_parameters: int | None = None) -> ImportedModel:
    """A Llama- or Qwen2-family repository (its config.json already parsed) as a frozen DecoderOnly with its tokenizer.

    The config and the size are checked before the tokenizer and the weights are fetched.
    """
    llama = read_config(raw)
    provisional = IdMap(llama.vocab_size, llama.end_of_text, llama.begin_of_text)
    n_parameters = count_parameters(model_config(llama, provisional))["total"]
    if max_parameters is not None and n_parameters > max_parameters:
        raise HubImportError(f"{repository.name} has {n_parameters:,} parameters, more than this app's limit of "
                             f"{max_parameters:,}", "too_large", parameters=n_parameters, limit=max_parameters)
    tokenizer, ids = import_tokenizer(repository.require(TOKENIZER_FILE), None, None, llama.vocab_size,
                                      llama.end_of_text, llama.begin_of_text, exact_size=False)
    config = model_config(llama, ids)
    state = convert_weights(read_weights(weights_file(repository), llama), llama, ids)
    with torch.random.fork_rng(devices=[]):          # the CPU's RNG only: on ZeroGPU the main process may not touch CUDA
        model = build_model(config)
    model.load_state_dict(state, strict=True)
    model.eval()
    return ImportedModel(model, tokenizer, config, model_card(repository, llama, config, n_parameters), ids)
