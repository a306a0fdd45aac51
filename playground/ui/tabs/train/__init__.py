"""Train tab: choose a task, its data, an architecture and an optimiser, press Start and watch a
Transformer learn: loss and validation curves, accuracy, the attention on a fixed probe input,
head scores over training and what the model writes now. When a run ends the model joins the
session's models in every tab and can be downloaded as one .safetensors file.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event does."""
from __future__ import annotations

import gradio as gr

from playground.train.recipes import PRESET_FIELDS

from ...page.context import PRIVATE, QUIET, AppContext, training
from ...page.runtime import guarded
from ...page.wiring import TabWiring, any_of, file_name
from . import handlers
from .form import TrainForm
from .handlers import (
    ESTIMATE,
    SHOWN,
    VIEWS,
    all_views,
    check_can_train,
    estimate,
    reset,
    resume,
    select_view,
    start,
    step,
    stop,
    untrained_view_choices,
)
from .layout import layout

__all__ = ["TrainForm", "VIEWS", "all_views", "build", "check_can_train", "estimate", "reset", "resume",
           "select_view", "start", "step", "stop", "untrained_view_choices"]
SLIDERS = ("layers", "batch_size")                                                                # on release
CHANGES = tuple(name for name in TrainForm.params() if name not in ("task", "data", "pasted", *SLIDERS))   # on input


def export_name(form: TrainForm, figure: str) -> str:
    """"train-curves-copy-L2-d64-H4": the view, the figure, the task and the model's shape."""
    return file_name(form.VIEW, figure, form.task, f"L{form.layers}", f"d{form.d_model}", f"H{form.n_heads}")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab). A run's published model joins the
    session's models, and the session works with it from then on: every other tab shows it when it
    is next shown."""
    c = layout(ctx)
    tab = TabWiring(ctx, TrainForm, c, export_name=export_name, draw=handlers.on_open)
    quiet = dict(progress_on="estimate", show_progress="hidden")
    changes = [c["pasted"].blur, *(c[name].input for name in CHANGES), *(c[name].release for name in SLIDERS)]
    tab.on(any_of(c["task"].input, c["data"].input, *changes), handlers.on_estimate,
           (*ESTIMATE, *PRESET_FIELDS, *SHOWN, "block_size", "probe_kind", "score"), api_name="train_estimate",
           by_trigger={"task": handlers.on_task, "data": handlers.on_data}, trigger_mode="always_last", **quiet)

    @guarded
    def on_upload(path, lang: str) -> str:
        return handlers.uploaded_text(path, lang)["pasted"]

    loaded = c["upload"].upload(on_upload, [c["upload"], ctx.language], [c["pasted"]], **QUIET, **PRIVATE)
    tab.on(loaded.success, handlers.on_estimate, ESTIMATE, **quiet)

    @guarded
    def on_view(kind, score, lang: str, request: gr.Request) -> dict:
        session = ctx.workspace(request).training
        views = {**handlers.select_view(session, kind, None, lang), **handlers.select_view(session, None, score, lang)}
        return {c[name]: update for name, update in views.items()}

    gr.on([c["probe_kind"].input, c["score"].input], on_view, [c["probe_kind"], c["score"], ctx.language],
          [c["probe"], c["scores"]], **QUIET, **PRIVATE)

    runs = []
    for button, check, handler, api_name in (
            ("start", handlers.on_queued, handlers.on_start, "train_start"),
            ("step", handlers.on_queued, handlers.on_step, "train_step"),
            ("resume", handlers.on_resume_queued, handlers.on_resume, "train_resume")):
        queued = tab.on(c[button].click, check, ["status", "refusal"], show_progress="hidden")
        runs.append(tab.on(queued.success, handler, (*VIEWS, "refusal"), api_name=api_name, stream=True,
                           trains=True, **training(c["curves"])))
    control = dict(cancels=runs, concurrency_id="train-control", concurrency_limit=None, show_progress="hidden",
                   trains=True)
    tab.on(c["stop"].click, handlers.on_stop, VIEWS, api_name="train_stop", **control)
    tab.on(c["reset"].click, handlers.on_reset, VIEWS, api_name="train_reset", **control)
