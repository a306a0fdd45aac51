"""No shown string carries raw markup: `$...$` only where the page shows formulas (the lessons'
markdown and the tabs' explanation panels, as MathML), and there balanced; `**` and backticks balanced
everywhere markdown is rendered; none of them in what is never rendered as markdown (a radio's
answers, a button, a figure's title, an error toast). In both languages."""
import re

import pytest

from playground.labs import LABS
from playground.ui.course import LESSONS
from playground.ui.tabs.lessons.views import VIEWS
from playground.ui.text.en import EN
from playground.ui.text.zh import ZH

LANGS = ("en", "zh-CN")
# Text keys shown in a MathMarkdown (see each tab's layout.py); the lessons' own texts and notes
# are all shown that way.
LATEX_KEYS = {"pos_explanation", "rope_explanation", "arch_explanation", "attention_explanation",
              "generate_explanation", "train_explanation", "inside_worked_explanation", "inside_norm_explanation",
              "lesson_perplexity_note", "room_explain", "lesson_window_note", "by_hand_ln_intro", "by_hand_sm_intro",
              "by_hand_mean", "by_hand_variance", "by_hand_std", "by_hand_ln_table", "by_hand_scale",
              "by_hand_sm_table", "by_hand_total", "by_hand_raw_exp"}
MARKUP = re.compile(r"\$|\*\*|`")


def unbalanced(text: str) -> list[str]:
    """What is left open in a markdown text: "$$", "$", "**" or "`" (an odd count of it)."""
    problems = []
    display = text.count("$$")
    inline = text.replace("$$", "").replace("\\$", "").count("$")
    code = len(re.findall(r"(?<!\\)`", text))
    bold = len(re.findall(r"(?<![\\*])\*\*(?!\*)", text.replace("`**`", "")))
    for name, count in (("$$", display), ("$", inline), ("`", code), ("**", bold)):
        if count % 2:
            problems.append(name)
    return problems


def lesson_markdown(lesson):
    yield lesson.explanation
    yield lesson.look_for
    yield lesson.experiment.reveal
    for question in (lesson.experiment.predict, lesson.check):
        yield question.prompt
        for choice in question.choices:
            yield choice.feedback


def lesson_plain(lesson):
    """Shown as plain text: the title (a dropdown's choice), the run button, every answer (a radio)."""
    yield lesson.title
    yield lesson.experiment.run
    for question in (lesson.experiment.predict, lesson.check):
        for choice in question.choices:
            yield choice.text


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_lesson_s_markdown_is_balanced_and_its_plain_text_has_no_markup(lesson):
    for lang in LANGS:
        for text in lesson_markdown(lesson):
            assert unbalanced(text(lang)) == [], (lang, text(lang))
        for text in lesson_plain(lesson):
            assert not MARKUP.search(text(lang)), (lang, text(lang))


@pytest.fixture
def registry(shipped_views):
    return shipped_views


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_view_s_note_is_balanced_and_its_figure_titles_have_no_markup(registry, lang):
    for key, view in VIEWS.items():
        shown = view(registry, lang)
        assert unbalanced(shown.note) == [], (key, shown.note)
        for figure in shown.figures:
            title = figure.layout.title.text or ""
            assert not MARKUP.search(title), (key, title)


@pytest.mark.parametrize("table", [EN, ZH], ids=["en", "zh-CN"])
def test_text_keys_carry_latex_only_where_it_renders_and_no_markup_in_toasts(table):
    for key, value in table.items():
        if key not in LATEX_KEYS:
            assert "$" not in value, key
        assert unbalanced(value) == [], (key, value)
        if key.startswith("err_"):                                           # a toast shows its text as it is
            assert not MARKUP.search(value), (key, value)


def test_labs_texts_carry_no_latex():
    for lab in LABS.values():
        for text in (lab.title, lab.question, lab.explanation):
            for lang in LANGS:
                assert "$" not in text(lang) and unbalanced(text(lang)) == [], (lab.id, text(lang))


def test_the_check_finds_what_it_looks_for():
    assert unbalanced("a $x$ b **c** `d`") == []
    assert unbalanced("a $x b") == ["$"] and unbalanced("**c") == ["**"] and unbalanced("`d") == ["`"]
    assert unbalanced("$$x$$ and $y$") == []
