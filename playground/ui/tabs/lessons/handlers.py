"""The Lessons tab's handlers: a lesson's screen, its experiment, its answers, and the learner's
place kept in the browser."""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Iterator

import gradio as gr

from ...course import LESSONS, Lesson, Question
from ...page.forms import encode_query
from ...inputs.validation import fail
from ...page.view_cache import SHARED_VIEWS
from ...session.workspace import Workspace
from ...text.i18n import text
from ...views import by_hand, guessing
from . import live
from .form import LESSON_IDS, LessonsForm
from .layout import FIGURE_SLOTS, OUTCOME_SLOTS
from .views import VIEWS

BY_ID = {lesson.id: lesson for lesson in LESSONS}
FIGURES = tuple(f"figure_{k}" for k in range(FIGURE_SLOTS))
OUTCOMES = tuple(f"outcome_{k}" for k in range(OUTCOME_SLOTS))
GAME_SCREEN = ("gg_panel", *guessing.GAME, "gg_step")     # lesson 1's game, as a lesson's screen shows it
BY_HAND = ("bh_panel", "bh_intro", "bh_numbers", "bh_dk", "bh_result")   # lessons 4 and 7: worked numbers
SCREEN = ("lesson", "position", "title", "explanation", *FIGURES, "notes", *BY_HAND, *GAME_SCREEN, "look_for",
          "experiment_heading",
          "prediction", "run", "run_live", "stop", *OUTCOMES, "live_status", "verdict", "reveal", "check_heading",
          "answer", "feedback", "explore", "progress")
OUTCOME = (*OUTCOMES, "reveal")
LIVE_OUTCOME = (*OUTCOMES, "live_status", "reveal")


def live_views(registry, keys: tuple[str, ...], lang: str) -> tuple[list, str]:
    """The figures and notes of the views `keys`, each built once per language for every session."""
    figures, notes = [], []
    for key in keys:
        kept = SHARED_VIEWS.get(("lessons", key, lang))
        if kept is None:
            shown = VIEWS[key](registry, lang)
            kept = {"figures": list(shown.figures), "note": shown.note}
            SHARED_VIEWS.put(("lessons", key, lang), kept)
        figures += kept["figures"]
        if kept["note"]:
            notes.append(kept["note"])
    return figures, "\n\n".join(notes)


def choices(question: Question, lang: str) -> list[tuple[str, int]]:
    return [(choice.text(lang), k) for k, choice in enumerate(question.choices)]


def explore_link(lesson: Lesson, lang: str) -> str:
    """"Explore further" as a link that opens the lesson's tab view in the same page."""
    tab = text(lang, f"tab_{lesson.link['view']}")
    return text(lang, "lesson_explore", tab=tab, query=encode_query({**lesson.link, "lang": lang}))


def slots(names: tuple[str, ...], figures: list) -> dict:
    return {name: gr.Plot(value=figures[k] if k < len(figures) else None, visible=k < len(figures))
            for k, name in enumerate(names)}


def changed_slots(names: tuple[str, ...], figures: list) -> dict:
    """The slots of the figures that changed (None: unchanged, no update); slots beyond them hidden."""
    return {name: gr.Plot(value=figures[k], visible=True) if k < len(figures) else gr.Plot(visible=False)
            for k, name in enumerate(names) if k >= len(figures) or figures[k] is not None}


def lesson_screen(workspace: Workspace, form: LessonsForm, lang: str) -> dict:
    """The lesson's screen: its text, live figures and questions, nothing answered yet."""
    lesson = BY_ID[form.lesson]
    t = partial(text, lang)
    figures, notes = live_views(workspace.registry, lesson.views, lang)
    return {
        "lesson": gr.Dropdown(choices=[(item.title(lang), item.id) for item in LESSONS]),
        "position": t("lesson_position", n=LESSON_IDS.index(lesson.id) + 1, total=len(LESSONS)),
        "title": f"## {lesson.title(lang)}",
        "explanation": lesson.explanation(lang),
        **slots(FIGURES, figures),
        "notes": notes,
        "look_for": t("lesson_look_for") + "\n\n" + lesson.look_for(lang),
        "experiment_heading": t("lesson_experiment") + "\n\n" + lesson.experiment.predict.prompt(lang),
        "prediction": gr.Radio(choices=choices(lesson.experiment.predict, lang), value=None),
        **run_buttons(lesson.id, None, lang),
        "stop": gr.Button(visible=bool(lesson.experiment.live)),
        **slots(OUTCOMES, []),
        "live_status": "",
        "verdict": "",
        "reveal": "",
        "check_heading": t("lesson_check") + "\n\n" + lesson.check.prompt(lang),
        "answer": gr.Radio(choices=choices(lesson.check, lang), value=None),
        "feedback": "",
        "explore": explore_link(lesson, lang),
        **game_screen(workspace, lesson, lang),
        **by_hand_screen(lesson, lang),
    }


def by_hand_screen(lesson: Lesson, lang: str) -> dict:
    """The box for working numbers by hand, with the tutorial's example filled in and worked, on the
    lessons that have one; hidden on the others."""
    kind = by_hand.KINDS.get(lesson.id)
    if kind is None:
        return {"bh_panel": gr.Group(visible="hidden")}
    typed = by_hand.SEED_LAYER_NORM if kind == "layernorm" else by_hand.SEED_SOFTMAX
    return {"bh_panel": gr.Group(visible=True), "bh_intro": by_hand.intro(lesson.id, lang),
            "bh_numbers": gr.Textbox(value=typed), "bh_dk": gr.Number(value=by_hand.SEED_D_K, visible=kind == "softmax"),
            "bh_result": by_hand.worked(lesson.id, typed, by_hand.SEED_D_K, lang)}


def work_by_hand(lesson_id, typed, d_k, lang: str) -> dict:
    """The arithmetic of the open lesson's box on the numbers typed (a refusal says what to change)."""
    return {"bh_result": by_hand.worked(lesson_id, typed, d_k, lang)}


def game_screen(workspace: Workspace, lesson: Lesson, lang: str) -> dict:
    """The game panel, shown on the lessons that have the game, with the session's game against the
    language's own character model (and its checkpoints); hidden on the others."""
    if not lesson.game:
        return {"gg_panel": gr.Accordion(visible="hidden")}
    try:
        entry = guessing.game_entry(workspace, None, lang)
    except gr.Error as error:
        return {"gg_panel": gr.Accordion(visible=True), "gg_context": error.message, "gg_result": "",
                "gg_step": gr.Radio(choices=[], value=None, visible=False)}
    return {"gg_panel": gr.Accordion(visible=True), **guessing.game_updates(workspace, entry, lang),
            "gg_step": guessing.step_picker(workspace, entry, None)}


def game_turn(workspace: Workspace, guess, step, lang: str, action: str = "turn") -> dict:
    """One turn of lesson 1's game against the language's own character model: "guess" scores the guess,
    "new" starts a new game, "rematch" replays its rounds at `step`; "turn" (the API) decides by what it is
    given (see guessing.turn)."""
    with guessing.keeping_refusal(workspace):
        if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
            raise fail(lang, "err_not_integer", name=text(lang, "param_gg_step"), value=step)
        entry = guessing.game_entry(workspace, None, lang)
        return guessing.turn(workspace, entry, action, guess, step, lang)


def open_lesson(workspace: Workspace, form: LessonsForm, lang: str) -> dict:
    """The lesson's screen with the answers the learner gave it before back in place (the prediction,
    the Run button it enables, the check answer and its feedback), and the learner's place kept (once
    the session has the browser's record: the page's opening draws a lesson before it reads it)."""
    prediction, answer = kept_answers(workspace.lessons, form.lesson)
    buttons = run_buttons(form.lesson, prediction, lang)
    screen = lesson_screen(workspace, form, lang)
    updates = {**screen, **buttons,
               "prediction": gr.Radio(choices=screen["prediction"].constructor_args["choices"], value=prediction),
               "answer": gr.Radio(choices=screen["answer"].constructor_args["choices"], value=answer),
               "feedback": check_feedback(form.lesson, answer, lang)}
    if workspace.lessons is not None:       # before the browser's record is read, it is left as it is
        updates["progress"] = keep(workspace, form.lesson, prediction, answer)
    return updates


def keep(workspace: Workspace, lesson_id: str, prediction=None, answer=None) -> dict:
    """The session's record of the learner's place and answers, with this lesson's (see remember)."""
    with workspace.lock:
        workspace.lessons = remember(workspace.lessons, lesson_id, prediction, answer)
        return workspace.lessons


def keep_progress(workspace: Workspace, progress) -> tuple[bool, bool]:
    """What the browser kept (read once the page has opened) as the session's record, under what the
    session recorded since (a pick made before the browser's record was read is newer). Whether it
    holds a place (the Lessons tab then shows that lesson when the link names none), and whether it
    adds answers the session lacked (the tab is then drawn again to show them)."""
    kept = progress if isinstance(progress, dict) else {}
    browser_answers = kept.get("answers") if isinstance(kept.get("answers"), dict) else {}
    with workspace.lock:
        since = workspace.lessons or {}
        since_answers = since.get("answers") or {}
        workspace.lessons = {"lesson": since.get("lesson", kept.get("lesson")),
                             "answers": {**browser_answers, **since_answers}}
        return kept.get("lesson") in BY_ID and "lesson" not in since, bool(set(browser_answers) - set(since_answers))


def initial_form(workspace: Workspace) -> LessonsForm:
    """The lesson the learner was on (as the browser kept it), else the first."""
    kept = (workspace.lessons or {}).get("lesson")
    return LessonsForm(lesson=kept if kept in BY_ID else LESSON_IDS[0])


def predicted(workspace: Workspace, lesson_id: str, picked, lang: str) -> tuple[dict, dict]:
    """A prediction made: the Run buttons it enables, and the session's record with it."""
    _, answer = kept_answers(workspace.lessons, lesson_id)
    return run_buttons(lesson_id, picked, lang), keep(workspace, lesson_id, picked, answer)


def answered(workspace: Workspace, lesson_id: str, picked, lang: str) -> tuple[str, dict]:
    """A check answer picked: its feedback, and the session's record with it."""
    prediction, _ = kept_answers(workspace.lessons, lesson_id)
    return check_feedback(lesson_id, picked, lang), keep(workspace, lesson_id, prediction, picked)


def run_experiment(workspace: Workspace, form: LessonsForm, lang: str) -> dict:
    """The experiment's outcome: its view of shipped models and the reveal."""
    lesson = BY_ID[form.lesson]
    if lesson.experiment.live:
        raise gr.Error(text(lang, "err_lesson_runs_live"), print_exception=False)
    figures, notes = live_views(workspace.registry, (lesson.experiment.view,), lang)
    prediction, _ = kept_answers(workspace.lessons, form.lesson)
    return {**slots(OUTCOMES, figures), "reveal": "\n\n".join(filter(None, (notes, lesson.experiment.reveal(lang)))),
            "verdict": prediction_verdict(form.lesson, prediction, lang)}


def _live_key(lesson_id: str, lang: str) -> str:
    key = BY_ID[lesson_id].experiment.live
    if not key:
        raise gr.Error(text(lang, "err_lesson_not_live"), print_exception=False)
    return key


def check_live(workspace: Workspace, form: LessonsForm, lang: str) -> dict:
    """Refuse, before it is queued, a run the session cannot start now; else say it waits for a slot."""
    return {"live_status": live.check(workspace, _live_key(form.lesson, lang), lang), **slots(OUTCOMES, []),
            "reveal": ""}


def run_live(workspace: Workspace, form: LessonsForm, lang: str) -> Iterator[dict]:
    """The lesson's experiment run in the session (a training stopped at its goal, or a lab): its
    figures and progress as it goes, then the reveal with what this run showed."""
    lesson = BY_ID[form.lesson]
    prediction, _ = kept_answers(workspace.lessons, form.lesson)
    for progress in live.run(workspace, _live_key(form.lesson, lang), lang):
        reveal = "\n\n".join(filter(None, (lesson.experiment.reveal(lang), progress.findings))) if progress.done else ""
        yield {**changed_slots(OUTCOMES, progress.figures), "live_status": progress.status, "reveal": reveal,
               "verdict": run_verdict(form.lesson, prediction, progress.outcome, lang) if progress.done else ""}


def stop_live(workspace: Workspace, form: LessonsForm, lang: str) -> dict:
    """Ask the lesson's run to end (the run then shows where it stopped)."""
    live.stop(workspace, _live_key(form.lesson, lang))
    return {"live_status": gr.skip()}


def _picked(question: Question, picked) -> int | None:
    return picked if isinstance(picked, int) and 0 <= picked < len(question.choices) else None


def prediction_verdict(lesson_id: str, picked, lang: str) -> str:
    """Whether the prediction was right, and why ("" when none was made)."""
    lesson = BY_ID.get(lesson_id)
    index = _picked(lesson.experiment.predict, picked) if lesson else None
    if index is None:
        return ""
    choice = lesson.experiment.predict.choices[index]
    return text(lang, "lesson_predicted_right" if choice.correct else "lesson_predicted_wrong",
                feedback=choice.feedback(lang))


def run_verdict(lesson_id: str, picked, outcome: str, lang: str) -> str:
    """Whether the learner's run bore the prediction out, decided by what the run showed (`outcome`, see
    run_findings): the picked answer's reasons when it did; else what the run showed instead ("" when no
    prediction was made)."""
    lesson = BY_ID.get(lesson_id)
    index = _picked(lesson.experiment.predict, picked) if lesson else None
    if index is None:
        return ""
    choices = lesson.experiment.predict.choices
    if not outcome:
        return text(lang, "lesson_run_undecided")
    if choices[index].outcome == outcome:
        return text(lang, "lesson_run_matched", feedback=choices[index].feedback(lang))
    shown = next((choice for choice in choices if choice.outcome == outcome), None)
    if shown is None:
        return text(lang, "lesson_run_none_matched")
    return text(lang, "lesson_run_not_matched", shown=shown.text(lang))


def check_feedback(lesson_id: str, picked, lang: str) -> str:
    """The feedback on a check answer: right or wrong, and why ("" when none is picked)."""
    lesson = BY_ID.get(lesson_id)
    index = _picked(lesson.check, picked) if lesson else None
    if index is None:
        return ""
    choice = lesson.check.choices[index]
    return text(lang, "lesson_right" if choice.correct else "lesson_wrong", feedback=choice.feedback(lang))


def run_buttons(lesson_id: str, picked, lang: str) -> dict:
    """The Run button of the lesson's experiment ("run" shows a view, "run_live" starts a run), enabled
    once a prediction is made; the other one hidden."""
    lesson = BY_ID.get(lesson_id)
    made = lesson is not None and _picked(lesson.experiment.predict, picked) is not None
    shown = "run_live" if lesson is not None and lesson.experiment.live else "run"
    label = lesson.experiment.run(lang) if made else text(lang, "btn_lesson_run_wait")
    return {name: gr.Button(label, interactive=made, visible=True) if name == shown else gr.Button(visible=False)
            for name in ("run", "run_live")}


def neighbour(lesson_id: str, step: int) -> str:
    """The lesson `step` places after `lesson_id` (staying at either end)."""
    index = LESSON_IDS.index(lesson_id) if lesson_id in LESSON_IDS else 0
    return LESSON_IDS[min(max(index + step, 0), len(LESSON_IDS) - 1)]


def neighbour_of(step: int):
    """The adapter of the Previous (-1) and Next (1) buttons: the form on the neighbouring lesson."""
    return lambda form, picked: replace(form, lesson=neighbour(form.lesson, step))


def remember(progress, lesson_id: str, prediction=None, answer=None) -> dict:
    """The browser's record with the learner's place and this lesson's answers."""
    progress = progress if isinstance(progress, dict) else {}
    answers = dict(progress.get("answers") or {})
    if lesson_id in BY_ID:
        answers[lesson_id] = {"prediction": prediction, "answer": answer}
    return {"lesson": lesson_id if lesson_id in BY_ID else LESSON_IDS[0], "answers": answers}


def kept_answers(progress, lesson_id: str) -> tuple:
    """(prediction, answer) the browser kept for a lesson (None where none)."""
    answers = ((progress or {}).get("answers") or {}).get(lesson_id) or {} if isinstance(progress, dict) else {}
    lesson = BY_ID.get(lesson_id)
    if lesson is None:
        return None, None
    return _picked(lesson.experiment.predict, answers.get("prediction")), _picked(lesson.check, answers.get("answer"))
