"""The Lessons: the tutorials' syllabus as a path through live views."""
from playground.bilingual import Bilingual

from .lesson import Choice, Experiment, Lesson, Question
from .syllabus import LESSONS

__all__ = ["LESSONS", "Bilingual", "Choice", "Experiment", "Lesson", "Question"]
