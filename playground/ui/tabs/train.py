"""Train tab: choose a task, its data, an architecture and an optimiser, press Start and watch a
Transformer learn: loss and validation curves, accuracy, the attention on a fixed probe input,
head scores over training and what the model writes now. When a run ends the model joins the
session's models in every tab and can be downloaded as one .safetensors file.

The handlers are plain functions of a Workspace (start, resume, step, stop, reset). They return
or yield views: dicts from an output name (VIEWS) to its new value, holding only what changed;
"published" carries a newly published model, which every model picker then offers and selects.
"""
from __future__ import annotations

from contextlib import closing
from typing import Iterator

import gradio as gr

from playground.model import ACTIVATIONS, NORM_PLACEMENTS, POSITIONAL_ENCODINGS
from playground.train import Snapshot, TrainEvent
from playground.train.config import SCHEDULES

from ..context import LATEX, PRIVATE, QUIET, AppContext, training
from ..i18n import label, text
from ..runtime import guarded, guarded_training
from ..training import (
    BEGUN,
    DATA_BLOCK_SIZES,
    DATA_SOURCES,
    STABILITY_FIELDS,
    STEP_SIZE,
    TASK_PRESETS,
    TrainingSession,
    TrainSpec,
    build_trainer,
    check_size,
    check_spec,
    data_name,
    estimated_vocab,
    form_defaults,
    stability_defaults,
    takes_text,
    training_cost,
    training_text,
)
from ..training_views import (
    SHORT_KIND,
    TASK_NAMES,
    curves_figure,
    default_view,
    estimate_text,
    kind_choices,
    kinds_of,
    probe_figure,
    sample_text,
    score_choices,
    score_keys,
    schedule_figure,
    scores_figure,
    status_text,
)
from ..validation import MAX_TRAIN_TEXT_CHARS, TRAIN_LIMITS, check_choice, fail
from ..workspace import Workspace

VIEWS = ("status", "curves", "probe", "scores", "sample", "probe_kind", "score", "download")   # output order
FIRST_TASK = "copy"
BUTTON_WIDTH = 90
DATA_LABELS = {"bundled": "data_bundled", "tiny_shakespeare": "data_tiny_shakespeare", "rhyme": "data_rhyme",
               "pasted": "data_pasted", "upload": "data_upload"}
LM_DEFAULTS = stability_defaults("char-lm")
FORM_FIELDS = ("layers", "n_heads", "d_model", "d_ff", "positional", "norm", "activation", "dropout", "tie_weights",
               "lr", "warmup", "batch_size", "steps")


def session_of(workspace: Workspace) -> TrainingSession:
    """The session's training (created on first use)."""
    with workspace.lock:
        if workspace.training is None:
            workspace.training = TrainingSession()
        return workspace.training


def all_views(session: TrainingSession, lang: str) -> dict:
    """Every output, drawn from the session as it stands (the view choices only once there is a training)."""
    views = {"status": status_text(session, lang), "curves": curves_figure(session, lang),
             "probe": probe_figure(session, lang), "scores": scores_figure(session, lang),
             "sample": sample_text(session, lang), "download": session.download}
    if session.spec is not None:
        views["probe_kind"] = (kind_choices(session.spec, lang), session.view_kind)
        views["score"] = (score_choices(session.spec, lang), session.view_score)
    return views


def untrained_view_choices(task: str, lang: str) -> dict:
    """The probe kinds and scores of `task` in `lang`, its default view chosen (before any training)."""
    spec = check_spec(check_choice(task, tuple(TASK_PRESETS), lang, "task"), "bundled",
                      *(form_defaults(task)[f] for f in FORM_FIELDS), lang)
    kind, score_key = default_view(spec)
    return {"probe_kind": (kind_choices(spec, lang), kind), "score": (score_choices(spec, lang), score_key)}


def batch_views(session: TrainingSession, batch: list, lang: str) -> dict:
    """What a batch of the worker's items changes: a new Trainer redraws everything, progress the
    status and curves, a snapshot the probe, the head scores and the sample."""
    if BEGUN in batch:
        return all_views(session, lang)
    views = {"status": status_text(session, lang)}
    if any(isinstance(item, TrainEvent) for item in batch):
        views["curves"] = curves_figure(session, lang)
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
    with closing(session.launch(lang, build, max_steps)) as batches:     # closing it stops the run
        for batch in batches:
            yield batch_views(session, batch, lang)
    if session.entry is not None and session.entry is not before:
        with workspace.lock:
            workspace.add_model(session.entry)
        yield {"status": status_text(session, lang), "download": session.download, "published": session.entry}


def _builder(session: TrainingSession, spec: TrainSpec, pasted, upload, lang: str):
    """What makes a new Trainer from the spec (run by the worker)."""
    def build() -> None:
        trainer = build_trainer(spec, training_text(spec, pasted, upload, lang), lang)
        session.begin(spec, trainer, data_name(spec, upload))
        session.view_kind, session.view_score = default_view(session.spec)
    return build


def start(workspace: Workspace, spec: TrainSpec, pasted, upload, lang: str) -> Iterator[dict]:
    """Train a new model from random weights with the spec, for one run."""
    check_request(workspace, spec, pasted, lang)
    session = session_of(workspace)
    yield {"status": text(lang, "train_status_building")}
    yield from _stream(workspace, session, _builder(session, spec, pasted, upload, lang), None, lang)


def resume(workspace: Workspace, lang: str) -> Iterator[dict]:
    """Continue the session's training exactly where it stopped, for one more run."""
    session = check_resumable(workspace.training, lang)
    yield from _stream(workspace, session, None, None, lang)


def step(workspace: Workspace, spec: TrainSpec, pasted, upload, lang: str) -> Iterator[dict]:
    """STEP_SIZE more steps of the session's training, then show them (a new training from the spec
    when there is none to continue)."""
    check_request(workspace, spec, pasted, lang)
    session = session_of(workspace)
    fresh = session.trainer is None or session.state in ("finished", "diverged")
    build = _builder(session, spec, pasted, upload, lang) if fresh else None
    yield from _stream(workspace, session, build, STEP_SIZE, lang)


def stop(workspace: Workspace, lang: str) -> dict:
    """End the session's run between two steps (its state is kept for Resume) and show its model."""
    session = workspace.training
    if session is None or session.trainer is None:
        return {"status": text(lang, "train_status_idle")}
    if not session.stop_and_wait():
        raise fail(lang, "err_train_stop_timeout")
    if session.entry is not None:                  # published by the run as it ended
        with workspace.lock:
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


def estimate(task, data, pasted, layers, n_heads, d_model, d_ff, positional, norm, activation, dropout, tie_weights,
             lr, warmup, batch_size, steps, lang: str, **stability) -> str:
    """The form's model size and cost per step against the limits, or what to change in the form."""
    try:
        spec = check_spec(task, data, layers, n_heads, d_model, d_ff, positional, norm, activation, dropout,
                          tie_weights, lr, warmup, batch_size, steps, lang, **stability)
        vocab = estimated_vocab(spec, pasted)
        params, gflops = training_cost(spec, vocab)
        try:
            check_size(spec, vocab, lang)
            problem = None
        except gr.Error as error:
            problem = error.message
        return estimate_text(params, gflops, vocab, problem, lang)
    except gr.Error as error:
        return f"**{error.message}**"


def select_view(session: TrainingSession | None, kind: str | None, score: str | None, lang: str) -> dict:
    """Show another attention kind of the probe, or follow another head score."""
    if session is None or session.spec is None:
        return {}
    if kind is not None:
        session.view_kind = check_choice(kind, kinds_of(session.spec), lang, "probe_kind")
        return {"probe": probe_figure(session, lang)}
    session.view_score = check_choice(score, score_keys(session.spec), lang, "score")
    return {"scores": scores_figure(session, lang)}


def build(ctx: AppContext) -> None:
    """Declare the tab's components (inside a gr.Tab); its events are declared once every model picker exists."""
    lang = ctx.language
    first = form_defaults(FIRST_TASK)
    first_spec = check_spec(FIRST_TASK, None, *(first[f] for f in FORM_FIELDS), "en")
    first_view = default_view(first_spec)
    with gr.Row():
        with gr.Column(scale=2, min_width=380):
            task = gr.Radio([(label(TASK_NAMES[key]), key) for key in TASK_PRESETS], value=FIRST_TASK,
                            label=label("lbl_train_task"), elem_id="train-task")
            with gr.Group(visible=False) as data_group:
                data = gr.Radio([(label(DATA_LABELS[source]), source) for source in DATA_SOURCES], value="bundled",
                                label=label("lbl_train_data"), elem_id="train-data")
                block = gr.Number(LM_DEFAULTS["block_size"], precision=0, minimum=TRAIN_LIMITS["block_size"][0],
                                  maximum=TRAIN_LIMITS["block_size"][1], label=label("lbl_train_block"),
                                  elem_id="train-block")
                pasted = gr.Textbox("", lines=4, max_lines=8, max_length=MAX_TRAIN_TEXT_CHARS, visible=False,
                                    label=label("lbl_train_text"), elem_id="train-text")
                upload = gr.File(file_types=[".txt"], file_count="single", type="filepath", visible=False,
                                 label=label("lbl_train_file"), elem_id="train-file")
            with gr.Accordion(label("lbl_train_architecture"), open=True, elem_id="train-architecture"):
                with gr.Row():
                    layers = gr.Slider(*TRAIN_LIMITS["layers"], value=first["layers"], step=1,
                                       label=label("lbl_train_layers"), elem_id="train-layers")
                    n_heads = gr.Slider(*TRAIN_LIMITS["n_heads"], value=first["n_heads"], step=1,
                                        label=label("lbl_train_heads"), elem_id="train-heads")
                with gr.Row():
                    d_model = gr.Slider(*TRAIN_LIMITS["d_model"], value=first["d_model"], step=8,
                                        label=label("lbl_train_d_model"), elem_id="train-d-model")
                    d_ff = gr.Slider(*TRAIN_LIMITS["d_ff"], value=first["d_ff"], step=8,
                                     label=label("lbl_train_d_ff"), elem_id="train-d-ff")
                with gr.Row():
                    positional = gr.Dropdown([(label(f"enc_{p}"), p) for p in POSITIONAL_ENCODINGS],
                                             value=first["positional"], label=label("lbl_positional"),
                                             elem_id="train-positional")
                    norm = gr.Radio([(label(f"norm_{n}"), n) for n in NORM_PLACEMENTS], value=first["norm"],
                                    label=label("lbl_norm"), elem_id="train-norm")
                    activation = gr.Radio(list(ACTIVATIONS), value=first["activation"], label=label("lbl_activation"),
                                          elem_id="train-activation")
                with gr.Row():
                    dropout = gr.Slider(*TRAIN_LIMITS["dropout"], value=first["dropout"], step=0.05,
                                        label=label("lbl_train_dropout"), elem_id="train-dropout")
                    tie_weights = gr.Checkbox(first["tie_weights"], label=label("lbl_tie_weights"),
                                              elem_id="train-tie")
            with gr.Accordion(label("lbl_train_optimiser"), open=True, elem_id="train-optimiser"):
                with gr.Row():
                    lr = gr.Number(first["lr"], step=1e-4, label=label("lbl_train_lr"), elem_id="train-lr")
                    warmup = gr.Number(first["warmup"], precision=0, label=label("lbl_train_warmup"),
                                       elem_id="train-warmup")
                with gr.Row():
                    batch_size = gr.Slider(*TRAIN_LIMITS["batch_size"], value=first["batch_size"], step=1,
                                           label=label("lbl_train_batch"), elem_id="train-batch")
                    steps = gr.Number(first["steps"], precision=0, label=label("lbl_train_steps"),
                                      elem_id="train-steps")
                with gr.Row():
                    schedule = gr.Dropdown([(label(f"schedule_{s}"), s) for s in SCHEDULES], value=LM_DEFAULTS["schedule"],
                                           label=label("lbl_train_schedule"), elem_id="train-schedule")
                    decay_every = gr.Number(LM_DEFAULTS["decay_every"], precision=0, label=label("lbl_train_decay_every"),
                                            elem_id="train-decay-every")
                    decay_factor = gr.Number(LM_DEFAULTS["decay_factor"], step=0.05,
                                             label=label("lbl_train_decay_factor"), elem_id="train-decay-factor")
                with gr.Row():
                    clip = gr.Checkbox(LM_DEFAULTS["clip"], label=label("lbl_train_clip"), elem_id="train-clip")
                    grad_clip = gr.Number(LM_DEFAULTS["grad_clip"], step=0.1, label=label("lbl_train_clip_threshold"),
                                          elem_id="train-clip-threshold")
                schedule_plot = gr.Plot(show_label=False, elem_id="train-schedule-plot")
            estimate_box = gr.Markdown(elem_id="train-estimate")
        with gr.Column(scale=3):
            with gr.Row(elem_id="train-buttons"):
                start_button = gr.Button(label("btn_train_start"), variant="primary", min_width=BUTTON_WIDTH,
                                         elem_id="train-start")
                stop_button = gr.Button(label("btn_stop"), variant="stop", min_width=BUTTON_WIDTH, elem_id="train-stop")
                resume_button = gr.Button(label("btn_train_resume"), min_width=BUTTON_WIDTH, elem_id="train-resume")
                step_button = gr.Button(label("btn_train_step"), min_width=BUTTON_WIDTH, elem_id="train-step")
                reset_button = gr.Button(label("btn_reset"), min_width=BUTTON_WIDTH, elem_id="train-reset")
            status = gr.Markdown(label("train_status_idle"), elem_id="train-status")
            curves = gr.Plot(show_label=False, elem_id="train-curves")
            download = gr.DownloadButton(label("btn_train_download"), interactive=False, elem_id="train-download")
    with gr.Row():
        with gr.Column(scale=3):
            probe_kind = gr.Radio([(label(f"kind_{SHORT_KIND[k]}"), k) for k in kinds_of(first_spec)],
                                  value=first_view[0], label=label("lbl_train_probe_kind"), elem_id="train-probe-kind")
            probe = gr.Plot(show_label=False, elem_id="train-probe")
            score = gr.Dropdown(score_choices(first_spec, "en"), value=first_view[1], label=label("lbl_train_score"),
                                elem_id="train-score")
            scores = gr.Plot(show_label=False, elem_id="train-scores")
        with gr.Column(scale=2):
            sample = gr.Markdown(elem_id="train-sample")
            gr.Markdown(label("train_explanation"), elem_id="train-explanation", latex_delimiters=LATEX,
                        elem_classes="explanation")
            gr.Markdown(label("train_stability_explanation"), elem_id="train-stability-explanation",
                        elem_classes="explanation")

    form = [layers, n_heads, d_model, d_ff, positional, norm, activation, dropout, tie_weights, lr, warmup, batch_size,
            steps]
    stability = [block, schedule, decay_every, decay_factor, clip, grad_clip]       # STABILITY_FIELDS order
    spec_inputs = [task, data, pasted, upload, *form, lang, *stability]
    estimate_inputs = [task, data, pasted, *form, lang, *stability]
    views = [status, curves, probe, scores, sample, probe_kind, score, download]

    def shown(views_dict: dict, workspace: Workspace, pickers: bool = True) -> tuple:
        """The views as one value per output (gr.skip() for what did not change), then every model
        picker when `pickers`."""
        values = []
        for name in VIEWS:
            if name not in views_dict:
                values.append(gr.skip())
            elif name == "probe_kind":
                choices, value = views_dict[name]
                values.append(gr.Radio(choices=choices, value=value))
            elif name == "score":
                choices, value = views_dict[name]
                values.append(gr.Dropdown(choices=choices, value=value))
            elif name == "download":
                path = views_dict[name]
                values.append(gr.DownloadButton(value=str(path) if path else None, interactive=path is not None))
            else:
                values.append(views_dict[name])
        if not pickers:
            return tuple(values)
        entry = views_dict.get("published")
        updates = ctx.picker_updates(workspace, entry) if entry is not None else [gr.skip() for _ in ctx.pickers]
        return (*values, *updates)

    @guarded
    def on_estimate(task_value, data_value, pasted_value, layers_value, heads_value, d_model_value, d_ff_value,
                    positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value, warmup_value,
                    batch_value, steps_value, lang, block_value, schedule_value, decay_every_value, decay_factor_value,
                    clip_value, grad_clip_value):
        chosen = dict(zip(STABILITY_FIELDS, (block_value, schedule_value, decay_every_value, decay_factor_value,
                                             clip_value, grad_clip_value)))
        form_values = (task_value, data_value, layers_value, heads_value, d_model_value, d_ff_value, positional_value,
                       norm_value, activation_value, dropout_value, tie_value, lr_value, warmup_value, batch_value,
                       steps_value)
        try:
            curve = schedule_figure(check_spec(*form_values, lang, **chosen), lang)
        except gr.Error:
            curve = gr.skip()                 # the estimate says what to change
        return estimate(task_value, data_value, pasted_value, layers_value, heads_value, d_model_value, d_ff_value,
                        positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value,
                        warmup_value, batch_value, steps_value, lang, **chosen), curve

    @guarded
    def on_task(task_value, data_value, lang, request: gr.Request):
        task_value = check_choice(task_value, tuple(TASK_PRESETS), lang, "task")
        defaults = form_defaults(task_value)
        language_model = takes_text(task_value)
        views = [gr.skip(), gr.skip()]            # the views follow the training shown, once there is one
        if getattr(ctx.workspace(request).training, "spec", None) is None:
            spec = check_spec(task_value, "bundled", *(defaults[f] for f in FORM_FIELDS), lang)
            kind, score_key = default_view(spec)
            views = [gr.Radio(choices=kind_choices(spec, lang), value=kind),
                     gr.Dropdown(choices=score_choices(spec, lang), value=score_key)]
        return (gr.Group(visible=language_model), gr.Textbox(visible=language_model and data_value == "pasted"),
                gr.File(visible=language_model and data_value == "upload"), *(defaults[f] for f in FORM_FIELDS),
                *views)

    @guarded
    def on_data(data_value):
        block_size = DATA_BLOCK_SIZES.get(data_value)
        return (gr.Textbox(visible=data_value == "pasted"), gr.File(visible=data_value == "upload"),
                gr.skip() if block_size is None else block_size)

    @guarded
    def on_check_form(task_value, data_value, pasted_value, upload_value, layers_value, heads_value, d_model_value,
                      d_ff_value, positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value,
                      warmup_value, batch_value, steps_value, lang, block_value, schedule_value, decay_every_value,
                      decay_factor_value, clip_value, grad_clip_value, request: gr.Request):
        chosen = dict(zip(STABILITY_FIELDS, (block_value, schedule_value, decay_every_value, decay_factor_value,
                                             clip_value, grad_clip_value)))
        spec = check_spec(task_value, data_value, layers_value, heads_value, d_model_value, d_ff_value,
                          positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value,
                          warmup_value, batch_value, steps_value, lang, **chosen)
        check_request(ctx.workspace(request), spec, pasted_value, lang)
        return text(lang, "train_status_queued")

    @guarded
    def on_check_resume(lang, request: gr.Request):
        check_resumable(ctx.workspace(request).training, lang)
        return text(lang, "train_status_queued")

    @guarded
    def on_show(task_value, lang, request: gr.Request):
        workspace = ctx.workspace(request)
        session = workspace.training
        if session is not None and session.running:     # a run redraws in its own language until it ends
            return tuple(gr.skip() for _ in VIEWS)
        views = all_views(session or TrainingSession(), lang)
        return shown({**untrained_view_choices(task_value, lang), **views}, workspace, pickers=False)

    @guarded
    def on_view_kind(kind_value, lang, request: gr.Request):
        workspace = ctx.workspace(request)
        return shown(select_view(workspace.training, kind_value, None, lang), workspace, pickers=False)

    @guarded
    def on_view_score(score_value, lang, request: gr.Request):
        workspace = ctx.workspace(request)
        return shown(select_view(workspace.training, None, score_value, lang), workspace, pickers=False)

    def form_handler(run):
        """A handler that checks the form, then streams `run` (start or step) for this session."""
        @guarded_training
        def handler(task_value, data_value, pasted_value, upload_value, layers_value, heads_value, d_model_value,
                    d_ff_value, positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value,
                    warmup_value, batch_value, steps_value, lang, block_value, schedule_value, decay_every_value,
                    decay_factor_value, clip_value, grad_clip_value, request: gr.Request):
            workspace = ctx.workspace(request)
            chosen = dict(zip(STABILITY_FIELDS, (block_value, schedule_value, decay_every_value, decay_factor_value,
                                                 clip_value, grad_clip_value)))
            spec = check_spec(task_value, data_value, layers_value, heads_value, d_model_value, d_ff_value,
                              positional_value, norm_value, activation_value, dropout_value, tie_value, lr_value,
                              warmup_value, batch_value, steps_value, lang, **chosen)
            with closing(run(workspace, spec, pasted_value, upload_value, lang)) as stream:
                for views_dict in stream:
                    yield shown(views_dict, workspace)
        return handler

    on_start, on_step = form_handler(start), form_handler(step)

    @guarded_training
    def on_resume(lang, request: gr.Request):
        workspace = ctx.workspace(request)
        with closing(resume(workspace, lang)) as stream:
            for views_dict in stream:
                yield shown(views_dict, workspace)

    @guarded_training
    def on_stop(lang, request: gr.Request):
        workspace = ctx.workspace(request)
        return shown(stop(workspace, lang), workspace)

    @guarded_training
    def on_reset(lang, request: gr.Request):
        workspace = ctx.workspace(request)
        return shown(reset(workspace, lang), workspace)

    estimate_outputs = [estimate_box, schedule_plot]
    ctx.on_open(on_estimate, estimate_inputs, estimate_outputs, estimate_box)
    ctx.on_open(on_show, [task, lang], views, status)
    task_outputs = [data_group, pasted, upload, *form, probe_kind, score]
    task.input(on_task, [task, data, lang], task_outputs, **QUIET, **PRIVATE).then(
        on_estimate, estimate_inputs, estimate_outputs, **QUIET, **PRIVATE)
    data.input(on_data, [data], [pasted, upload, block], **QUIET, **PRIVATE).then(
        on_estimate, estimate_inputs, estimate_outputs, **QUIET, **PRIVATE)
    changes = [pasted.blur, positional.input, norm.input, activation.input, tie_weights.input, lr.input,
               warmup.input, steps.input, *(s.release for s in (layers, n_heads, d_model, d_ff, dropout, batch_size)),
               *(c.input for c in stability)]
    gr.on(changes, on_estimate, estimate_inputs, estimate_outputs, api_name="train_estimate", **QUIET)
    probe_kind.input(on_view_kind, [probe_kind, lang], views, **QUIET, **PRIVATE)
    score.input(on_view_score, [score, lang], views, **QUIET, **PRIVATE)

    def wire() -> None:
        """The events that update every model picker, declared once all pickers exist."""
        outputs = [*views, *(dropdown for dropdown, _ in ctx.pickers)]
        runs = []
        for button, check, handler, inputs, api_name in (
                (start_button, on_check_form, on_start, spec_inputs, "train_start"),
                (step_button, on_check_form, on_step, spec_inputs, "train_step"),
                (resume_button, on_check_resume, on_resume, [lang], "train_resume")):
            runs.append(button.click(check, inputs, [status], **QUIET, **PRIVATE).success(
                handler, inputs, outputs, api_name=api_name, **training(curves)))
        control = dict(cancels=runs, concurrency_id="train-control", concurrency_limit=None, show_progress="hidden")
        stop_button.click(on_stop, [lang], outputs, api_name="train_stop", **control)
        reset_button.click(on_reset, [lang], outputs, api_name="train_reset", **control)

    ctx.after_tabs(wire)
