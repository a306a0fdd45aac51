"""The Labs tab's handlers: (workspace, form, language) -> updates by component name.

`draw` is the whole tab for the lab in the form (its card, status, curves, attention, summary and
the kept results); `select_view` redraws the curves and the attention for the picks; `run` trains
the lab's variants side by side, streaming the curves, and ends with every view of the result.
The kept results ticked for comparison are the session's (LabSession.ticked), not the form's, so
`compare` takes them as they come from the page.
"""
from __future__ import annotations

from contextlib import closing
from typing import Iterator

import gradio as gr

from playground.labs import Lab, LabResult

from ...page.refusals import refusal_figures, refusal_reason
from ...inputs.validation import check_choice, fail
from ...session.workspace import Workspace
from ...text.i18n import text
from .form import LabsForm
from .session import LabSession, check_kept, check_lab
from .views import (
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

VIEWS = ("lab", "card", "status", "metric", "curves", "variant", "kind", "stage", "reference", "compared", "summary",
         "kept", "compare")                     # the outputs of a run, in order
VIEW_PICKS = ("metric", "variant", "kind", "stage")
FIGURES = ("curves", "reference", "compared")         # also what a pick redraws
CHOICE_COMPONENTS = {"lab": gr.Dropdown, "metric": gr.Radio, "variant": gr.Dropdown, "kind": gr.Radio,
                     "stage": gr.Radio, "kept": gr.CheckboxGroup}
COMPARED_BY_DEFAULT = 2                         # the newest kept results ticked when a run ends


def session_of(workspace: Workspace) -> LabSession:
    """The session's labs (created on first use)."""
    with workspace.lock:
        if workspace.labs is None:
            workspace.labs = LabSession()
        return workspace.labs


class Choices:
    """What the user has picked among a lab's views; a value that does not fit the lab falls back
    to the lab's own (a language change or a new lab redraws with the picks that still fit)."""

    def __init__(self, lab: Lab, lang: str, metric=None, variant=None, kind=None, stage=None):
        self.metrics = metric_choices(lab, lang)
        self.variants = variant_choices(lab, lang)
        self.kinds = kind_choices(lab, lang)
        self.stages = stage_choices(lang)
        self.metric = _pick(metric, self.metrics)
        self.variant = _pick(variant, self.variants)
        self.kind = _pick(kind, self.kinds)
        self.stage = _pick(stage, self.stages)

    @classmethod
    def of(cls, lab: Lab, form: LabsForm, lang: str) -> "Choices":
        return cls(lab, lang, form.metric, form.variant, form.kind, form.stage)


def _pick(value, choices: list[tuple[str, str]]):
    values = [v for _, v in choices]
    return value if value in values else (values[0] if values else None)


def choice(name: str, choices: list, value) -> gr.components.Component:
    """The update of a choice control: its choices (in the session's language) and its value."""
    return CHOICE_COMPONENTS[name](choices=choices, value=value)


def pick_controls(lab: Lab, choices: Choices, lang: str) -> dict:
    """The lab picker and the view picks, with the choices the lab offers."""
    return {"lab": choice("lab", lab_choices(lang), lab.id),
            "metric": choice("metric", choices.metrics, choices.metric),
            "variant": choice("variant", choices.variants, choices.variant),
            "kind": choice("kind", choices.kinds, choices.kind),
            "stage": choice("stage", choices.stages, choices.stage)}


def lab_views(session: LabSession, lab: Lab, choices: Choices, lang: str) -> dict:
    """Every view of ``lab``: its card and status, the curves of its run (or of its latest kept
    result), the attention of the reference and the chosen variant, the summary and the kept results."""
    result = session.latest(lab.id)
    return {**pick_controls(lab, choices, lang),
            "card": card_text(lab, lang),
            "status": status_text(session, lab, lang),
            "curves": curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang),
            "summary": summary_text(result, lab, lang),
            **kept_views(session, lang),
            **attention_views(result, choices, lang)}


def attention_views(result: LabResult | None, choices: Choices, lang: str) -> dict:
    """The reference and the chosen variant on the lab's probe input (before a result: what will appear)."""
    reference, variant = (None, None) if result is None else (result.reference, result.variant(choices.variant))
    return {"reference": attention_figure(reference, choices.kind, choices.stage, lang),
            "compared": attention_figure(variant, choices.kind, choices.stage, lang)}


def kept_views(session: LabSession, lang: str) -> dict:
    """The kept results as checkboxes (the session's ticks that are still kept) and the ticked ones compared."""
    session.ticked = [number for number in session.ticked if number in session.kept]
    return {"kept": choice("kept", kept_choices(session, lang), session.ticked),
            "compare": compare_figure([session.kept[number] for number in session.ticked], lang)}


def controls(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """The lab picker and the view picks fitted to the form's lab (when a link opens)."""
    lab = check_lab(form.lab, lang)
    return pick_controls(lab, Choices.of(lab, form, lang), lang)


def draw(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """Every view of the form's lab, keeping the picks where they fit it."""
    lab = check_lab(form.lab, lang)
    return lab_views(session_of(workspace), lab, Choices.of(lab, form, lang), lang)


def change_lab(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """A newly picked lab, shown with its own first views (the picks of the lab before do not carry over)."""
    lab = check_lab(form.lab, lang)
    return lab_views(session_of(workspace), lab, Choices(lab, lang, stage=form.stage), lang)


def select_view(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """Redraw the curves and the attention after a pick; a pick the lab does not offer is refused."""
    lab = check_lab(form.lab, lang)
    session = session_of(workspace)
    choices = Choices.of(lab, form, lang)
    check_choice(form.metric, [v for _, v in choices.metrics], lang, "lab_metric")
    check_choice(form.variant, [v for _, v in choices.variants], lang, "lab_variant")
    check_choice(form.stage, STAGES, lang, "lab_stage")
    check_choice(form.kind, [v for _, v in choices.kinds], lang, "lab_kind")
    curves = curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang)
    return {"curves": curves, **attention_views(session.latest(lab.id), choices, lang)}


def refused(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """What the figures show when a pick was refused: why, instead of the views of earlier picks."""
    return refusal_figures(FIGURES, refusal_reason(select_view, workspace, form, lang), lang)


def check_can_run(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """Refuse, before anything is queued, an unknown lab or a second lab while this session's runs."""
    check_lab(form.lab, lang)
    session = workspace.labs
    if session is not None and session.running:
        raise fail(lang, "err_lab_running")
    return {"status": text(lang, "lab_status_queued")}


def run(workspace: Workspace, form: LabsForm, lang: str) -> Iterator[dict]:
    """Train the lab's variants side by side: the status and curves after every round, then every
    view of the result, the new result ticked among the kept ones beside the one before it."""
    lab = check_lab(form.lab, lang)
    session = session_of(workspace)
    choices = Choices.of(lab, form, lang)
    picker = choice("lab", lab_choices(lang), lab.id)
    yield {"lab": picker, "card": card_text(lab, lang), "status": text(lang, "lab_status_building")}
    with closing(session.launch(lab, lang)) as batches:     # closing it stops the lab after its round
        for batch in batches:
            if not any(isinstance(item, LabResult) for item in batch):
                yield {"lab": picker, "status": status_text(session, lab, lang),
                       "curves": curves_figure(session.histories(lab.id, lang), lab, choices.metric, lang)}
    if session.latest(lab.id) is not None:
        session.ticked = list(session.kept)[-COMPARED_BY_DEFAULT:]
        yield lab_views(session, lab, choices, lang)


def stop(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """End the session's lab after its current round, and say where it stopped once it has (the running
    event shows "Stopping" meanwhile, then the result). Said only then: a "Stopping" sent at once could
    reach the page after the run's last update on a busy server, and stay there for good."""
    lab = check_lab(form.lab, lang)
    session = workspace.labs
    if session is None or not session.running:
        return {}
    session.stop_and_wait()
    return {"status": status_text(session, lab, lang)}


def forget(workspace: Workspace, form: LabsForm, lang: str) -> dict:
    """Drop the session's kept results."""
    lab = check_lab(form.lab, lang)
    session = session_of(workspace)
    session.forget()
    return {**kept_views(session, lang), "status": status_text(session, lab, lang),
            "summary": summary_text(None, lab, lang), **attention_views(None, Choices.of(lab, form, lang), lang)}


def compare(workspace: Workspace, selected, lang: str) -> dict:
    """The kept results ticked (run numbers, as the page's checkboxes send them) compared in one
    figure; the ticks are kept as the session's."""
    session = session_of(workspace)
    results = check_kept(selected, session, lang)
    session.ticked = list(dict.fromkeys(selected))
    return {"compare": compare_figure(results, lang)}
