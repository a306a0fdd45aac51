"""Lessons tab: the course, one screen per lesson: the explanation with its math, live figures built
by the tabs' own view functions, what to look for, an experiment predicted before it runs, a check
question with feedback on every answer, and a link to the tab view that explores further.

layout.py declares the components, form.py the open lesson (and its link), handlers.py what each
event does, views.py the live views by the keys the syllabus names."""
from __future__ import annotations

from functools import partial
from urllib.parse import parse_qsl

import gradio as gr

from ...page.context import CHECK, PRIVATE, QUIET, training
from ...page.runtime import guarded
from ...page.wiring import TabWiring, file_name
from . import handlers
from .form import LessonsForm
from .layout import layout

__all__ = ["LessonsForm", "build"]


def export_name(form: LessonsForm, figure: str) -> str:
    """"lessons-figure_0-attention": view, figure and lesson."""
    return file_name(form.VIEW, figure, form.lesson)


def _query(address) -> dict:
    """The parameters of the query the page was opened with (ctx.address)."""
    return dict(parse_qsl((address or "").lstrip("?")))


def resume(progress, address: str):
    """The lesson the browser was on, unless the page's link names one."""
    return handlers.resumed_lesson(progress, _query(address))


def lesson_on_screen(opened: bool, address: str) -> None:
    """Let the resumed lesson be drawn only where the page opened on the Lessons tab and its link
    names no lesson; elsewhere the tab's first opening draws the lesson the picker holds, so a link
    to another tab does not wait behind a lesson's figures. A silent error stops the drawing."""
    if not opened or "lesson" in _query(address):
        raise gr.Error("not on screen", visible=False, print_exception=False)


def build(ctx) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout()
    tab = TabWiring(ctx, LessonsForm, c, export_name=export_name)
    lesson, progress, lang = c["lesson"], c["progress"], ctx.language
    answers = [c["prediction"], c["answer"], c["run"], c["run_live"], c["feedback"]]

    def opened(trigger):
        """After a lesson opens (`trigger`, e.g. its drawing's .then): its kept answers back on
        screen (a pick made since it opened stays), and the place and the answers on screen remembered."""
        trigger(handlers.restored, [lesson, progress, lang, c["prediction"], c["answer"]], answers, **QUIET,
                **PRIVATE).then(
            lambda lesson_id, kept, prediction, answer: handlers.remember(kept, lesson_id, prediction, answer),
            [lesson, progress, c["prediction"], c["answer"]], [progress], **QUIET, **PRIVATE)

    # A lesson's live run: checked first (a second run of the session is refused, never queued), then
    # queued for one of the app's training slots with its place shown; Stop ends it between two steps;
    # opening another lesson cancels it.
    checked = tab.on(c["run_live"].click, handlers.check_live, handlers.LIVE_OUTCOME, link=False, **CHECK)
    running = tab.on(checked.success, handlers.run_live, handlers.LIVE_OUTCOME, link=False, stream=True,
                     trains=True, api_name="lesson_run", **training(c["live_status"]))
    running.then(handlers.prediction_verdict, [lesson, c["prediction"], lang], [c["verdict"]], **QUIET, **PRIVATE)
    tab.on(c["stop"].click, handlers.stop_live, ["live_status"], link=False, api_name="lesson_stop",
           concurrency_id="lessons-control", concurrency_limit=None, show_progress="hidden")
    leave = dict(cancels=[running])

    @guarded
    def offer_model(lesson_id: str, request: gr.Request) -> list:
        """The model a live training published, offered and selected by every model picker."""
        workspace = ctx.workspace(request)
        entry = handlers.published(workspace, lesson_id)
        if entry is None:
            return [gr.Dropdown() for _ in ctx.pickers]
        return ctx.picker_updates(workspace, entry)

    ctx.after_tabs(lambda: running.success(offer_model, [lesson], [dropdown for dropdown, _ in ctx.pickers],
                                           **QUIET, **PRIVATE))

    tab.on_open(handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True)
    opened(tab.on(lesson.input, handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True,
                  api_name="lesson", **leave).then)
    for button, step in ((c["previous"], -1), (c["next"], 1)):
        moved = button.click(partial(handlers.neighbour, step=step), [lesson], [lesson], **QUIET, **PRIVATE, **leave)
        opened(tab.on(moved.then, handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True).then)
    c["prediction"].input(lambda lesson_id, picked, language: tuple(
        handlers.run_buttons(lesson_id, picked, language).values()), [lesson, c["prediction"], lang],
        [c["run"], c["run_live"]], **QUIET, **PRIVATE).then(
        lambda kept, lesson_id, prediction, answer: handlers.remember(kept, lesson_id, prediction, answer),
        [progress, lesson, c["prediction"], c["answer"]], [progress], **QUIET, **PRIVATE)
    ran = tab.on(c["run"].click, handlers.run_experiment, handlers.OUTCOME, link=False, shared=True)
    ran.then(handlers.prediction_verdict, [lesson, c["prediction"], lang], [c["verdict"]], **QUIET, **PRIVATE)
    c["answer"].input(handlers.check_feedback, [lesson, c["answer"], lang], [c["feedback"]], **QUIET,
                      **PRIVATE).then(
        lambda kept, lesson_id, prediction, answer: handlers.remember(kept, lesson_id, prediction, answer),
        [progress, lesson, c["prediction"], c["answer"]], [progress], **QUIET, **PRIVATE)
    # The page's load resumes the lesson the browser was on; it is drawn only where the Lessons tab
    # is on screen (and then the address names it), and its answers restored.
    def resumed():
        shown = ctx.started.then(resume, [progress, ctx.address], [lesson], **QUIET, **PRIVATE).then(
            lesson_on_screen, [tab.opened, ctx.address], None, **CHECK, **PRIVATE)
        opened(tab.on(shown.success, handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True).then)
        opened(shown.failure)

    ctx.after_tabs(resumed)
