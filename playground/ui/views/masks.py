"""Masks, drawn: a padded batch of two inputs, and the masks every attention site of the model
builds for it (the model's own mask functions), then what left padding would do: a NaN row."""
from __future__ import annotations

import math
from functools import partial

import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis.masks import PaddedBatch, empty_rows, left_padded_rows, site_masks
from playground.data import BOS_ID, pad_sequences

from ..inputs.validation import fail
from playground.zoo import ModelEntry
from ..text.i18n import text
from .token_input import encode_checked, pieces

MAX_MASK_TOKENS = 12        # per input: a 12 x 12 mask still shows every cell at 1280 x 720
MASK_NAMES = {"key_padding": "mask_key_padding", "causal": "mask_causal", "combined": "mask_combined"}
SITE_NOTES = {"encoder": "mask_note_encoder", "decoder": "mask_note_decoder", "cross": "mask_note_cross"}


def _batch(entry: ModelEntry, rows: list[list[int]]) -> tuple[PaddedBatch, list[list[int]]]:
    """The padded batch each side of the model reads, and the decoder's rows (bos first in a seq2seq)."""
    model, pad = entry.model, entry.config.pad_id
    decoder_rows = [[BOS_ID, *r] for r in rows] if model.has_encoder else rows
    source = pad_sequences(rows, pad) if model.has_encoder else None
    target = pad_sequences(decoder_rows, pad) if model.has_decoder else None
    return PaddedBatch(source, target), decoder_rows


def _tokens(entry: ModelEntry, batch: torch.Tensor) -> list[list[str]]:
    return [pieces(entry, row.tolist()) for row in batch]


def mask_views(entry: ModelEntry, first, second, lang: str,
               nan_note: bool = True) -> tuple[list[go.Figure], go.Figure, str]:
    """One figure per attention site of the model (rows: the two inputs; columns: its masks), the
    left-padding figure with its fully masked rows, and the explanation with the shapes (and, with
    `nan_note`, what the left-padding figure's empty rows compute)."""
    t = partial(text, lang)
    rows = [encode_checked(entry, value, lang, MAX_MASK_TOKENS) for value in (first, second)]
    if len(rows[0]) == len(rows[1]):
        raise fail(lang, "err_mask_same_length", n=len(rows[0]))
    batch, decoder_rows = _batch(entry, rows)
    row_titles = [t("mask_input_row", k=k + 1, n=len(r)) for k, r in enumerate(rows)]
    figures, notes = [], []
    for site in entry.model.sites():
        masks = site_masks(site, batch, entry.config.pad_id)
        queries = batch.source if site.query_side == "source" else batch.target
        keys = batch.source if site.key_side == "source" else batch.target
        names = list(masks.panels)
        columns = [t("mask_panel", name=t(MASK_NAMES[name]), shape=list(masks.panels[name].shape))
                   + (t("mask_applied") if name == masks.applied else "") for name in names]
        grid = torch.stack([masks.expanded(name) for name in names], dim=1)  # [B, C, Tq, Tk]
        figures.append(viz.mask_grid(
            grid.numpy(), row_titles, columns, _tokens(entry, queries), _tokens(entry, keys),
            title=t("fig_masks", kind=t(f"kind_title_{site.id}")), query_label=t("w_query"), key_label=t("w_key"),
            visible_label=t("mask_visible"), hidden_label=t("mask_hidden"), empty_label=t("mask_empty_row")))
        notes.append(t(SITE_NOTES[site.id]))

    nan_rows = decoder_rows if entry.model.has_decoder else rows
    left_mask, weights = left_padded_rows(nan_rows, entry.config.pad_id)     # [B, T, T] each
    empty = empty_rows(left_mask)                                            # [B, T]
    length = left_mask.size(-1)
    left_tokens = [pieces(entry, [entry.config.pad_id] * (length - len(r)) + list(r)) for r in nan_rows]
    nan_figure = viz.mask_grid(
        left_mask[:, None].numpy(), row_titles, [t("mask_left_column")], left_tokens, left_tokens,
        empty_rows=empty[:, None].numpy(), title=t("fig_masks_left"), query_label=t("w_query"), key_label=t("w_key"),
        visible_label=t("mask_visible"), hidden_label=t("mask_hidden"), empty_label=t("mask_empty_row"))
    b, q = (int(i) for i in empty.nonzero()[0])
    nan_row = ", ".join("NaN" if math.isnan(w) else f"{w:.2f}" for w in weights[b, q].tolist())
    parts = [t("mask_intro", n1=len(rows[0]), n2=len(rows[1]), t=max(map(len, rows))), *notes]
    explanation = "\n\n".join([*parts, t("mask_nan", k=b + 1, row=q, weights=nan_row)] if nan_note else parts)
    return figures, nan_figure, explanation
