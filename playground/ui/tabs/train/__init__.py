"""Train tab: choose a task, its data, an architecture and an optimiser, press Start and watch a
Transformer learn: loss and validation curves, accuracy, the attention on a fixed probe input,
head scores over training and what the model writes now. When a run ends the model joins the
session's models in every tab and can be downloaded as one .safetensors file.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event does."""
from __future__ import annotations

from functools import update_wrapper
from itertools import count

import gradio as gr

from ...page.context import PRIVATE, QUIET, AppContext, training
from ...page.runtime import guarded
from ...page.wiring import TabWiring, any_of, file_name
from ...session.workspace import Workspace
from . import handlers
from .form import SETTINGS, TrainForm
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
CHANGES = ("n_heads", "d_model", "d_ff", "positional", "norm", "activation", "dropout", "tie_weights", "lr", "warmup",
           "steps", "block_size", "schedule", "decay_every", "decay_factor", "clip", "grad_clip")   # redraw on input
SLIDERS = ("layers", "batch_size")                                                                # on release
TRAINED = "trained"                  # the app's value that changes whenever a run publishes its model
PUBLICATIONS = count(1)              # its values: a new one for every publication, so each one fires its change


def export_name(form: TrainForm, figure: str) -> str:
    """"train-curves-copy-L2-d64-H4": the view, the figure, the task and the model's shape."""
    return file_name(form.VIEW, figure, form.task, f"L{form.layers}", f"d{form.d_model}", f"H{form.n_heads}")


def picker_name(index: int) -> str:
    return f"picker{index}"


def with_pickers(ctx: AppContext, workspace: Workspace, updates: dict) -> dict:
    """The updates with a newly "published" model offered, and selected, by every model picker, and
    the app's `trained` value changed so that every tab redraws for it (see AppContext.models_added)."""
    updates = dict(updates)
    entry = updates.pop("published", None)
    if entry is not None:
        updates.update({picker_name(i): update for i, update in enumerate(ctx.picker_updates(workspace, entry))})
        updates[TRAINED] = str(next(PUBLICATIONS))
    return updates


def publishing(ctx: AppContext, handler, stream: bool):
    """`handler` whose published model goes to every model picker."""
    if stream:
        def run(workspace, form, lang):
            for updates in handler(workspace, form, lang):
                yield with_pickers(ctx, workspace, updates)
    else:
        def run(workspace, form, lang):
            return with_pickers(ctx, workspace, handler(workspace, form, lang))
    return update_wrapper(run, handler)


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab); the events that update every model
    picker are declared once every picker exists."""
    c = layout(ctx)
    tab = TabWiring(ctx, TrainForm, c, export_name=export_name)
    quiet = dict(progress_on="estimate", show_progress="hidden")
    tab.on_open(handlers.on_open, (*ESTIMATE, *SHOWN, *VIEWS), progress_on="estimate")
    tab.on(c["task"].input, handlers.on_task, (*SETTINGS, *SHOWN, *ESTIMATE, "probe_kind", "score"), **quiet)
    tab.on(c["data"].input, handlers.on_data, (*SHOWN, "block_size", *ESTIMATE), **quiet)
    changes = [c["pasted"].blur, *(c[name].input for name in CHANGES), *(c[name].release for name in SLIDERS)]
    tab.on(any_of(*changes), handlers.on_estimate, ESTIMATE, api_name="train_estimate",
           trigger_mode="always_last", **quiet)

    @guarded
    def on_upload(path, lang: str) -> str:
        return handlers.uploaded_text(path, lang)["pasted"]

    loaded = c["upload"].upload(on_upload, [c["upload"], ctx.language], [c["pasted"]], **QUIET, **PRIVATE)
    tab.on(loaded.success, handlers.on_estimate, ESTIMATE, **quiet)

    @guarded
    def on_kind(kind, lang: str, request: gr.Request) -> dict:
        views = handlers.select_view(ctx.workspace(request).training, kind, None, lang)
        return {c[name]: update for name, update in views.items()}

    @guarded
    def on_score(score, lang: str, request: gr.Request) -> dict:
        views = handlers.select_view(ctx.workspace(request).training, None, score, lang)
        return {c[name]: update for name, update in views.items()}

    c["probe_kind"].input(on_kind, [c["probe_kind"], ctx.language], [c["probe"]], **QUIET, **PRIVATE)
    c["score"].input(on_score, [c["score"], ctx.language], [c["scores"]], **QUIET, **PRIVATE)

    def wire() -> None:
        for index, (dropdown, _) in enumerate(ctx.pickers):
            tab.components[picker_name(index)] = dropdown
        tab.components[TRAINED] = ctx.trained
        outputs = (*VIEWS, *(picker_name(i) for i in range(len(ctx.pickers))), TRAINED)
        runs = []
        for button, check, handler, api_name in (
                ("start", handlers.on_queued, handlers.on_start, "train_start"),
                ("step", handlers.on_queued, handlers.on_step, "train_step"),
                ("resume", handlers.on_resume_queued, handlers.on_resume, "train_resume")):
            queued = tab.on(c[button].click, check, ["status"], show_progress="hidden")
            runs.append(tab.on(queued.success, publishing(ctx, handler, True), outputs, api_name=api_name,
                               stream=True, trains=True, **training(c["curves"])))
        control = dict(cancels=runs, concurrency_id="train-control", concurrency_limit=None, show_progress="hidden",
                       trains=True)
        tab.on(c["stop"].click, publishing(ctx, handlers.on_stop, False), outputs, api_name="train_stop", **control)
        tab.on(c["reset"].click, publishing(ctx, handlers.on_reset, False), outputs, api_name="train_reset", **control)

    ctx.after_tabs(wire)
