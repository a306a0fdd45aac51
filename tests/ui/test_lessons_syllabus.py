"""The syllabus: sixteen lessons in the issue's order (today's LLMs last), every text in both languages, one right answer
and feedback for every answer of every question."""
import re

import pytest

from playground.ui.course import LESSONS, Bilingual, Question
from playground.ui.course.lesson import Choice, Experiment

ORDER = ("tokens", "embeddings", "positions", "attention", "heads", "masks", "block", "architectures",
         "copy-training", "char-lm", "decoding", "measuring", "bugs", "heads-form", "cost", "llms")
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORDS = re.compile(r"\b[a-z]{4,}\b(?:\s+\b[a-z]{3,}\b){2,}")     # three English words in a row


def texts(lesson):
    yield lesson.title
    yield lesson.explanation
    yield lesson.look_for
    yield lesson.experiment.run
    yield lesson.experiment.reveal
    for question in (lesson.experiment.predict, lesson.check):
        yield question.prompt
        for choice in question.choices:
            yield choice.text
            yield choice.feedback


def test_sixteen_lessons_in_the_syllabus_order():
    assert tuple(lesson.id for lesson in LESSONS) == ORDER
    assert all(lesson.title("en").startswith(f"{i} · ") for i, lesson in enumerate(LESSONS, 1))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_text_exists_in_both_languages_and_the_chinese_is_chinese(lesson):
    for text in texts(lesson):
        assert text.en.strip() and text.zh.strip()
        assert CJK.search(text.zh) or text.zh == text.en, text.zh            # numbers and shapes may be shared
        prose = re.sub(r"\$[^$]*\$|`[^`]*`|\*[^*]*\*|\"[^\"]*\"|“[^”]*”", "", text.zh)   # math, code, names
        assert not ENGLISH_WORDS.search(prose), f"English left in the Chinese text: {text.zh!r}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_question_has_one_right_answer_and_explains_every_answer(lesson):
    for question in (lesson.experiment.predict, lesson.check):
        assert len(question.choices) >= 3
        assert sum(choice.correct for choice in question.choices) == 1
        assert 0 <= question.answer < len(question.choices)
        for choice in question.choices:
            assert choice.feedback.en.strip() and choice.feedback.zh.strip()
    assert lesson.views and (lesson.experiment.view or lesson.experiment.live) and lesson.link.get("view")


def test_the_lessons_that_train_run_live_and_every_other_experiment_shows_a_view():
    live = {lesson.id: lesson.experiment.live for lesson in LESSONS if lesson.experiment.live}
    assert live == {"copy-training": "copy", "char-lm": "rhyme", "bugs": "float-mask", "heads-form": "induction"}
    with pytest.raises(ValueError, match="either a view or a live run"):
        Experiment(LESSONS[0].experiment.predict, Bilingual("run", "运行"), "tokens_compare", Bilingual("r", "结果"), live="copy")


def test_a_question_without_exactly_one_right_answer_is_refused():
    answer = Choice(Bilingual("a", "甲"), True, Bilingual("why", "为什么"))
    with pytest.raises(ValueError, match="exactly one right answer"):
        Question(Bilingual("q", "问"), (answer, answer))
