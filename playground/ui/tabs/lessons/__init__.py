"""Lessons tab: the course, one screen per lesson: the explanation with its math, live figures built
by the tabs' own view functions, what to look for, an experiment predicted before it runs, a check
question with feedback on every answer, and a link to the tab view that explores further.

layout.py declares the components, form.py the open lesson (and its link), handlers.py what each
event does, views.py the live views by the keys the syllabus names."""
from __future__ import annotations

from functools import partial

import gradio as gr

from ...context import PRIVATE, QUIET
from ...wiring import TabWiring, file_name
from . import handlers
from .form import LessonsForm
from .layout import layout

__all__ = ["LessonsForm", "build"]


def export_name(form: LessonsForm, figure: str) -> str:
    """"lessons-figure_0-attention": view, figure and lesson."""
    return file_name(form.VIEW, figure, form.lesson)


def resume(progress, request: gr.Request):
    """The lesson the browser was on, unless the address names one."""
    return handlers.resumed_lesson(progress, dict(getattr(request, "query_params", None) or {}))


def build(ctx) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout()
    tab = TabWiring(ctx, LessonsForm, c, export_name=export_name)
    lesson, progress, lang = c["lesson"], c["progress"], ctx.language
    answers = [c["prediction"], c["answer"], c["run"], c["feedback"]]

    def opened(dependency):
        """After a lesson opens: its kept answers back on screen, and the place remembered."""
        dependency.then(handlers.restored, [lesson, progress, lang], answers, **QUIET, **PRIVATE).then(
            lambda lesson_id, kept: handlers.remember(kept, lesson_id, *handlers.kept_answers(kept, lesson_id)),
            [lesson, progress], [progress], **QUIET, **PRIVATE)

    tab.on_open(handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True)
    opened(tab.on(lesson.input, handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True,
                  api_name="lesson"))
    for button, step in ((c["previous"], -1), (c["next"], 1)):
        moved = button.click(partial(handlers.neighbour, step=step), [lesson], [lesson], **QUIET, **PRIVATE)
        opened(tab.on(moved.then, handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True))
    c["prediction"].input(handlers.run_button, [lesson, c["prediction"], lang], [c["run"]], **QUIET, **PRIVATE).then(
        lambda kept, lesson_id, prediction, answer: handlers.remember(kept, lesson_id, prediction, answer),
        [progress, lesson, c["prediction"], c["answer"]], [progress], **QUIET, **PRIVATE)
    ran = tab.on(c["run"].click, handlers.run_experiment, handlers.OUTCOME, link=False, shared=True)
    ran.then(handlers.prediction_verdict, [lesson, c["prediction"], lang], [c["verdict"]], **QUIET, **PRIVATE)
    c["answer"].input(handlers.check_feedback, [lesson, c["answer"], lang], [c["feedback"]], **QUIET,
                      **PRIVATE).then(
        lambda kept, lesson_id, prediction, answer: handlers.remember(kept, lesson_id, prediction, answer),
        [progress, lesson, c["prediction"], c["answer"]], [progress], **QUIET, **PRIVATE)
    # The resumed lesson is drawn without writing the address: a link may have opened another tab.
    ctx.after_tabs(lambda: opened(tab.on(ctx.started.then(resume, [progress], [lesson], **QUIET, **PRIVATE).then,
                                         handlers.open_lesson, handlers.SCREEN, progress_on="title", shared=True,
                                         link=False)))
