"""The Lessons tab's live experiments: a training of one of the Train tab's presets, stopped when it
reaches the lesson's goal, or a lab of the Labs tab, run in the learner's session and streamed as
progress. They go through the tabs' own machinery: the session's TrainingSession (the Train tab's
start and stop, so its model joins the session's models and the Train tab shows the run) and the
session's LabSession (so the Labs tab keeps the result to compare).

Each run yields Progress: the outcome figures (None where a figure has not changed since the last
Progress), a status line and, once it has ended, done=True with what the run showed (findings, filled
in from the run), the claims those sentences make and the outcome that decides the learner's prediction
(see run_findings).
"""
from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass, replace
from functools import partial
from typing import Callable, Iterator

import plotly.graph_objects as go

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.claims import Claim
from playground.labs import LabResult, summarize

from ...session.training import DATA_BLOCK_SIZES, LESSON_PREFIX, TrainingSession
from ...session.workspace import Workspace
from ...text.i18n import text
from ...text.markup import literal
from ...views.training import (
    DIAGONAL_KEY,
    INDUCTION_KEY,
    PREVIOUS_KEY,
    curves_figure,
    probe_figure,
    sample_text,
    scores_figure,
)
from ..labs import handlers as lab_handlers
from ..labs import views as lab_views
from ..labs.form import LabsForm
from ..labs.session import check_lab
from ..train import handlers as train_handlers
from ..train.form import TrainForm
from .run_findings import copy_findings, induction_findings, lab_findings, rhyme_findings

COPY_GOAL = 0.99          # held-out exact match of the copy task
RHYME_GOAL = 0.3          # training loss on the seed rhyme: it has memorised it
UPDATE_EVERY_S = 1.0      # a run's progress goes to the page at most this often (the curves are large figures)
ENDINGS = {"stopped": "lesson_live_stopped", "paused": "lesson_live_missed"}     # else finished (or diverged)


FIGURES = {"curves": curves_figure, "probe": probe_figure, "scores": scores_figure}    # the Train tab's views


@dataclass(frozen=True)
class Progress:
    figures: list[go.Figure | None]
    status: str
    done: bool = False
    findings: str = ""                       # what the run showed (markdown), once it is done
    claims: tuple[Claim, ...] = ()           # what those sentences claim, against the run's figures
    outcome: str = ""                        # what the run showed, as a prediction's Choice.outcome ("" undecided)


def _latest_scores(session: TrainingSession) -> dict:
    return session.score_history[-1][1] if session.score_history else {}


def copy_goal(session: TrainingSession) -> int | None:
    """The first step whose held-out exact match reached COPY_GOAL."""
    return next((e.step for e in session.trainer.history
                 if e.evaluated and e.exact_match is not None and e.exact_match >= COPY_GOAL), None)


def rhyme_goal(session: TrainingSession) -> int | None:
    """The first step whose training loss fell to RHYME_GOAL."""
    return next((e.step for e in session.trainer.history if e.loss <= RHYME_GOAL), None)


def induction_goal(session: TrainingSession) -> int | None:
    """The first snapshot after step 0 where a head after layer 0 has an induction score at
    INDUCTION_THRESHOLD (random weights do not count)."""
    return next((step for step, scores in session.score_history if step > 0 and INDUCTION_KEY in scores
                 and scores[INDUCTION_KEY][1:].max() >= INDUCTION_THRESHOLD), None)


def copy_signal(session: TrainingSession, lang: str) -> str:
    evaluated = next((e for e in reversed(session.trainer.history) if e.evaluated), None)
    exact = "–" if evaluated is None or evaluated.exact_match is None else f"{evaluated.exact_match:.0%}"
    scores = _latest_scores(session)
    diagonal = "–" if DIAGONAL_KEY not in scores else f"{scores[DIAGONAL_KEY].max():.2f}"
    return text(lang, "lesson_live_copy", exact=exact, goal=f"{COPY_GOAL:.0%}", diagonal=diagonal)


def rhyme_signal(session: TrainingSession, lang: str) -> str:
    return text(lang, "lesson_live_rhyme", goal=RHYME_GOAL) + "\n\n" + sample_text(session, lang)


def induction_signal(session: TrainingSession, lang: str) -> str:
    scores = _latest_scores(session)
    if INDUCTION_KEY not in scores:
        return text(lang, "lesson_live_induction_wait")
    return text(lang, "lesson_live_induction", previous=scores[PREVIOUS_KEY][0].max(),
                induction=scores[INDUCTION_KEY][1:].max(), threshold=INDUCTION_THRESHOLD)


@dataclass(frozen=True)
class LiveTraining:
    """A Train tab preset (its form), the goal that ends it (the step reached, else None), the lesson's
    own signal (a line of text), the Train tab's views it shows (keys of FIGURES) and what a finished
    run showed: (session, goal step or None, lang) -> (markdown, claims, outcome)."""

    form: TrainForm
    goal: Callable[[TrainingSession], int | None]
    signal: Callable[[TrainingSession, str], str]
    figures: tuple[str, ...]
    findings: Callable[[TrainingSession, int | None, str], tuple[str, list[Claim], str]]


@dataclass(frozen=True)
class LiveLab:
    """A lab of the Labs tab, shown by its curves and the end attention of the reference and a variant."""

    lab: str
    variant: str


LIVE = {
    "copy": LiveTraining(TrainForm(task="copy").fit(None, {"task"})[0], copy_goal, copy_signal,
                         ("curves", "probe", "scores"), copy_findings),
    "rhyme": LiveTraining(replace(TrainForm(task="char-lm", data="rhyme").fit(None, {"task", "data"})[0],
                                  block_size=DATA_BLOCK_SIZES["rhyme"]), rhyme_goal, rhyme_signal, ("curves",),
                          rhyme_findings),
    "induction": LiveTraining(TrainForm(task="induction").fit(None, {"task"})[0], induction_goal, induction_signal,
                              ("scores", "curves", "probe"), induction_findings),
    "float-mask": LiveLab("float-mask", "float_mask"),
}


def check(workspace: Workspace, key: str, lang: str) -> str:
    """Refuse, before it is queued, a run this session cannot start now (a training or a lab of its own
    still going; a model too large); else the message shown while it waits for a training slot."""
    live = LIVE[key]
    if isinstance(live, LiveLab):
        lab_handlers.check_can_run(workspace, LabsForm(lab=live.lab), lang)
    else:
        train_handlers.on_queued(workspace, live.form, lang)
    return text(lang, "lesson_live_queued")


def run(workspace: Workspace, key: str, lang: str) -> Iterator[Progress]:
    """The live experiment `key`, as it goes."""
    live = LIVE[key]
    return run_lab(workspace, live, lang) if isinstance(live, LiveLab) else run_training(workspace, live, lang)


def stop(workspace: Workspace, key: str) -> None:
    """Ask the session's run of `key` to end (the streaming run then shows where it stopped)."""
    session = workspace.labs if isinstance(LIVE[key], LiveLab) else workspace.training
    if session is not None and session.running:
        session.stop_and_wait()


def published(workspace: Workspace, key: str):
    """The model the session's training of `key` published (None for a lab, or before any)."""
    session = workspace.training
    return None if isinstance(LIVE[key], LiveLab) or session is None else session.entry


def _training_progress(session: TrainingSession, live: LiveTraining, lang: str, changed: set[str],
                       ending: str = "", reached: int | None = None) -> Progress:
    """The run as it stands: the figures whose views `changed`, the step, the loss and the lesson's signal;
    once it has ended (`ending`), what it showed."""
    t = partial(text, lang)
    event = session.last_event
    if event is None:
        head = t("train_status_building")
    else:
        head = t("lesson_live_step", step=event.step, steps=session.trainer.config.max_steps, elapsed=event.elapsed,
                 loss=event.loss)
    figures = [FIGURES[key](session, lang) if key in changed else None for key in live.figures]
    status = "\n\n".join(filter(None, (ending, head, live.signal(session, lang))))
    if not ending:
        return Progress(figures, status)
    findings, claims, outcome = live.findings(session, reached, lang)
    return Progress(figures, status, done=True, findings=findings, claims=tuple(claims), outcome=outcome)


def run_training(workspace: Workspace, live: LiveTraining, lang: str) -> Iterator[Progress]:
    """Train the preset from random weights with the Train tab's start, stopped at the goal (and at the
    preset's steps and the Train tab's time cap per run)."""
    t = partial(text, lang)
    reached = session = None
    before = getattr(workspace.training, "trainer", None)       # a training of the session's before this one
    changed, sent_at = set(), 0.0
    # Its model is lesson-TASK: one trained in the Train tab (trained-TASK) stays beside it.
    with closing(train_handlers.start(workspace, live.form.spec(lang), "", lang, LESSON_PREFIX)) as views:
        for shown in views:
            session = workspace.training
            if session.trainer is None or session.trainer is before:
                yield Progress([], t("train_status_building"))
                continue
            reached = live.goal(session)
            if reached is not None:
                break
            changed |= set(shown)
            if time.monotonic() - sent_at >= UPDATE_EVERY_S:
                yield _training_progress(session, live, lang, changed)
                changed, sent_at = set(), time.monotonic()
    if reached is not None:
        train_handlers.stop(workspace, lang)          # ends the run at the goal; its model joins the session
        ending = t("lesson_live_reached", step=reached, seconds=session.trainer.elapsed, stopped=session.trainer.step,
                   name=literal(session.model_name))
    elif session is None or session.trainer is None or session.trainer is before:
        return
    else:
        ending = t(ENDINGS.get(session.state, "lesson_live_finished"), step=session.trainer.step)
    yield _training_progress(session, live, lang, set(FIGURES), ending, reached)


def run_lab(workspace: Workspace, live: LiveLab, lang: str) -> Iterator[Progress]:
    """Run the lab with the Labs tab's session: its status and curves as it goes, then the reference's
    and the variant's attention at the end and what the run measured."""
    lab = check_lab(live.lab, lang)
    session = lab_handlers.session_of(workspace)
    yield Progress([], text(lang, "lab_status_building"))
    result, sent_at = None, 0.0
    with closing(session.launch(lab, lang)) as batches:     # closing it stops the lab after its round
        for batch in batches:
            result = next((item for item in batch if isinstance(item, LabResult)), result)
            if result is None and time.monotonic() - sent_at >= UPDATE_EVERY_S:
                curves = lab_views.curves_figure(session.histories(lab.id, lang), lab, "losses", lang)
                yield Progress([curves], lab_views.status_text(session, lab, lang))
                sent_at = time.monotonic()
    if result is None:
        return
    curves = lab_views.curves_figure(result.runs(lang), lab, "losses", lang)
    kind = lab_views.kind_choices(lab, lang)[0][1]
    attention = [lab_views.attention_figure(variant, kind, "end", lang)
                 for variant in (result.reference, result.variant(live.variant))]
    status = "\n\n".join([lab_views.status_text(session, lab, lang), summarize(result, lang)])
    findings, claims, outcome = lab_findings(result, live.variant, lang)
    yield Progress([curves, *attention], status, done=True, findings=findings, claims=tuple(claims), outcome=outcome)
