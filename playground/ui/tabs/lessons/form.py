"""The Lessons tab's form: which lesson is open.

    ?view=lessons&lesson=attention&lang=zh-CN
"""
from __future__ import annotations

from dataclasses import dataclass

from ...course import LESSONS
from ...page.forms import Choice, Form, param

LESSON_IDS = tuple(lesson.id for lesson in LESSONS)


@dataclass(frozen=True)
class LessonsForm(Form):
    VIEW = "lessons"

    lesson: str = param(Choice(LESSON_IDS[0], LESSON_IDS))
