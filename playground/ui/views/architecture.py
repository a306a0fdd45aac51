"""The Architecture tab's views, which the Lessons draw too: a config drawn as a diagram, its
parameters per component as a treemap (presets include GPT-2 small and today's LLM shapes), and what
one token costs in FLOPs and memory, the KV cache with grouped-query attention beside full
multi-head attention."""
from __future__ import annotations

import re
from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis import activation_memory_per_token, flops_per_token
from playground.analysis.cost import kv_cache_against_multi_head
from playground.model import (
    ACTIVATIONS,
    ARCHITECTURES,
    NORM_PLACEMENTS,
    NORM_TYPES,
    POSITIONAL_ENCODINGS,
    ModelConfig,
    count_parameters,
    gpt2_small_config,
    parameter_table,
)
from playground.model.config import ROPE_BASE_RANGE
from playground.train.recipes import LLM_FIELDS, config_conflict, llm_config_fields, llm_form_values
from playground.viz.architecture import DIAGRAM_WORDS

from ..inputs.validation import CONFIG_LIMITS, check_choice, check_number, fail
from ..text.i18n import text

GPT2_PRESET = "gpt2-small"
BASE_FIELDS = ("arch", "n_encoder_layers", "n_decoder_layers", "d_model", "n_heads", "d_ff", "vocab_size",
               "max_len", "positional", "norm", "activation", "tie_weights", "bias", "scale_embedding")
FIELDS = BASE_FIELDS + LLM_FIELDS
_FLAGS = ("tie_weights", "bias", "scale_embedding", "gated_ffn", "qkv_bias")
_CHOICES = {"arch": ARCHITECTURES, "positional": POSITIONAL_ENCODINGS, "norm": NORM_PLACEMENTS,
            "activation": ACTIVATIONS, "norm_type": NORM_TYPES}
_LLM = dict(arch="decoder_only", positional="rope", norm="pre", norm_type="rmsnorm", activation="silu", gated_ffn=True,
            scale_embedding=False, bias=False)
LLM_PRESETS = {          # today's decoder blocks: small ones to train and compare, and two published shapes
    "llama-style-small": ModelConfig(**_LLM, vocab_size=8192, d_model=256, n_heads=8, n_kv_heads=2, n_decoder_layers=4,
                                     d_ff=704, max_len=1024, tie_weights=False),
    "qwen2-style-small": ModelConfig(**_LLM, vocab_size=8192, d_model=256, n_heads=8, n_kv_heads=2, n_decoder_layers=4,
                                     d_ff=704, max_len=1024, rope_base=1e6, qkv_bias=True, tie_weights=True),
    "SmolLM2-135M": ModelConfig(**_LLM, vocab_size=49152, d_model=576, n_heads=9, n_kv_heads=3, n_decoder_layers=30,
                                d_ff=1536, max_len=8192, rope_base=1e5, tie_weights=True),
    "Qwen2.5-0.5B": ModelConfig(**_LLM, vocab_size=151936, d_model=896, n_heads=14, n_kv_heads=2, n_decoder_layers=24,
                                d_ff=4864, max_len=32768, rope_base=1e6, qkv_bias=True, tie_weights=True),
}
_LIMIT_OF = {"n_encoder_layers": "n_layers", "n_decoder_layers": "n_layers", "d_model": "d_model",
             "n_heads": "n_heads", "d_ff": "d_ff", "vocab_size": "vocab_size", "max_len": "max_len"}
_PARAMETER = re.compile(r"^(?P<stack>encoder|decoder)\.(?:blocks\.(?P<block>\d+)\.(?P<part>[a-z_]+)|(?P<top>[a-z_]+))")


def presets(registry) -> dict[str, ModelConfig]:
    """GPT-2 small, today's LLM shapes (LLM_PRESETS), then the config of every model of `registry` (a
    ModelRegistry: the shared models; a session's catalog: its own models too)."""
    return {GPT2_PRESET: gpt2_small_config(), **LLM_PRESETS,
            **{name: registry.get(name).config for name in registry.names()}}


def form_values(config: ModelConfig) -> dict:
    """The form's fields of a config (the LLM pieces as llm_form_values shows them)."""
    return {**{name: getattr(config, name) for name in BASE_FIELDS}, **llm_form_values(config)}


def config_from_fields(values: dict, lang: str) -> ModelConfig:
    """A validated ModelConfig from the form's values (field name -> value); a config's own n_kv_heads and
    qkv_bias (None: as the heads, as `bias`) are read too."""
    checked = {}
    for name in FIELDS:
        value = values.get(name)
        if name in ("n_kv_heads", "qkv_bias") and value is None:
            value = 0 if name == "n_kv_heads" else False
        if name in _LIMIT_OF:
            checked[name] = check_number(value, lang, name, *CONFIG_LIMITS[_LIMIT_OF[name]], integer=True)
        elif name == "n_kv_heads":
            checked[name] = check_number(value, lang, name, 0, CONFIG_LIMITS["n_heads"][1], integer=True)
        elif name == "rope_base":
            checked[name] = check_number(value, lang, name, *ROPE_BASE_RANGE, integer=True)
        elif name in _FLAGS:
            checked[name] = bool(value)
        else:
            checked[name] = check_choice(value, _CHOICES[name], lang, name)
    arch = checked["arch"]
    if arch == "decoder_only":
        checked["n_encoder_layers"] = 0
    if arch == "encoder_only":
        checked["n_decoder_layers"] = 0
    if arch == "encoder_decoder" and not (checked["n_encoder_layers"] and checked["n_decoder_layers"]):
        raise fail(lang, "err_config_stacks")
    conflict = config_conflict(checked["n_heads"], checked["d_model"], checked["positional"], checked["n_kv_heads"])
    if conflict is not None:                          # said in the page's language, with what to change
        _, key, values = conflict
        raise fail(lang, key, **values)
    llm = llm_config_fields(*(checked.pop(name) for name in LLM_FIELDS), bias=checked["bias"])
    try:
        return ModelConfig(**checked, **llm)
    except ValueError as error:
        raise fail(lang, "err_config", error=str(error)) from None


_PIECES = {"w_q": "tm_queries", "w_k": "tm_keys_values", "w_v": "tm_keys_values", "w_o": "tm_attention_out",
           "w_gate": "tm_gate", "w_in": "tm_up", "w_out": "tm_down"}     # a gated feed-forward's and attention's pieces


def _parameter_path(name: str, rms: bool, gated: bool, lang: str) -> list[str]:
    """Where a parameter sits in the treemap: stack, block, sub-layer, and within attention its queries, keys
    and values (smaller with grouped queries) and output; within a gated feed-forward its gate, up and down."""
    t = partial(text, lang)
    if name.startswith("head."):
        return [t("tm_head")]
    match = _PARAMETER.match(name)
    if match is None:
        raise ValueError(f"parameter {name!r} does not belong to a known component")
    stack = t(f"tm_{match['stack']}")
    if match["block"] is None:
        if name.endswith(("embed.tokens.weight",)):
            return [stack, t("tm_token_embedding")]
        if ".embed.positions." in name:
            return [stack, t("tm_position_embedding")]
        return [stack, t("tm_final_rms_norm" if rms else "tm_final_norm")]
    part = match["part"]
    sublayer = {"self_attn": "tm_self_attention", "cross_attn": "tm_cross_attention", "ffn": "tm_feed_forward"}
    path = [stack, t("tm_block", i=match["block"]), t(sublayer.get(part, "tm_rms_norms" if rms else "tm_norms"))]
    piece = name.split(".")[-2]
    if part.endswith("_attn") or (part == "ffn" and gated):
        path.append(t(_PIECES[piece]))
    return path


def nested_parameter_counts(config: ModelConfig, lang: str) -> dict:
    """Parameters grouped stack -> block -> sub-layer -> piece (a tied weight counted once, under its embedding)."""
    tree: dict = {}
    rms, gated = config.norm_type == "rmsnorm", config.gated_ffn
    for name, count in parameter_table(config).items():
        *parents, leaf = _parameter_path(name, rms, gated, lang)
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = node.get(leaf, 0) + count
    return tree


def _number(value: int) -> str:
    return f"{value:,}"


def _bytes(value: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= size:
            return f"{value / size:.2f} {unit}"
    return f"{value} B"


def cost_table(config: ModelConfig, context_length: int, lang: str) -> list[list[str]]:
    """Rows (quantity, component, value): parameters, FLOPs and memory per token."""
    t = partial(text, lang)
    rows = [[t("cost_parameters"), t(f"comp_{name}"), _number(value)] for name, value in count_parameters(config).items()]
    rows += [[t("cost_flops", n=context_length), t(f"comp_{name}"), _number(value)]
             for name, value in flops_per_token(config, context_length).items()]
    rows += [[t("cost_memory", n=context_length), t(f"comp_{name}"), _bytes(value)]
             for name, value in activation_memory_per_token(config, context_length).items()]
    kv = kv_cache_against_multi_head(config)
    rows.append([t("cost_kv_cache"), t("comp_total"), _bytes(kv["bytes"])])
    rows.append([t("cost_kv_cache_mha"), t("comp_total"), _bytes(kv["multi_head_bytes"])])
    return rows


def architecture_views(values: dict, context_length, lang: str) -> tuple[go.Figure, go.Figure, str, list[list[str]]]:
    """Diagram, parameter treemap, a one-paragraph summary and the cost table of a config."""
    config = config_from_fields(values, lang)
    context_length = check_number(context_length, lang, "context_length", 1, CONFIG_LIMITS["max_len"][1], integer=True)
    t = partial(text, lang)
    words = {key: t(f"dw_{key}") for key in DIAGRAM_WORDS}
    if config.norm_type == "rmsnorm":
        words.update(layer_norm=t("dw_rms_norm"), final_norm=t("tm_final_rms_norm"))
    if config.gated_ffn:
        words["feed_forward"] = t("dw_gated", ff=words["feed_forward"])
    if config.kv_heads < config.n_heads:
        words["heads"] = t("dw_heads_grouped", kv=config.kv_heads)
    diagram = viz.architecture_diagram(config.to_dict(), title=t("fig_architecture", arch=t(f"arch_{config.arch}")),
                                       words=words)
    total = count_parameters(config)["total"]
    treemap = viz.parameter_treemap(nested_parameter_counts(config, lang), title=t("fig_treemap", total=_number(total)),
                                    root_label=t("tm_model"))
    flops = flops_per_token(config, context_length)["total"]
    summary = t("arch_summary", total=_number(total), flops=_number(flops), n=context_length,
                ratio=flops / max(1, total))
    kv = kv_cache_against_multi_head(config)
    if kv["saving"] > 1:
        summary += t("arch_summary_gqa", heads=config.n_heads, kv_heads=config.kv_heads, kv=_bytes(int(kv["bytes"])),
                     full=_bytes(int(kv["multi_head_bytes"])), saving=round(kv["saving"], 2))
    return diagram, treemap, summary, cost_table(config, context_length, lang)
