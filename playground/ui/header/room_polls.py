"""A lesson's question as a class poll: each lesson's prediction (asked before its experiment) and its
check question, answered by the class in a room's round; the reveal gives the lesson's own explanation.

A poll is a round whose "vocabulary" is the question's letters (A, B, C, ...) and which no model
answers. Its id is "LESSON_ID:predict" or "LESSON_ID:check".

    poll_choices(lang)        -> [(label, id)] for the teacher's picker
    poll_spec(id)             -> the RoundSpec of its round (ValueError("room_unknown_poll") for another id)
    poll_question(id)         -> (the lesson, the question, the lesson's reveal or None)
"""
from __future__ import annotations

from string import ascii_uppercase

from ..course import LESSONS, Bilingual, Lesson, Question
from ..text.i18n import text
from .room_rules import RoundSpec

PARTS = ("predict", "check")


def poll_choices(lang: str) -> list[tuple[str, str]]:
    """Every lesson's prediction and check question, labelled in `lang`, by poll id."""
    return [(text(lang, f"room_poll_{part}", lesson=lesson.title.get(lang)), f"{lesson.id}:{part}")
            for lesson in LESSONS for part in PARTS]


def poll_question(poll: str) -> tuple[Lesson, Question, Bilingual | None]:
    """The lesson, its question and what the lesson says after it (the experiment's reveal for a prediction)."""
    lesson_id, _, part = str(poll).partition(":")
    lesson = next((found for found in LESSONS if found.id == lesson_id), None)
    if lesson is None or part not in PARTS:
        raise ValueError("room_unknown_poll")
    if part == "predict":
        return lesson, lesson.experiment.predict, lesson.experiment.reveal
    return lesson, lesson.check, None


def letters(question: Question) -> tuple[str, ...]:
    return tuple(ascii_uppercase[:len(question.choices)])


def poll_spec(poll: str) -> RoundSpec:
    """The round that asks poll `poll` of the class."""
    _, question, _ = poll_question(poll)
    choices = letters(question)
    return RoundSpec(model=poll, prompt_tokens=(), vocabulary=choices, probabilities=(), answer=question.answer,
                     picker=choices, poll=True)
