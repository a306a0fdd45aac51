"""Labs tab: pick a lab (a classic bug or an ablation), read its question, press Run and watch the
reference and the variants train side by side on the same seed and data; then compare their
attention on the same input, read what the run showed, and compare kept results across labs.

The handlers are plain functions of a Workspace. They return or yield views: dicts from an output
name (VIEWS) to its new value, holding only what changed.
"""
from __future__ import annotations

from contextlib import closing
from typing import Iterator

import gradio as gr

from playground.labs import Lab, LabResult, list_labs

from ..context import PRIVATE, QUIET, AppContext, training
from ..i18n import label, text
from ..labs import LabSession, check_kept, check_lab
from ..labs_views import (
    STAGES,
    attention_figure,
    card_text,
    compare_figure,
    curves_figure,
    kept_choices,
    kind_choices,
    lab_choices,
    metric_choices,
    stage_choices,
    status_text,
    summary_text,
    variant_choices,
)
from ..runtime import guarded, guarded_training
from ..validation import check_choice, fail
from ..workspace import Workspace

VIEWS = ("lab", "card", "status", "metric", "curves", "variant", "kind", "stage", "reference", "compared", "summary",
         "kept", "compare")                     # output order
CHOICE_VIEWS = {"lab", "metric", "variant", "kind", "stage"}
COMPARED_BY_DEFAULT = 2                         # the newest kept results ticked when a run ends
BUTTON_WIDTH = 110


def session_of(workspace: Workspace) -> LabSession:
    """The session's labs (created on first use)."""
    with workspace.lock:
        if workspace.labs is None:
            workspace.labs = LabSession()
        return workspace.labs


class Choices:
    """What the user has picked among a lab's views; any value that does not fit the lab falls back
    to the lab's default (a language change or a new result redraws with the current picks)."""

    def __init__(self, lab: Lab, result: LabResult | None, lang: str, metric=None, variant=None, kind=None,
                 stage=None):
        self.metrics = metric_choices(lab, lang)
        self.variants = variant_choices(lab, lang)
        self.kinds = kind_choices(result, lang)
        self.stages = stage_choices(lang)
        self.metric = _pick(metric, self.metrics)
        self.variant = _pick(variant, self.variants)
        self.kind = _pick(kind, self.kinds)
        self.stage = _pick(stage, self.stages)


def _pick(value, choices: list[tuple[str, str]]):
    values = [v for _, v in choices]
    return value if value in values else (values[0] if values else None)


def lab_views(session: LabSession, lab: Lab, choices: Choices, selected: list[int], lang: str) -> dict:
    """Every view of ``lab``: its card and status, the curves of its run (or of its latest kept
    result), the attention of the reference and the chosen variant, the summary and the kept results."""
    result = session.latest(lab.id)
    views = {
        "lab": (lab_choices(lang), lab.id),
        "card": card_text(lab, lang),
        "status": status_text(session, lab, lang),
        "metric": (choices.metrics, choices.metric),
        "curves": curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang),
        "variant": (choices.variants, choices.variant),
        "kind": (choices.kinds, choices.kind),
        "stage": (choices.stages, choices.stage),
        "summary": summary_text(result, lab, lang),
        **kept_views(session, selected, lang),
    }
    views.update(attention_views(result, choices, lang))
    return views


def attention_views(result: LabResult | None, choices: Choices, lang: str) -> dict:
    """The reference and the chosen variant on the lab's probe input (before a result: what will appear)."""
    reference, variant = (None, None) if result is None else (result.reference, result.variant(choices.variant))
    return {"reference": attention_figure(reference, choices.kind, choices.stage, lang),
            "compared": attention_figure(variant, choices.kind, choices.stage, lang)}


def kept_views(session: LabSession, selected: list[int], lang: str) -> dict:
    """The kept results as checkboxes (those still kept stay ticked) and the chosen ones compared."""
    ticked = [number for number in selected if number in session.kept]
    return {"kept": (kept_choices(session, lang), ticked),
            "compare": compare_figure([session.kept[number] for number in ticked], lang)}


def show(workspace: Workspace, lab_id, metric, variant, kind, stage, selected, lang: str) -> dict:
    """Every view of the lab, keeping the user's picks where they fit it."""
    lab = check_lab(lab_id, lang)
    session = session_of(workspace)
    choices = Choices(lab, session.latest(lab.id), lang, metric, variant, kind, stage)
    return lab_views(session, lab, choices, _numbers(selected), lang)


def select_view(workspace: Workspace, lab_id, metric, variant, kind, stage, lang: str) -> dict:
    """Redraw the curves and the attention after a pick; a pick the lab does not offer is refused."""
    lab = check_lab(lab_id, lang)
    session = session_of(workspace)
    result = session.latest(lab.id)
    choices = Choices(lab, result, lang, metric, variant, kind, stage)
    check_choice(metric, [v for _, v in choices.metrics], lang, "lab_metric")
    check_choice(variant, [v for _, v in choices.variants], lang, "lab_variant")
    check_choice(stage, STAGES, lang, "lab_stage")
    if result is not None:
        check_choice(kind, [v for _, v in choices.kinds], lang, "lab_kind")
    curves = curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang)
    return {"curves": curves, **attention_views(result, choices, lang)}


def check_can_run(workspace: Workspace, lab_id, lang: str) -> str:
    """Refuse, before anything is queued, an unknown lab or a second lab while this session's runs."""
    check_lab(lab_id, lang)
    session = workspace.labs
    if session is not None and session.running:
        raise fail(lang, "err_lab_running")
    return text(lang, "lab_status_queued")


def run(workspace: Workspace, lab_id, metric, variant, kind, stage, lang: str) -> Iterator[dict]:
    """Train the lab's variants side by side: the status and curves after every round, then every
    view of the result, the new result ticked among the kept ones beside the one before it."""
    lab = check_lab(lab_id, lang)
    session = session_of(workspace)
    choices = Choices(lab, None, lang, metric, variant, kind, stage)
    picker = (lab_choices(lang), lab.id)
    yield {"lab": picker, "card": card_text(lab, lang), "status": text(lang, "lab_status_building")}
    with closing(session.launch(lab, lang)) as batches:     # closing it stops the lab after its round
        for batch in batches:
            if not any(isinstance(item, LabResult) for item in batch):
                yield {"lab": picker, "status": status_text(session, lab, lang),
                       "curves": curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang)}
    result = session.latest(lab.id)
    if result is not None:
        choices = Choices(lab, result, lang, choices.metric, choices.variant, kind, choices.stage)
        yield lab_views(session, lab, choices, list(session.kept)[-COMPARED_BY_DEFAULT:], lang)


def stop(workspace: Workspace, lab_id, lang: str) -> dict:
    """Ask the session's lab to end after its current round (the running event then shows the result)."""
    lab = check_lab(lab_id, lang)
    session = workspace.labs
    if session is None or not session.running:
        return {}
    session.stop()
    return {"status": status_text(session, lab, lang)}


def forget(workspace: Workspace, lab_id, lang: str) -> dict:
    """Drop the session's kept results."""
    lab = check_lab(lab_id, lang)
    session = session_of(workspace)
    session.forget()
    choices = Choices(lab, None, lang)
    return {**kept_views(session, [], lang), "status": status_text(session, lab, lang),
            "summary": summary_text(None, lab, lang), **attention_views(None, choices, lang)}


def compare(workspace: Workspace, selected, lang: str) -> dict:
    """The chosen kept results compared in one figure."""
    session = session_of(workspace)
    return {"compare": compare_figure(check_kept(selected, session, lang), lang)}


def _numbers(selected) -> list[int]:
    return [value for value in selected if isinstance(value, int)] if isinstance(selected, (list, tuple)) else []


def build(ctx: AppContext) -> None:
    """Declare the tab's components (inside a gr.Tab) and its events."""
    lang = ctx.language
    first = list_labs()[0]
    first_choices = Choices(first, None, "en")
    with gr.Row():
        with gr.Column(scale=2, min_width=380):
            lab = gr.Dropdown(lab_choices("en"), value=first.id, label=label("lbl_lab"), elem_id="labs-picker")
            with gr.Row(elem_id="labs-buttons"):
                run_button = gr.Button(label("btn_lab_run"), variant="primary", min_width=BUTTON_WIDTH,
                                       elem_id="labs-run")
                stop_button = gr.Button(label("btn_stop"), variant="stop", min_width=BUTTON_WIDTH, elem_id="labs-stop")
            card = gr.Markdown(card_text(first, "en"), elem_id="labs-card", elem_classes="explanation")
        with gr.Column(scale=3):
            status = gr.Markdown(status_text(LabSession(), first, "en"), elem_id="labs-status")
            metric = gr.Radio(first_choices.metrics, value=first_choices.metric, label=label("lbl_lab_metric"),
                              elem_id="labs-metric")
            curves = gr.Plot(show_label=False, elem_id="labs-curves")
    with gr.Row():
        variant = gr.Dropdown(first_choices.variants, value=first_choices.variant, label=label("lbl_lab_variant"),
                              elem_id="labs-variant")
        kind = gr.Radio([], label=label("lbl_lab_kind"), elem_id="labs-kind")
        stage = gr.Radio(first_choices.stages, value=first_choices.stage, label=label("lbl_lab_stage"),
                         elem_id="labs-stage")
    with gr.Row():
        reference = gr.Plot(show_label=False, elem_id="labs-attention-reference")
        compared = gr.Plot(show_label=False, elem_id="labs-attention-variant")
    summary = gr.Markdown(summary_text(None, first, "en"), elem_id="labs-summary", elem_classes="explanation")
    with gr.Row(equal_height=True):
        kept = gr.CheckboxGroup([], value=[], label=label("lbl_lab_kept"), elem_id="labs-kept", scale=4)
        forget_button = gr.Button(label("btn_lab_forget"), size="sm", elem_id="labs-forget", scale=1,
                                  min_width=BUTTON_WIDTH)
    compare_plot = gr.Plot(show_label=False, elem_id="labs-compare")
    gr.Markdown(label("labs_explanation"), elem_id="labs-explanation", elem_classes="explanation")

    components = {"lab": lab, "card": card, "status": status, "metric": metric, "curves": curves, "variant": variant,
                  "kind": kind, "stage": stage, "reference": reference, "compared": compared, "summary": summary,
                  "kept": kept, "compare": compare_plot}
    outputs = [components[name] for name in VIEWS]
    picks = [lab, metric, variant, kind, stage]

    def shown(views: dict) -> tuple:
        """The views as one value per output (gr.skip() for what did not change)."""
        values = []
        for name in VIEWS:
            if name not in views:
                values.append(gr.skip())
            elif name in CHOICE_VIEWS or name == "kept":
                choices, value = views[name]
                values.append(type(components[name])(choices=choices, value=value))
            else:
                values.append(views[name])
        return tuple(values)

    @guarded
    def on_show(lab_id, metric_value, variant_value, kind_value, stage_value, selected, lang, request: gr.Request):
        return shown(show(ctx.workspace(request), lab_id, metric_value, variant_value, kind_value, stage_value,
                          selected, lang))

    @guarded
    def on_lab(lab_id, selected, lang, request: gr.Request):
        return shown(show(ctx.workspace(request), lab_id, None, None, None, None, selected, lang))

    @guarded
    def on_pick(lab_id, metric_value, variant_value, kind_value, stage_value, lang, request: gr.Request):
        return shown(select_view(ctx.workspace(request), lab_id, metric_value, variant_value, kind_value,
                                 stage_value, lang))

    @guarded
    def on_check_run(lab_id, lang, request: gr.Request):
        return check_can_run(ctx.workspace(request), lab_id, lang)

    @guarded_training
    def on_run(lab_id, metric_value, variant_value, kind_value, stage_value, lang, request: gr.Request):
        with closing(run(ctx.workspace(request), lab_id, metric_value, variant_value, kind_value, stage_value,
                         lang)) as stream:
            for views in stream:
                yield shown(views)

    @guarded
    def on_stop(lab_id, lang, request: gr.Request):
        return shown(stop(ctx.workspace(request), lab_id, lang))

    @guarded
    def on_forget(lab_id, lang, request: gr.Request):
        return shown(forget(ctx.workspace(request), lab_id, lang))

    @guarded
    def on_compare(selected, lang, request: gr.Request):
        return shown(compare(ctx.workspace(request), selected, lang))

    ctx.on_open(on_show, [*picks, kept, lang], outputs, status)
    lab.input(on_lab, [lab, kept, lang], outputs, **QUIET, **PRIVATE)
    gr.on([metric.input, variant.input, kind.input, stage.input], on_pick, [*picks, lang], outputs,
          api_name="labs_view", **QUIET)
    run_button.click(on_check_run, [lab, lang], [status], **QUIET, **PRIVATE).success(
        on_run, [*picks, lang], outputs, api_name="labs_run", **training(curves))
    stop_button.click(on_stop, [lab, lang], outputs, api_name="labs_stop", concurrency_id="labs-control",
                      concurrency_limit=None, show_progress="hidden")
    forget_button.click(on_forget, [lab, lang], outputs, api_name="labs_forget", **QUIET)
    kept.input(on_compare, [kept, lang], outputs, api_name="labs_compare", **QUIET)
