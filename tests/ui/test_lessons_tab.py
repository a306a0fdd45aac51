import re

import gradio as gr
import plotly.graph_objects as go
import pytest

from playground.ui.course import LESSONS
from playground.ui.page.forms import decode_query
from playground.ui.page.links import link_query, note_text, parse_link
from playground.zoo import ModelRegistry
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.lessons import LessonsForm, handlers
from playground.ui.tabs.lessons.views import VIEWS

HAN = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"\b[a-z]{5,}\b")        # a lowercase English word in the Chinese page


@pytest.fixture
def workspace(shipped_views):
    return Workspace("lessons", shipped_views)


def holds_data(figure: go.Figure) -> bool:
    """A figure with at least one trace carrying values, or a drawing (shapes), not an empty frame."""
    if figure.layout.shapes:
        return True
    for trace in figure.data:
        for name in ("z", "y", "x", "values", "cells", "ids"):
            value = getattr(trace, name, None) if name in trace else None
            if name == "cells" and value is not None:
                value = value.values
            if value is not None and len(value) > 0:
                return True
    return False


def test_every_view_key_the_syllabus_names_exists():
    keys = {key for lesson in LESSONS for key in (*lesson.views, lesson.experiment.view) if key}
    assert keys <= set(VIEWS), keys - set(VIEWS)
    assert len(LESSONS) >= 15


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_lesson_renders_with_figures_that_hold_data(workspace, lesson, lang):
    screen = handlers.open_lesson(workspace, LessonsForm(lesson=lesson.id), lang)
    shown = [screen[name].constructor_args["value"] for name in handlers.FIGURES
             if screen[name].constructor_args["visible"]]
    assert shown and all(isinstance(f, go.Figure) and holds_data(f) for f in shown)
    assert screen["title"] == f"## {lesson.title(lang)}"
    assert screen["prediction"].constructor_args["value"] is None
    run, hidden = ("run_live", "run") if lesson.experiment.live else ("run", "run_live")
    assert screen[run].constructor_args["interactive"] is False and screen[hidden].constructor_args["visible"] is False
    assert screen["stop"].constructor_args["visible"] is bool(lesson.experiment.live)
    if lesson.experiment.live:
        with pytest.raises(gr.Error, match="live" if lang == "en" else "现场训练"):
            handlers.run_experiment(workspace, LessonsForm(lesson=lesson.id), lang)
    else:
        outcome = handlers.run_experiment(workspace, LessonsForm(lesson=lesson.id), lang)
        figures = [outcome[name].constructor_args["value"] for name in handlers.OUTCOMES
                   if outcome[name].constructor_args["visible"]]
        assert figures and all(holds_data(f) for f in figures)
        assert lesson.experiment.reveal(lang) in outcome["reveal"]
    if lang == "zh-CN":
        for name in ("title", "explanation", "look_for", "experiment_heading", "check_heading", "position"):
            assert HAN.search(screen[name]), (name, screen[name])
        labels = [label for label, _ in screen["answer"].constructor_args["choices"]]
        assert all(HAN.search(label) or not ENGLISH_WORD.search(label) for label in labels), labels


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_answer_gets_its_own_feedback(lesson):
    right = lesson.check.answer
    wrong = next(k for k in range(len(lesson.check.choices)) if k != right)
    right_text = handlers.check_feedback(lesson.id, right, "en")
    wrong_text = handlers.check_feedback(lesson.id, wrong, "zh-CN")
    assert right_text.startswith("✓") and lesson.check.choices[right].feedback.en in right_text
    assert wrong_text.startswith("✗") and lesson.check.choices[wrong].feedback.zh in wrong_text
    assert handlers.check_feedback(lesson.id, None, "en") == ""
    assert handlers.check_feedback(lesson.id, 99, "en") == ""


def test_run_waits_for_a_prediction_and_the_verdict_says_whether_it_was_right():
    lesson = LESSONS[0]
    assert handlers.run_buttons(lesson.id, None, "en")["run"].constructor_args["interactive"] is False
    buttons = handlers.run_buttons(lesson.id, 0, "zh-CN")
    button = buttons["run"]
    assert button.constructor_args["interactive"] is True and button.constructor_args["value"] == lesson.experiment.run.zh
    assert buttons["run_live"].constructor_args["visible"] is False
    live = handlers.run_buttons("heads-form", 0, "en")
    assert live["run_live"].constructor_args["interactive"] is True and live["run"].constructor_args["visible"] is False
    right = lesson.experiment.predict.answer
    assert "was right" in handlers.prediction_verdict(lesson.id, right, "en")
    assert "not right" in handlers.prediction_verdict(lesson.id, (right + 1) % 3, "en")
    assert handlers.prediction_verdict(lesson.id, None, "en") == ""


def test_previous_and_next_walk_the_syllabus_and_stop_at_its_ends():
    ids = [lesson.id for lesson in LESSONS]
    assert handlers.neighbour(ids[0], 1) == ids[1]
    assert handlers.neighbour(ids[5], -1) == ids[4]
    assert handlers.neighbour(ids[0], -1) == ids[0]
    assert handlers.neighbour(ids[-1], 1) == ids[-1]


def test_the_lesson_round_trips_through_a_link_and_a_bad_one_opens_lesson_one_with_a_note():
    registry = ModelRegistry()
    forms = {"lessons": LessonsForm}
    query = link_query(registry, "lessons", LessonsForm(lesson="masks"), "zh-CN")
    assert dict(decode_query(query)) == {"view": "lessons", "lesson": "masks", "lang": "zh-CN"}
    page = parse_link("?" + query, ("lessons",), forms, registry)
    assert page.form == LessonsForm(lesson="masks") and not page.ignored
    page = parse_link("?view=lessons&lesson=nonsense", ("lessons",), forms, registry)
    assert page.form.lesson == LESSONS[0].id
    assert "nonsense" in note_text(page.ignored, "en")


def test_explore_further_links_to_the_tab_view_in_the_same_page():
    lesson = next(lesson for lesson in LESSONS if lesson.id == "architectures")
    link = handlers.explore_link(lesson, "zh-CN")
    assert "(?view=attention&model=reverse&kind=cross&lang=zh-CN)" in link and "注意力" in link


def test_the_browser_record_resumes_the_place_and_the_answers(registry):
    kept = handlers.remember({}, "masks", 1, 2)
    assert kept["lesson"] == "masks" and handlers.kept_answers(kept, "masks") == (1, 2)
    assert handlers.kept_answers(kept, "tokens") == (None, None)
    workspace = Workspace("resume", registry)
    assert handlers.keep_progress(workspace, kept) == (True, True)     # what the browser kept, read on opening
    assert handlers.initial_form(workspace) == LessonsForm(lesson="masks")
    gone = Workspace("gone", registry)
    assert handlers.keep_progress(gone, {"lesson": "gone"}) == (False, False)        # unknown: the first lesson
    assert handlers.initial_form(gone) == LessonsForm(lesson=LESSONS[0].id)
    nothing = Workspace("nothing", registry)
    assert handlers.keep_progress(nothing, "not a record") == (False, False)
    assert handlers.initial_form(nothing) == LessonsForm(lesson=LESSONS[0].id)
    picked_first = Workspace("picked", registry)                        # a pick before the browser's record is read
    handlers.answered(picked_first, "tokens", 1, "en")
    assert handlers.keep_progress(picked_first, kept) == (False, True)  # the place stays; the answers join
    assert handlers.kept_answers(picked_first.lessons, "tokens")[1] == 1
    assert handlers.kept_answers(picked_first.lessons, "masks") == (1, 2)           # and the browser's answers join
    assert handlers.kept_answers({"answers": {"masks": {"prediction": 7, "answer": "x"}}}, "masks") == (None, None)
    assert handlers.keep_progress(picked_first, kept) == (False, False)               # read again: nothing new


def test_a_lesson_opens_with_its_kept_answers_and_every_pick_is_kept(workspace):
    handlers.keep_progress(workspace, handlers.remember({}, "masks", 1, 2))
    screen = handlers.open_lesson(workspace, LessonsForm(lesson="masks"), "zh-CN")
    assert (screen["prediction"].value, screen["answer"].value) == (1, 2)
    assert screen["run"].interactive and screen["feedback"] and screen["progress"]["lesson"] == "masks"
    fresh = handlers.open_lesson(workspace, LessonsForm(lesson="tokens"), "en")       # nothing kept for it
    assert (fresh["prediction"].value, fresh["answer"].value) == (None, None) and fresh["feedback"] == ""
    assert not fresh["run"].interactive and fresh["progress"]["lesson"] == "tokens"
    buttons, record = handlers.predicted(workspace, "tokens", 0, "en")
    assert buttons["run"].interactive and handlers.kept_answers(record, "tokens") == (0, None)
    feedback, record = handlers.answered(workspace, "tokens", 1, "en")
    assert feedback and handlers.kept_answers(record, "tokens") == (0, 1)
    assert handlers.kept_answers(record, "masks") == (1, 2) and workspace.lessons is record
