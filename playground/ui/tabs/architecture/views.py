"""The Architecture tab's views: a config drawn as a diagram, its parameters per component as a
treemap (presets include GPT-2 small), and what one token costs in FLOPs and memory."""
from __future__ import annotations

import re
from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis import activation_memory_per_token, flops_per_token, kv_cache_per_token
from playground.model import (
    ACTIVATIONS,
    ARCHITECTURES,
    NORM_PLACEMENTS,
    POSITIONAL_ENCODINGS,
    ModelConfig,
    count_parameters,
    gpt2_small_config,
    parameter_table,
)
from playground.train.recipes import config_conflict
from playground.viz.architecture import DIAGRAM_WORDS

from ...page.validation import CONFIG_LIMITS, check_choice, check_number, fail
from ...text.i18n import text

GPT2_PRESET = "gpt2-small"
FIELDS = ("arch", "n_encoder_layers", "n_decoder_layers", "d_model", "n_heads", "d_ff", "vocab_size",
          "max_len", "positional", "norm", "activation", "tie_weights", "bias", "scale_embedding")
_LIMIT_OF = {"n_encoder_layers": "n_layers", "n_decoder_layers": "n_layers", "d_model": "d_model",
             "n_heads": "n_heads", "d_ff": "d_ff", "vocab_size": "vocab_size", "max_len": "max_len"}
_PARAMETER = re.compile(r"^(?P<stack>encoder|decoder)\.(?:blocks\.(?P<block>\d+)\.(?P<part>[a-z_]+)|(?P<top>[a-z_]+))")


def presets(registry) -> dict[str, ModelConfig]:
    """GPT-2 small, then the config of every model of `registry` (a ModelRegistry: the shared models; a
    session's catalog: its own models too)."""
    return {GPT2_PRESET: gpt2_small_config(), **{name: registry.get(name).config for name in registry.names()}}


def config_from_fields(values: dict, lang: str) -> ModelConfig:
    """A validated ModelConfig from the form's values (field name -> value)."""
    checked = {}
    for name in FIELDS:
        value = values.get(name)
        if name in _LIMIT_OF:
            checked[name] = check_number(value, lang, name, *CONFIG_LIMITS[_LIMIT_OF[name]], integer=True)
        elif name in ("tie_weights", "bias", "scale_embedding"):
            checked[name] = bool(value)
        else:
            choices = {"arch": ARCHITECTURES, "positional": POSITIONAL_ENCODINGS, "norm": NORM_PLACEMENTS,
                       "activation": ACTIVATIONS}[name]
            checked[name] = check_choice(value, choices, lang, name)
    arch = checked["arch"]
    if arch == "decoder_only":
        checked["n_encoder_layers"] = 0
    if arch == "encoder_only":
        checked["n_decoder_layers"] = 0
    if arch == "encoder_decoder" and not (checked["n_encoder_layers"] and checked["n_decoder_layers"]):
        raise fail(lang, "err_config_stacks")
    conflict = config_conflict(checked["n_heads"], checked["d_model"], checked["positional"])
    if conflict is not None:                          # said in the page's language, with what to change
        _, key, values = conflict
        raise fail(lang, key, **values)
    try:
        return ModelConfig(**checked)
    except ValueError as error:
        raise fail(lang, "err_config", error=str(error)) from None


def _parameter_path(name: str, lang: str) -> list[str]:
    """Where a parameter sits in the treemap: stack, block, sub-layer."""
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
        return [stack, t("tm_final_norm")]
    part = match["part"]
    sublayer = {"self_attn": "tm_self_attention", "cross_attn": "tm_cross_attention", "ffn": "tm_feed_forward"}
    return [stack, t("tm_block", i=match["block"]), t(sublayer.get(part, "tm_norms"))]


def nested_parameter_counts(config: ModelConfig, lang: str) -> dict:
    """Parameters grouped stack -> block -> sub-layer (a tied weight counted once, under its embedding)."""
    tree: dict = {}
    for name, count in parameter_table(config).items():
        *parents, leaf = _parameter_path(name, lang)
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
    rows.append([t("cost_kv_cache"), t("comp_total"), _bytes(kv_cache_per_token(config))])
    return rows


def architecture_views(values: dict, context_length, lang: str) -> tuple[go.Figure, go.Figure, str, list[list[str]]]:
    """Diagram, parameter treemap, a one-paragraph summary and the cost table of a config."""
    config = config_from_fields(values, lang)
    context_length = check_number(context_length, lang, "context_length", 1, CONFIG_LIMITS["max_len"][1], integer=True)
    t = partial(text, lang)
    words = {key: t(f"dw_{key}") for key in DIAGRAM_WORDS}
    diagram = viz.architecture_diagram(config.to_dict(), title=t("fig_architecture", arch=t(f"arch_{config.arch}")),
                                       words=words)
    total = count_parameters(config)["total"]
    treemap = viz.parameter_treemap(nested_parameter_counts(config, lang), title=t("fig_treemap", total=_number(total)),
                                    root_label=t("tm_model"))
    flops = flops_per_token(config, context_length)["total"]
    summary = t("arch_summary", total=_number(total), flops=_number(flops), n=context_length,
                ratio=flops / max(1, total))
    return diagram, treemap, summary, cost_table(config, context_length, lang)
