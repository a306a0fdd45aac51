"""The shape walk-through's rows in the session's language: (stage, tensor, shape, note, values)."""
from __future__ import annotations

import functools
import re

from playground.analysis import ShapeRow
from playground.model import AttentionSite, ModelConfig

from ..text.i18n import text

_NAME = re.compile(r"^(?P<stack>encoder|decoder)\.(?:(?P<layer>\d+)\.)?(?P<part>.+)$")
_SUBLAYER_OF = {"resid_pre": "self_attn", "resid_mid": "self_attn", "resid_cross": "cross_attn",
                "ffn.gate": "ffn", "ffn.hidden": "ffn", "ffn.out": "ffn", "resid_post": "ffn"}


def _stage(name: str, stack: str, layer: str | None, part: str, lang: str) -> str:
    stack_name = text(lang, f"tm_{stack}")
    if layer is None:
        key = "shape_stage_embedding" if part in ("tok_embed", "pos_embed") else "shape_stage_final_norm"
        return text(lang, key, stack=stack_name)
    attention = AttentionSite.from_key(name)
    sublayer = attention[0].sublayer if attention is not None else _SUBLAYER_OF[part]
    return text(lang, "shape_stage_block", stack=stack_name, i=layer, sublayer=text(lang, f"shape_sublayer_{sublayer}"))


def _note(name: str, part: str, config: ModelConfig, lang: str) -> str:
    values = dict(d=config.d_model, h=config.n_heads, dh=config.head_dim, f=config.d_ff, act=config.activation,
                  positional=config.positional, v=config.target_vocab_size)
    attention = AttentionSite.from_key(name)
    if attention is not None:
        site, _, piece = attention
        if piece in ("k", "v"):
            values["source"] = text(lang, "shape_source_encoder" if site.is_cross else "shape_source_same")
            values["h"] = config.kv_heads                                    # fewer with grouped-query attention
        if piece == "weights":
            values["mask"] = text(lang, f"shape_mask_{site.id}")
        return text(lang, f"shape_note_{piece}", **values)
    if part == "tok_embed":
        scaled = text(lang, "shape_scaled", d=config.d_model) if config.scale_embedding else ""
        return text(lang, "shape_note_tok_embed", scaled=scaled, d=config.d_model)
    if part == "final_norm":
        rms = config.norm == "pre" and config.norm_type == "rmsnorm"
        return text(lang, "shape_note_final_norm_rmsnorm" if rms else f"shape_note_final_norm_{config.norm}")
    gated = "_gated" if part == "ffn.hidden" and config.gated_ffn else ""
    return text(lang, f"shape_note_{part.replace('.', '_')}{gated}", **values)


def values_text(row: ShapeRow, lang: str) -> str:
    """The row's values: "mean 0.012 · std 1.00 · max 3.21"."""
    return text(lang, "shape_values", mean=row.mean, std=row.std, max=row.max)


def shape_rows(rows: list[ShapeRow], config: ModelConfig, lang: str) -> list[tuple[str, str, tuple, str, str]]:
    """Rows for viz.shape_table: the stage and note in `lang`, the shape in symbols before the note,
    and the values' mean, std and largest value."""
    keys = tuple((row.name, row.shape, row.symbols) for row in rows)
    return [(*translated, values_text(row, lang)) for translated, row in zip(_translated(keys, config, lang), rows)]


@functools.lru_cache(maxsize=256)         # every view of a model on inputs of one length has the same rows
def _translated(rows: tuple[tuple[str, tuple, str], ...], config: ModelConfig,
                lang: str) -> tuple[tuple[str, str, tuple, str], ...]:
    out = []
    for name, shape, symbols in rows:
        if name == "logits":
            stage = text(lang, "shape_stage_output")
            note = text(lang, "shape_note_logits", v=config.target_vocab_size)
        else:
            match = _NAME.match(name)
            if match is None:
                raise ValueError(f"unknown trace name {name!r}")
            stage = _stage(name, match["stack"], match["layer"], match["part"], lang)
            note = _note(name, match["part"], config, lang)
        out.append((stage, name, shape, f"{symbols} {note}"))
    return tuple(out)
