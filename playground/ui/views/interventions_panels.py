"""The Switch heads off and Logit lens panels, as the Attention and Generate tabs both show them:
their components, the head picker that follows the model, and the updates their buttons draw.

    heads_off_panel(view, entry)                          -> {name: component}
    lens_panel(view)                                      -> {name: component} (with direct logit attribution)
    head_picker(entry, chosen, lang)                      -> gr.Dropdown
    fit_heads(entry, chosen)                              -> (the chosen heads it has, Refused or None)
    heads_off_updates(entry, value, heads, how, lang)     -> {"ho_distribution": ..., "ho_summary": ...}
    lens_updates(entry, value, token, lang)               -> {"lens_plot": ..., "dla_plot": ..., "dla_summary": ...}

Component names are the same in every tab ("ho_heads", "ho_how", "ho_run", ...); element ids
are the tab's view name followed by the part ("attention-ho-run", "generate-lens-plot").
"""
from __future__ import annotations

import gradio as gr

from ..page.forms import Refused
from ..page.refusals import refusal_figures
from playground.zoo import ModelEntry
from ..text.i18n import label, text
from .attribution import MAX_TOKEN_CHARS, attribution_view
from .interventions import (
    HEADS_OFF_EXPLANATION,
    LOGIT_LENS_EXPLANATION,
    HeadsOffSettings,
    head_choices,
    heads_off_views,
    logit_lens_figure,
)

MAX_HEADS_OFF = 256            # heads a form may name
HEADS_OFF = ("ho_distribution", "ho_summary")     # what the Switch heads off button draws
LENS = ("lens_plot", "dla_plot", "dla_summary")   # what the Logit lens button draws: the lens and the attribution


def heads_off_panel(view: str, entry: ModelEntry) -> dict[str, gr.components.Component]:
    """The closed Switch heads off accordion: the head picker (with `entry`'s heads), how, the button,
    the distributions before and after, the summary and the explanation."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_ho_panel"), open=False, elem_id=f"{view}-heads-off-panel"):
        with gr.Row():
            with gr.Column(scale=3):
                with gr.Row():
                    c["ho_heads"] = gr.Dropdown(head_choices(entry, "en"), value=[], multiselect=True,
                                                allow_custom_value=True,   # the handler names a wrong head
                                                label=label("param_ho_heads"), elem_id=f"{view}-ho-heads", scale=3)
                    c["ho_how"] = gr.Radio([(label("ho_how_zero"), "zero"), (label("ho_how_mean"), "mean")],
                                           value="zero", label=label("param_ho_how"), elem_id=f"{view}-ho-how",
                                           scale=2)
                c["ho_run"] = gr.Button(label("btn_ho_run"), variant="primary", elem_id=f"{view}-ho-run")
                c["ho_distribution"] = gr.Plot(show_label=False, elem_id=f"{view}-ho-distribution")
            with gr.Column(scale=2):
                c["ho_summary"] = gr.Markdown(elem_id=f"{view}-ho-summary")
                gr.Markdown(label(HEADS_OFF_EXPLANATION), elem_id=f"{view}-ho-explanation",
                            elem_classes="explanation")
    return c


def lens_panel(view: str) -> dict[str, gr.components.Component]:
    """The closed Logit lens accordion: the button, the figure and the explanation, and beside it direct logit
    attribution: the token to explain, its bars, the sum against the logit and what the bars are."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_lens_panel"), open=False, elem_id=f"{view}-lens-panel"):
        with gr.Row():
            with gr.Column(scale=3):
                with gr.Row():
                    c["dla_token"] = gr.Textbox("", label=label("param_dla_token"), info=label("info_dla_token"),
                                                max_lines=1, max_length=MAX_TOKEN_CHARS, elem_id=f"{view}-dla-token",
                                                scale=2)
                    c["lens_run"] = gr.Button(label("btn_lens_run"), variant="primary", elem_id=f"{view}-lens-run",
                                              scale=1)
                c["lens_plot"] = gr.Plot(show_label=False, elem_id=f"{view}-lens-plot")
                c["dla_plot"] = gr.Plot(show_label=False, elem_id=f"{view}-dla-plot")
            with gr.Column(scale=2):
                gr.Markdown(label(LOGIT_LENS_EXPLANATION), elem_id=f"{view}-lens-explanation",
                            elem_classes="explanation")
                c["dla_summary"] = gr.Markdown(elem_id=f"{view}-dla-summary")
                gr.Markdown(label("dla_explain"), elem_id=f"{view}-dla-explanation", elem_classes="explanation")
    return c


def fit_heads(entry: ModelEntry, chosen: tuple[str, ...]) -> tuple[tuple[str, ...], Refused | None]:
    """The chosen heads the model has, and a refusal naming those it lacks (None when it has them all)."""
    heads = {value for _, value in head_choices(entry, "en")}
    missing = [h for h in chosen if h not in heads]
    kept = tuple(h for h in chosen if h in heads)
    if not missing:
        return kept, None
    return kept, Refused("ho_heads", "err_bad_choice", value=", ".join(missing)[:40],
                         choices=", ".join(sorted(heads))[:200])


def head_picker(entry: ModelEntry, chosen: tuple[str, ...], lang: str) -> gr.Dropdown:
    """The model's heads to switch off, keeping the chosen ones it has."""
    return gr.Dropdown(choices=head_choices(entry, lang), value=list(fit_heads(entry, chosen)[0]), multiselect=True)


def heads_off_updates(entry: ModelEntry, value, heads, how, lang: str) -> dict:
    """The prediction on `value` with every head on and with `heads` switched off (KL, the greedy
    output before and after, and exact match on held-out examples for a seq2seq task model)."""
    views = heads_off_views(entry, value, HeadsOffSettings(heads, how), lang)
    parts = [views.summary, views.generation, views.exact_match]
    return {"ho_distribution": views.distribution, "ho_summary": "\n\n".join(p for p in parts if p)}


def lens_updates(entry: ModelEntry, value, token, lang: str) -> dict:
    """The logit lens of `value` (the top token and its probability after every layer), and the direct logit
    attribution of `token` (empty: the model's top token) where the model predicts after it. A token that
    cannot be split (not one of the model's) leaves the lens drawn and says why in the attribution's place."""
    lens = logit_lens_figure(entry, value, lang)                 # a bad input is refused here, for both
    try:
        attribution = attribution_view(entry, value, token, lang)
    except gr.Error as error:
        return {"lens_plot": lens, **refusal_figures(("dla_plot",), error.message, lang),
                "dla_summary": text(lang, "refused_summary", reason=error.message)}
    return {"lens_plot": lens, "dla_plot": attribution.figure, "dla_summary": attribution.summary}
