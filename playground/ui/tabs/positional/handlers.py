"""The Positional encoding tab's handlers: (workspace, form, language) -> updates by component name.

The tab has four parts (the sinusoidal table, a model's own positions, RoPE, the shuffle
demonstration); each part's handler redraws that part, and `draw` all of them.
"""
from __future__ import annotations

from dataclasses import replace

import gradio as gr

from ...page.refusals import refusal_figures, refusal_handler, refusal_reason
from ...session.kept_models import unknown_model
from ...session.workspace import Workspace
from ...text.i18n import text
from .form import PositionalForm
from ...views.positional import model_position_views, rope_view, shuffle_demo, sinusoidal_views

SINUSOIDAL = ("heatmap", "curves", "similarity")            # the API's outputs of each part, in order
MODEL = ("model_heatmap", "model_similarity", "model_note")
ROPE = ("rope_plot",)
SHUFFLE = ("shuffle_summary", "shuffle_table")
EVERYTHING = (*SINUSOIDAL, *MODEL, *ROPE, *SHUFFLE)


def sinusoidal(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """The table, the chosen dimensions as curves and the position similarity."""
    return dict(zip(SINUSOIDAL, sinusoidal_views(form.d_model, form.length, list(form.dims), lang)))


def change_d_model(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """The dimension picker offers the new width's dimensions (keeping the chosen ones it has), and
    the table is redrawn."""
    picker = _picker(form.dims, form.d_model, (0, 1))
    updated = replace(form, dims=tuple(picker.constructor_args["value"]))
    return {"dims": picker, **sinusoidal(workspace, updated, lang)}


def model_positions(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """The chosen model's own position table and similarity (hidden for RoPE and none), with a note."""
    entry = workspace.model(form.model)
    if entry is None:
        raise unknown_model(workspace, form.model, lang)
    heatmap, similarity, note = model_position_views(entry, lang)
    return {"model_heatmap": gr.Plot(heatmap, visible=heatmap is not None),
            "model_similarity": gr.Plot(similarity, visible=similarity is not None), "model_note": note}


def rope(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """Each chosen pair of a head's dimensions rotated to every position."""
    return {"rope_plot": rope_view(form.rope_dim, form.rope_positions, list(form.rope_pairs), lang)}


def change_rope_dim(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """The pair picker offers the new head size's pairs (keeping the chosen ones it has), and RoPE is redrawn."""
    picker = _picker(form.rope_pairs, form.rope_dim // 2, (0,))
    updated = replace(form, rope_pairs=tuple(picker.constructor_args["value"]))
    return {"rope_pairs": picker, **rope(workspace, updated, lang)}


def shuffle(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """f(shuffled x) against shuffled f(x) for each positional encoding."""
    rows, summary = shuffle_demo(form.shuffle_text, form.shuffle_seed, lang)
    headers = [text(lang, "col_encoding"), text(lang, "col_max_difference"), text(lang, "col_verdict")]
    return {"shuffle_summary": summary, "shuffle_table": gr.Dataframe(value=rows, headers=headers)}


def draw(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """Every part of the tab, with the pickers fitted to the chosen sizes; a part that refuses its input
    shows why, and the others are drawn. The pickers are always sent (as lists the page reads back),
    so a refused part, such as a shuffle text the order models cannot read, leaves no control behind."""
    updates = {"dims": _picker(form.dims, form.d_model, (0, 1)),
               "rope_pairs": _picker(form.rope_pairs, form.rope_dim // 2, (0,))}
    for part, shown_refusal in ((change_d_model, sinusoidal_refused), (model_positions, model_positions_refused),
                                (change_rope_dim, rope_refused), (shuffle, shuffle_refused)):
        try:
            updates.update(part(workspace, form, lang))
        except gr.Error:
            updates.update(shown_refusal(workspace, form, lang))
    return updates


def _picker(chosen: tuple[int, ...], size: int, fallback: tuple[int, ...]) -> gr.Dropdown:
    """A multiselect of 0 .. size - 1 holding the chosen values it has (else `fallback`)."""
    kept = [v for v in chosen if v < size] or list(fallback)
    return gr.Dropdown(choices=list(range(size)), value=kept)


def _refusal(part, figures: tuple[str, ...]):
    """A handler that shows, in `figures`, why `part` refused the form (instead of earlier views)."""
    def refused(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
        return refusal_figures(figures, refusal_reason(part, workspace, form, lang), lang)
    refused.__name__ = f"{part.__name__}_refused"
    return refused


sinusoidal_refused = _refusal(sinusoidal, SINUSOIDAL)
rope_refused = _refusal(rope, ROPE)
model_positions_refused = refusal_handler(model_positions, MODEL[:2], MODEL[2])


def shuffle_refused(workspace: Workspace, form: PositionalForm, lang: str) -> dict:
    """The shuffle's summary says why the text was refused, and the table empties."""
    reason = refusal_reason(shuffle, workspace, form, lang)
    return {"shuffle_summary": text(lang, "refused_summary", reason=reason), "shuffle_table": gr.Dataframe(value=[])}
