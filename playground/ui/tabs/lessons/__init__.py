"""Lessons tab: the course, one screen per lesson: the explanation with its math, live figures built
by the tabs' own view functions, what to look for, an experiment predicted before it runs, a check
question with feedback on every answer, and a link to the tab view that explores further; lesson 1
also has a game, guessing the next character against a character model.

layout.py declares the components, form.py the open lesson (and its link), handlers.py what each
event does, views.py the live views by the keys the syllabus names."""
from __future__ import annotations

import gradio as gr

from ...page.context import CHECK, FORM_INPUTS, PRIVATE, QUIET, light, training
from ...page.runtime import guarded
from ...page.wiring import TabWiring, any_of, file_name
from . import handlers
from ...views import guessing
from ...views.guessing import GAME_TURN
from .form import LessonsForm
from .layout import layout

__all__ = ["LessonsForm", "build"]


def export_name(form: LessonsForm, figure: str) -> str:
    """"lessons-figure_0-attention": view, figure and lesson."""
    return file_name(form.VIEW, figure, form.lesson)


def build(ctx) -> None:
    """Declare the tab's components and events (inside a gr.Tab). The learner's place and answers are
    the session's (Workspace.lessons), kept in the browser too (c["progress"], read when the page opens),
    so they survive reloads and restarts of the server."""
    c = layout()
    ctx.kept.append((c["progress"], handlers.keep_progress, LessonsForm.VIEW))
    tab = TabWiring(ctx, LessonsForm, c, export_name=export_name, draw=handlers.open_lesson,
                    initial=handlers.initial_form)
    lesson, lang = c["lesson"], ctx.language

    # A lesson's live run: checked first (a second run of the session is refused, never queued), then
    # queued for one of the app's training slots with its place shown; Stop ends it between two steps;
    # opening another lesson cancels it.
    checked = tab.on(c["run_live"].click, handlers.check_live, handlers.LIVE_OUTCOME, link=False, **CHECK)
    running = tab.on(checked.success, handlers.run_live, (*handlers.LIVE_OUTCOME, "verdict"), link=False,
                     stream=True, trains=True, api_name="lesson_run", **training(c["live_status"]))
    tab.on(c["stop"].click, handlers.stop_live, ["live_status"], link=False, api_name="lesson_stop",
           concurrency_id="lessons-control", concurrency_limit=None, show_progress="hidden")
    tab.on(any_of(lesson.input, c["previous"].click, c["next"].click), handlers.open_lesson, handlers.SCREEN,
           progress_on="title", api_name="lesson", cancels=[running],
           adapt={"previous": handlers.neighbour_of(-1), "next": handlers.neighbour_of(1)})
    tab.on(c["run"].click, handlers.run_experiment, (*handlers.OUTCOME, "verdict"), link=False, shared=True)

    # Lesson 1's game: the session's game, not a view of the lesson, so no field of the lesson's link.
    actions = {c[name].elem_id: action for name, action in (("gg_play", "guess"), ("gg_guess", "guess"),
                                                            ("gg_new", "new"), ("gg_rematch", "rematch"))}

    @guarded
    def game_turn(guess, step, lang, request: gr.Request, event: gr.EventData) -> dict:
        action = actions.get(getattr(getattr(event, "target", None), "elem_id", None), "turn")  # by elem_id: see wiring
        updates = handlers.game_turn(ctx.workspace(request), guess, step, lang, action)
        return {c[name]: update for name, update in updates.items()}

    turns = gr.on([c["gg_play"].click, c["gg_guess"].submit, c["gg_new"].click, c["gg_rematch"].click], game_turn,
                  [c["gg_guess"], c["gg_step"], lang], [c[name] for name in GAME_TURN], api_name="lesson_guess",
                  **light(c["gg_result"]), **FORM_INPUTS)

    @guarded
    def game_refused(lang: str, request: gr.Request) -> dict:
        return {c[name]: update for name, update in guessing.refused_result(ctx.workspace(request), lang).items()}

    turns.failure(game_refused, [lang], [c["gg_result"]], show_progress="hidden", **PRIVATE)

    @guarded
    def worked(lesson_id, typed, d_k, lang) -> dict:
        return {c[name]: update for name, update in handlers.work_by_hand(lesson_id, typed, d_k, lang).items()}

    gr.on([c["bh_run"].click, c["bh_numbers"].submit], worked, [lesson, c["bh_numbers"], c["bh_dk"], lang],
          [c["bh_result"]], api_name="lesson_by_hand", **light(c["bh_result"]), **FORM_INPUTS)

    @guarded
    def predicted(lesson_id, picked, language, request: gr.Request) -> dict:
        buttons, progress = handlers.predicted(ctx.workspace(request), lesson_id, picked, language)
        return {c["run"]: buttons["run"], c["run_live"]: buttons["run_live"], c["progress"]: progress}

    @guarded
    def answered(lesson_id, picked, language, request: gr.Request) -> dict:
        feedback, progress = handlers.answered(ctx.workspace(request), lesson_id, picked, language)
        return {c["feedback"]: feedback, c["progress"]: progress}

    c["prediction"].input(predicted, [lesson, c["prediction"], lang], [c["run"], c["run_live"], c["progress"]],
                          **QUIET, **PRIVATE)
    c["answer"].input(answered, [lesson, c["answer"], lang], [c["feedback"], c["progress"]], **QUIET, **PRIVATE)
