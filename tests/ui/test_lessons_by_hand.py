"""Lessons 4 and 7's boxes: the learner types numbers and reads softmax or LayerNorm worked through,
checked against arithmetic done here; a wrong input gets a message in the session's language."""
import math
import re

import gradio as gr
import pytest

from playground.ui.course import LESSONS
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.lessons import LessonsForm, handlers
from playground.ui.text.i18n import text
from playground.ui.views import by_hand

NUMBER = r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]\d+)?"


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of the Markdown table in `markdown`, cells stripped."""
    rows = [line for line in markdown.splitlines() if re.match(r"^\| \d+ \|", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_layer_norm_box_works_the_tutorials_example_to_variance_6_16(lang):
    worked = by_hand.worked("block", "2, 5, 8, 1, 3", None, lang)
    assert "= 3.8$" in worked and "= 30.8 / 5 = 6.16$" in worked                 # mean and variance, by hand
    assert "3.24 + 1.44 + 17.64 + 7.84 + 0.64" in worked
    sigma = math.sqrt(6.16 + 1e-5)
    rows = table_rows(worked)
    assert [float(row[1]) for row in rows] == [2, 5, 8, 1, 3]
    for row, x in zip(rows, (2, 5, 8, 1, 3)):
        assert float(row[4]) == pytest.approx((x - 3.8) / sigma, abs=5e-4)      # the worked value ...
        assert float(row[5]) == pytest.approx((x - 3.8) / sigma, abs=5e-4)      # ... and torch's


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_softmax_box_works_the_tutorials_scores_divided_by_sqrt_64(lang):
    worked = by_hand.worked("attention", "[100, 45.3, -20.1, 12.5]", 64, lang)
    scaled = [12.5, 5.6625, -2.5125, 1.5625]
    total = sum(math.exp(s - 12.5) for s in scaled)
    rows = table_rows(worked)
    assert [float(row[2]) for row in rows] == pytest.approx(scaled, abs=5e-4)
    assert [float(row[5]) for row in rows] == pytest.approx([math.exp(s - 12.5) / total for s in scaled], rel=1e-3)
    assert [float(row[6]) for row in rows] == pytest.approx([math.exp(s - 12.5) / total for s in scaled], rel=1e-3)
    assert "268,337" in worked                                                   # e^12.5, the tutorial's "270000"


@pytest.mark.parametrize("lang, words", [("en", "not a number"), ("zh-CN", "不是数字")])
@pytest.mark.parametrize("typed", ["2, five, 8", "<img src=x onerror=alert(1)>", "1e400, 2"])
def test_a_box_refuses_what_is_not_numbers_in_the_sessions_language(typed, lang, words):
    with pytest.raises(gr.Error) as refused:
        by_hand.worked("block", typed, None, lang)
    message = refused.value.message
    assert "<img" not in message
    if typed != "1e400, 2":
        assert words in message


@pytest.mark.parametrize("lesson_id, typed, d_k, key", [
    ("block", "7", None, "err_by_hand_count"),
    ("block", ", ".join(["1"] * 13), None, "err_by_hand_count"),
    ("attention", "1, 2", 0, "err_out_of_range"),
    ("attention", "1, 2", 2.5, "err_not_integer"),
    ("attention", "1, 2", None, "err_not_integer"),
    ("tokens", "1, 2", None, "err_by_hand_lesson"),
    ("block", 12, None, "err_not_text"),
])
def test_each_refusal_says_what_to_change(lesson_id, typed, d_k, key):
    with pytest.raises(gr.Error) as refused:
        by_hand.worked(lesson_id, typed, d_k, "zh-CN")
    template = re.sub(r"\\{\w+\\}", ".*", re.escape(text("zh-CN", key)))        # the message with any values
    assert re.fullmatch(template, refused.value.message, re.S)


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_only_lessons_4_and_7_show_a_box_already_worked_on_the_tutorials_numbers(lang, shipped_views):
    workspace = Workspace("by-hand", shipped_views)
    for lesson in LESSONS:
        screen = handlers.lesson_screen(workspace, LessonsForm(lesson=lesson.id), lang)
        visible = screen["bh_panel"].constructor_args["visible"]
        assert visible == (True if lesson.id in ("attention", "block") else "hidden"), lesson.id
        if lesson.id == "block":
            assert "6.16" in screen["bh_result"] and "5.76" in screen["bh_intro"]
            assert screen["bh_dk"].constructor_args["visible"] is False
        if lesson.id == "attention":
            assert "268,337" in screen["bh_result"] and screen["bh_dk"].constructor_args["visible"] is True
