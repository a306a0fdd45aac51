"""Attention tab: every layer x head of a model on your input, one head enlarged, head scores to
find the head that copies, the forward pass as a table of tensor shapes, and, for pretrained
models saved with a training timeline, the same views at any saved step of training; panels that
explain an answer: heads switched off, the logit lens with direct logit attribution, activation
patching and linear probes.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import QUIET, AppContext, heavy
from ...page.wiring import LINK, TabWiring, any_of, example_adapter, file_name, on_slides, picked_value
from ...views.explaining_panels import PATCHING_RUN
from . import handlers
from .form import AttentionForm
from .layout import layout
from ...views.attention import (
    MAX_ATTENTION_TOKENS,
    AttentionPass,
    AttentionViews,
    attention_views,
    entry_at_step,
    forward_pass,
    head_view,
    kinds_of,
    scores_of,
    scores_view,
    timeline_update,
    weights_of,
)

__all__ = ["MAX_ATTENTION_TOKENS", "AttentionForm", "AttentionPass", "AttentionViews", "attention_views", "build",
           "entry_at_step", "forward_pass", "head_view", "kinds_of", "scores_of", "scores_view", "timeline_update",
           "weights_of"]


def export_name(form: AttentionForm, figure: str) -> str:
    """"copy-attention-cross-head_plot-L1-H2": model, view, kind, figure, layer and head."""
    return file_name(form.model, form.VIEW, form.kind, figure, f"L{form.layer}",
                     "mean" if form.mean else f"H{form.head}")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c, examples = layout(ctx)
    tab = TabWiring(ctx, AttentionForm, c, export_name=export_name, controls=handlers.controls, draw=handlers.draw,
                    refused=handlers.refused, shared=True, derived=handlers.DERIVED,
                    initial=lambda workspace: handlers.initial_form(workspace) or tab.layout_form(workspace))
    # The API's outputs end with the views, in VIEWS order; an example sets the model too.
    everything = ["model", *handlers.CONTROLS, "text", "target", "step", *handlers.LATE_CONTROLS, LINK, *handlers.VIEWS]
    tab.on(any_of(c["run"].click, c["text"].submit, c["target"].submit, c["kind"].input, c["model"].input,
                  c["step_picker"].select, c["examples"].select),
           handlers.draw, everything, progress_on="grid", api_name="attention", refused=handlers.refused, shared=True,
           refreshes=True, by_trigger={"model": handlers.change_model, "text": handlers.change_text},
           adapt={"step_picker": picked_value("step"),
                  "examples": example_adapter(examples, ("model", "text"), target="", step=None, pt_corrupted="")},
           trigger_mode="always_last")      # an example clicked while another draws is drawn next, not dropped
    trigger, options = on_slides(c["layer"], c["head"])
    tab.on(any_of(trigger, c["mean"].input), handlers.redraw_head, ["head_plot"], shared=True, **QUIET, **options)
    tab.on(c["score"].input, handlers.redraw_scores, ["scores_plot", "best_heads"], shared=True, **QUIET)
    tab.on(c["ho_run"].click, handlers.heads_off, handlers.HEADS_OFF, api_name="attention_heads_off",
           refused=handlers.heads_off_refused, shared=True, derived="heads_off")
    tab.on(any_of(c["lens_run"].click, c["dla_token"].submit), handlers.lens, handlers.LENS,
           api_name="attention_logit_lens", refused=handlers.lens_refused, shared=True, derived="lens")
    tab.on(any_of(c["pt_run"].click, c["pt_suggest"].click, c["pt_corrupted"].submit), handlers.patching,
           PATCHING_RUN, progress_on="pt_residual", api_name="attention_patching",
           refused=handlers.patching_refused, shared=True, derived="patching",
           by_trigger={"pt_suggest": handlers.suggest_patching})
    # Probes are refused only for a model or step whose panel was cleared already: no failure event to clear it.
    tab.on(c["pr_run"].click, handlers.probes, handlers.PROBES, api_name="attention_probes", shared=True,
           derived="probes", **heavy(c["pr_plot"]))
    tab.on(c["best_button"].click, handlers.best_head, ["layer", "head", "mean", "head_plot"],
           api_name="attention_best_head")
