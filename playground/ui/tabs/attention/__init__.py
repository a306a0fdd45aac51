"""Attention tab: every layer x head of a model on your input, one head enlarged, head scores to
find the head that copies, the forward pass as a table of tensor shapes, and, for pretrained
models saved with a training timeline, the same views at any saved step of training.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import PRIVATE, QUIET, AppContext
from ...page.wiring import TabWiring, any_of, file_name, on_slides
from . import handlers
from .form import AttentionForm
from .layout import layout
from .views import (
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
    tab = TabWiring(ctx, AttentionForm, c, export_name=export_name, controls=handlers.controls)
    everything = [*handlers.VIEWS, *handlers.CONTROLS]
    tab.on_open(handlers.draw, everything, shared=True)
    shown = tab.on(c["run"].click, handlers.show, handlers.VIEWS, api_name="attention", refused=handlers.refused,
                   link=False, shared=True)
    tab.on(shown.success, handlers.controls, handlers.CONTROLS, **QUIET)      # the controls agree with the views
    tab.on(c["model"].input, handlers.change_model, ["text", "target", "step", *everything], progress_on="grid",
           refused=handlers.refused)
    tab.on_model_added(handlers.show_added, ["model", "text", "target", "step", *everything], progress_on="grid",
                       refused=handlers.refused)
    chosen = c["step_picker"].input(lambda step: step, [c["step_picker"]], [c["step"]], **QUIET, **PRIVATE)
    for trigger in (chosen.then, any_of(c["text"].submit, c["target"].submit, c["kind"].input),
                    examples.load_input_event.then):
        tab.on(trigger, handlers.draw, everything, refused=handlers.refused, shared=True)
    trigger, options = on_slides(c["layer"], c["head"])
    tab.on(trigger, handlers.redraw_head, ["head_plot"], shared=True, **QUIET, **options)
    tab.on(c["mean"].input, handlers.redraw_head, ["head_plot"], shared=True, **QUIET)
    tab.on(c["score"].input, handlers.redraw_scores, ["scores_plot", "best_heads"], shared=True, **QUIET)
    tab.on(c["ho_run"].click, handlers.heads_off, handlers.HEADS_OFF, api_name="attention_heads_off",
           refused=handlers.heads_off_refused, shared=True)
    tab.on(c["lens_run"].click, handlers.lens, handlers.LENS, api_name="attention_logit_lens",
           refused=handlers.lens_refused, shared=True)
    tab.on(c["best_button"].click, handlers.best_head, ["layer", "head", "mean", "head_plot"],
           api_name="attention_best_head")
