"""The Activation patching and Linear probes panels of the Attention tab: their components, and the updates
their buttons draw.

    patching_panel(view)                                  -> {name: component}
    patching_updates(entry, clean, corrupted, lang)       -> {"pt_residual": ..., ..., "pt_summary": ...}
    suggestion_updates(entry, clean, lang)                -> the same, for the suggested corruption, and it
    probes_panel(view)                                    -> {name: component}
    probe_controls(final, chosen, lang)                   -> the property picker and what is offered
    probe_updates(final, entry, prop, lang)               -> {"pr_plot": ..., "pr_summary": ...}
"""
from __future__ import annotations

from functools import partial

import gradio as gr

from playground.zoo import ModelEntry

from ..inputs.validation import MAX_INPUT_CHARS
from ..page.widgets import MathMarkdown
from ..text.i18n import label, text
from ..text.markup import literal
from .patching import patching_views, suggested_corruption
from .probes import PROPERTIES, probe_properties, probe_view

PATCHING = ("pt_residual", "pt_source", "pt_heads", "pt_positions", "pt_summary")    # what patching draws
PATCHING_RUN = ("pt_corrupted", *PATCHING)                                           # and the corrupted input
PROBES = ("pr_plot", "pr_summary")                                                   # what the probes draw
PROBE_CONTROLS = ("pr_property", "pr_offered", "pr_run")                             # what follows the model


def patching_panel(view: str) -> dict[str, gr.components.Component]:
    """The closed Activation patching accordion: the corrupted input, Suggest and Patch, the maps, the summary
    and the metric explained."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_pt_panel"), open=False, elem_id=f"{view}-patching-panel"):
        with gr.Row():
            with gr.Column(scale=3):
                with gr.Row():
                    c["pt_corrupted"] = gr.Textbox("", label=label("param_pt_corrupted"),
                                                   info=label("info_pt_corrupted"), max_lines=2,
                                                   max_length=MAX_INPUT_CHARS, elem_id=f"{view}-pt-corrupted", scale=3)
                    c["pt_suggest"] = gr.Button(label("btn_pt_suggest"), elem_id=f"{view}-pt-suggest", scale=1)
                    c["pt_run"] = gr.Button(label("btn_pt_run"), variant="primary", elem_id=f"{view}-pt-run", scale=1)
                c["pt_residual"] = gr.Plot(show_label=False, elem_id=f"{view}-pt-residual")
                c["pt_source"] = gr.Plot(show_label=False, visible=False, elem_id=f"{view}-pt-source")
                c["pt_heads"] = gr.Plot(show_label=False, elem_id=f"{view}-pt-heads")
                c["pt_positions"] = gr.Plot(show_label=False, elem_id=f"{view}-pt-positions")
            with gr.Column(scale=2):
                c["pt_summary"] = gr.Markdown(elem_id=f"{view}-pt-summary")
                MathMarkdown(label("pt_explain"), elem_id=f"{view}-pt-explanation", elem_classes="explanation")
    return c


def patching_updates(entry: ModelEntry, clean, corrupted, lang: str) -> dict:
    """The patching maps of the two inputs (the suggested corruption when none is typed) and the corrupted
    input they were drawn for."""
    corrupted = corrupted if isinstance(corrupted, str) and corrupted else suggested_corruption(entry, clean, lang)
    views = patching_views(entry, clean, corrupted, lang)
    return {"pt_corrupted": corrupted, "pt_residual": views.residual,
            "pt_source": gr.Plot(views.source, visible=views.source is not None), "pt_heads": views.heads,
            "pt_positions": views.positions, "pt_summary": views.summary}


def suggestion_updates(entry: ModelEntry, clean, lang: str) -> dict:
    """The suggested corruption of `clean`, and its patching maps."""
    return patching_updates(entry, clean, suggested_corruption(entry, clean, lang), lang)


def probes_panel(view: str) -> dict[str, gr.components.Component]:
    """The closed Linear probes accordion: the property, Train probes, accuracy by layer, the sentence the
    result makes and what a probe is."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_pr_panel"), open=False, elem_id=f"{view}-probes-panel"):
        with gr.Row():
            with gr.Column(scale=3):
                c["pr_offered"] = gr.Markdown(elem_id=f"{view}-pr-offered")
                with gr.Row():
                    c["pr_property"] = gr.Radio([(label(f"pr_property_{p}"), p) for p in PROPERTIES],
                                                value=PROPERTIES[0], label=label("param_pr_property"),
                                                elem_id=f"{view}-pr-property", scale=3)
                    c["pr_run"] = gr.Button(label("btn_pr_run"), variant="primary", elem_id=f"{view}-pr-run", scale=1)
                c["pr_plot"] = gr.Plot(show_label=False, elem_id=f"{view}-pr-plot")
            with gr.Column(scale=2):
                c["pr_summary"] = gr.Markdown(elem_id=f"{view}-pr-summary")
                gr.Markdown(label("pr_explain"), elem_id=f"{view}-pr-explanation", elem_classes="explanation")
    return c


def probe_controls(final: ModelEntry, chosen: str, lang: str) -> dict:
    """The properties offered for the model (the chosen one kept when it is among them, else the first), a
    line saying what is offered or why nothing is, and Train probes only where something is offered. The
    picker always holds one of PROPERTIES."""
    t = partial(text, lang)
    offered = probe_properties(final)
    value = chosen if chosen in offered else (offered[0] if offered else chosen)
    choices = [(t(f"pr_property_{p}"), p) for p in (offered or (value,))]
    model = literal(final.name)
    line = t("pr_offered", model=model) if offered else t("pr_none_offered", model=model)
    return {"pr_property": gr.Radio(choices=choices, value=value, visible=bool(offered)), "pr_offered": line,
            "pr_run": gr.Button(visible=bool(offered))}


def probe_updates(final: ModelEntry, entry: ModelEntry, prop: str, lang: str) -> dict:
    """Accuracy by layer of the probes of `prop` on `entry`, with the sentence the result makes."""
    view = probe_view(final, entry, prop, lang)
    return {"pr_plot": view.figure, "pr_summary": view.summary}
