"""The Train tab's handlers.

Session-level functions of a Workspace (start, resume, step, stop, reset) return or yield views:
dicts from an output name (VIEWS) to its new value, holding only what changed; "published" carries a
newly published model, which has joined the session's models (the session works with it from then
on). The form handlers (on_*: workspace, form, language -> updates by component name) turn them
into component updates;
a run the form cannot start says why beside the buttons, where it stays until the next start.
"""
from __future__ import annotations

from contextlib import closing
from dataclasses import replace
from typing import Iterator

import gradio as gr

from playground.train import Snapshot, TrainEvent

from ...page.context import training_slots
from ...page.widgets import shown_if
from ...inputs.validation import MAX_TRAIN_TEXT_CHARS, check_choice, check_text, fail
from ...session.training import (
    BEGUN,
    DATA_BLOCK_SIZES,
    LINE,
    RUN_SECONDS,
    STEP_SIZE,
    TASK_PRESETS,
    TRAINED_PREFIX,
    TrainingSession,
    TrainSpec,
    build_trainer,
    check_size,
    data_name,
    estimated_vocab,
    read_text_file,
    takes_text,
    training_cost,
    training_text,
)
from ...session.workspace import Workspace
from ...text.i18n import text
from ...views.training import (
    curves_figure,
    layer_grads_figure,
    default_view,
    estimate_text,
    kind_choices,
    kinds_of,
    probe_figure,
    sample_text,
    schedule_figure,
    score_choices,
    score_keys,
    scores_figure,
    status_text,
)
from .form import TrainForm

VIEWS = ("status", "curves", "layer_grads", "probe", "scores", "sample", "probe_kind", "score", "download",
         "download_best")                                                                             # output order
ESTIMATE = ("estimate", "schedule_plot")
SHOWN = ("data_group", "pasted", "upload")                  # what the task and the data source show


def session_of(workspace: Workspace) -> TrainingSession:
    """The session's training (created on first use)."""
    with workspace.lock:
        if workspace.training is None:
            workspace.training = TrainingSession()
        return workspace.training


def all_views(session: TrainingSession, lang: str) -> dict:
    """Every output, drawn from the session as it stands (the view choices only once there is a training)."""
    views = {"status": status_text(session, lang), "curves": curves_figure(session, lang),
             "layer_grads": layer_grads_figure(session, lang),
             "probe": probe_figure(session, lang), "scores": scores_figure(session, lang),
             "sample": sample_text(session, lang), "download": session.download,
             "download_best": session.download_best}
    if session.spec is not None:
        views["probe_kind"] = (kind_choices(session.spec, lang), session.view_kind)
        views["score"] = (score_choices(session.spec, lang), session.view_score)
    return views


def untrained_view_choices(task: str, lang: str) -> dict:
    """The probe kinds and scores of `task` in `lang`, its default view chosen (before any training)."""
    spec = TrainForm(task=check_choice(task, tuple(TASK_PRESETS), lang, "task")).with_task_defaults().spec(lang)
    kind, score_key = default_view(spec)
    return {"probe_kind": (kind_choices(spec, lang), kind), "score": (score_choices(spec, lang), score_key)}


def batch_views(session: TrainingSession, batch: list, lang: str) -> dict:
    """What a batch of the worker's items changes: a new Trainer redraws everything, progress the
    status, the curves and the per-layer gradient norms, a snapshot the probe, the head scores and the sample."""
    if BEGUN in batch:
        return all_views(session, lang)
    views = {"status": status_text(session, lang)}
    if any(isinstance(item, TrainEvent) for item in batch):
        views.update(curves=curves_figure(session, lang), layer_grads=layer_grads_figure(session, lang))
    if any(isinstance(item, Snapshot) for item in batch):
        views.update(probe=probe_figure(session, lang), scores=scores_figure(session, lang),
                     sample=sample_text(session, lang))
    return views


def check_can_train(workspace: Workspace, lang: str) -> None:
    """Refuse a second training while this session's runs."""
    session = workspace.training
    if session is not None and session.running:
        raise fail(lang, "err_train_running")


def check_resumable(session: TrainingSession | None, lang: str) -> TrainingSession:
    """The session's training when it can continue, else a gr.Error saying what to do."""
    if session is not None and session.running:
        raise fail(lang, "err_train_running")
    if session is None or session.trainer is None:
        raise fail(lang, "err_train_nothing")
    if session.state == "finished":
        raise fail(lang, "err_train_finished", steps=session.trainer.config.max_steps)
    if session.state == "diverged":
        raise fail(lang, "err_train_diverged", message=session.trainer.failure)
    return session


def check_request(workspace: Workspace, spec: TrainSpec, pasted, lang: str) -> None:
    """Refuse, before anything is queued or built, a model too large for the shared CPU (its size
    estimated from the form) and a second training while this session's runs."""
    check_size(spec, estimated_vocab(spec, pasted), lang)
    check_can_train(workspace, lang)


def _stream(workspace: Workspace, session: TrainingSession, build, max_steps: int | None, lang: str) -> Iterator[dict]:
    """One run in the session's worker, as views; at its end the published model joins the session."""
    before = session.entry
    LINE.runs(id(workspace))
    try:
        with closing(session.launch(lang, build, max_steps)) as batches:     # closing it stops the run
            for batch in batches:
                yield batch_views(session, batch, lang)
    finally:
        LINE.ends(id(workspace))
    if session.entry is not None and session.entry is not before:
        workspace.add_model(session.entry)
        yield {"status": status_text(session, lang), "download": session.download,
               "download_best": session.download_best, "published": session.entry}


def _builder(session: TrainingSession, spec: TrainSpec, pasted, lang: str, prefix: str = TRAINED_PREFIX):
    """What makes a new Trainer from the spec (run by the worker), publishing as `prefix` + its task."""
    def build() -> None:
        trainer = build_trainer(spec, training_text(spec, pasted, lang), lang)
        session.begin(spec, trainer, data_name(spec), prefix)
        session.view_kind, session.view_score = default_view(session.spec)
    return build


def start(workspace: Workspace, spec: TrainSpec, pasted, lang: str, prefix: str = TRAINED_PREFIX) -> Iterator[dict]:
    """Train a new model from random weights with the spec, for one run; its model is published as
    `prefix` + its task (a lesson's run beside the Train tab's)."""
    check_request(workspace, spec, pasted, lang)
    session = session_of(workspace)
    yield {"status": text(lang, "train_status_building")}
    yield from _stream(workspace, session, _builder(session, spec, pasted, lang, prefix), None, lang)


def resume(workspace: Workspace, lang: str) -> Iterator[dict]:
    """Continue the session's training exactly where it stopped, for one more run."""
    session = check_resumable(workspace.training, lang)
    yield from _stream(workspace, session, None, None, lang)


def step(workspace: Workspace, spec: TrainSpec, pasted, lang: str) -> Iterator[dict]:
    """STEP_SIZE more steps of the session's training, then show them (a new training from the spec
    when there is none to continue)."""
    check_request(workspace, spec, pasted, lang)
    session = session_of(workspace)
    fresh = session.trainer is None or session.state in ("finished", "diverged")
    build = _builder(session, spec, pasted, lang) if fresh else None
    yield from _stream(workspace, session, build, STEP_SIZE, lang)


def stop(workspace: Workspace, lang: str) -> dict:
    """End the session's run between two steps (its state is kept for Resume) and show its model."""
    session = workspace.training
    if session is None or session.trainer is None:
        return {"status": text(lang, "train_status_idle")}
    if not session.stop_and_wait():
        raise fail(lang, "err_train_stop_timeout")
    if session.entry is not None:                  # published by the run as it ended
        workspace.add_model(session.entry)
    return {**all_views(session, lang), "published": session.entry}


def reset(workspace: Workspace, lang: str) -> dict:
    """Stop any run and forget the training (a published model stays in the session)."""
    session = workspace.training
    if session is not None:
        if not session.stop_and_wait():
            raise fail(lang, "err_train_stop_timeout")
        session.reset()
    return all_views(session or TrainingSession(), lang)


def estimate(spec: TrainSpec, pasted, lang: str) -> str:
    """The spec's model size and cost per step against the limits (`pasted`: the text a character model of
    pasted text reads), with what to change when it is over them."""
    vocab = estimated_vocab(spec, pasted)
    params, gflops = training_cost(spec, vocab)
    try:
        check_size(spec, vocab, lang)
        problem = None
    except gr.Error as error:
        problem = error.message
    return estimate_text(params, gflops, vocab, problem, lang)


def select_view(session: TrainingSession | None, kind: str | None, score: str | None, lang: str) -> dict:
    """Show another attention kind of the probe, or follow another head score."""
    if session is None or session.spec is None:
        return {}
    if kind is not None:
        session.view_kind = check_choice(kind, kinds_of(session.spec), lang, "probe_kind")
        return {"probe": probe_figure(session, lang)}
    session.view_score = check_choice(score, score_keys(session.spec), lang, "score")
    return {"scores": scores_figure(session, lang)}


def shown_updates(views: dict) -> dict:
    """Session views as updates by component name (the view choices as radio and dropdown, the
    download as its button); the published model is the session's already, and has no component."""
    updates = {}
    for name, value in views.items():
        if name == "published":
            continue
        if name == "probe_kind":
            updates[name] = gr.Radio(choices=value[0], value=value[1])
        elif name == "score":
            updates[name] = gr.Dropdown(choices=value[0], value=value[1])
        elif name == "download":
            updates[name] = gr.DownloadButton(value=str(value) if value else None, interactive=value is not None)
        elif name == "download_best":
            updates[name] = gr.DownloadButton(value=str(value) if value else None, visible=value is not None)
        else:
            updates[name] = value
    return updates


def visibility(form: TrainForm) -> dict:
    """The text settings for a language model, the pasted text and its upload for pasted text."""
    language_model = takes_text(form.task)
    pasted = language_model and form.data == "pasted"
    return {"data_group": gr.Group(visible=shown_if(language_model)), "pasted": gr.Textbox(visible=pasted),
            "upload": gr.File(visible=pasted)}


def on_estimate(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """The form's model size and cost per step against the limits, and its learning-rate schedule; or
    what to change in the form (the schedule left as it is)."""
    try:
        spec = form.spec(lang)
    except gr.Error as error:
        return {"estimate": f"**{error.message}**", "schedule_plot": gr.skip()}
    return {"estimate": estimate(spec, form.pasted, lang), "schedule_plot": schedule_figure(spec, lang)}


def on_open(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """The form's estimate and what it shows, and the session's training as it stands (a run redraws
    in its own language until it ends)."""
    updates = {**on_estimate(workspace, form, lang), **visibility(form)}
    session = workspace.training
    if session is None or not session.running:
        views = all_views(session or TrainingSession(), lang)
        updates.update(shown_updates({**untrained_view_choices(form.task, lang), **views}))
    return updates


def on_task(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """The task's preset in the architecture and optimiser fields, what it shows, its estimate and,
    before any training, its probe kinds and scores."""
    chosen = form.with_task_defaults()
    updates = {**chosen.settings(), **visibility(chosen), **on_estimate(workspace, chosen, lang)}
    if getattr(workspace.training, "spec", None) is None:
        updates.update(shown_updates(untrained_view_choices(chosen.task, lang)))
    return updates


def on_data(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """The pasted text shown for pasted text, a block size the text can hold, the estimate."""
    block_size = DATA_BLOCK_SIZES.get(form.data)
    chosen = form if block_size is None else replace(form, block_size=block_size)
    updates = {**visibility(chosen), **on_estimate(workspace, chosen, lang)}
    if block_size is not None:
        updates["block_size"] = block_size
    return updates


def uploaded_text(path, lang: str) -> dict:
    """An uploaded .txt file's text in the pasted text (so a link can carry it), or what to change."""
    content = check_text(read_text_file(path, lang), lang, MAX_TRAIN_TEXT_CHARS, what="train_text")
    return {"pasted": content}


def on_queued(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """Refuse, before the run is queued, a form that cannot train; else say it waits for its turn
    (and take away what an earlier refusal said)."""
    check_request(workspace, form.spec(lang), form.pasted, lang)
    return {"status": queued_text(workspace, lang), "refusal": ""}


def on_resume_queued(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """Refuse, before it is queued, a Resume with nothing to continue."""
    check_resumable(workspace.training, lang)
    return {"status": queued_text(workspace, lang), "refusal": ""}


def queued_text(workspace: Workspace, lang: str) -> str:
    """The session joins the line for a training slot: its place and about how long until its turn."""
    LINE.waits(id(workspace))
    place, seconds = LINE.estimate(id(workspace), training_slots())
    return text(lang, "train_status_queued", place=place, seconds=round(seconds), run=round(RUN_SECONDS))


def _streamed(workspace: Workspace, run, lang: str) -> Iterator[dict]:
    """The run's views as updates; a run refused once under way (its data cannot be built from the
    form) leaves the status line as the session stands and says why beside the buttons."""
    try:
        with closing(run()) as stream:
            for views in stream:
                yield shown_updates(views)
    except gr.Error as error:
        session = workspace.training
        status = status_text(session, lang) if session is not None and session.trainer is not None \
            else text(lang, "train_status_refused")
        yield {"status": status, "refusal": f"**{error.message}**"}
        raise


def on_start(workspace: Workspace, form: TrainForm, lang: str) -> Iterator[dict]:
    """Train a new model from random weights with the form, for one run."""
    yield from _streamed(workspace, lambda: start(workspace, form.spec(lang), form.pasted, lang), lang)


def on_step(workspace: Workspace, form: TrainForm, lang: str) -> Iterator[dict]:
    """STEP_SIZE more steps of the session's training (a new one from the form when there is none)."""
    yield from _streamed(workspace, lambda: step(workspace, form.spec(lang), form.pasted, lang), lang)


def on_resume(workspace: Workspace, form: TrainForm, lang: str) -> Iterator[dict]:
    """Continue the session's training where it stopped, for one more run."""
    yield from _streamed(workspace, lambda: resume(workspace, lang), lang)


def on_stop(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """End the session's run and show its model."""
    return shown_updates(stop(workspace, lang))


def on_reset(workspace: Workspace, form: TrainForm, lang: str) -> dict:
    """Stop any run and forget the training."""
    return shown_updates(reset(workspace, lang))
