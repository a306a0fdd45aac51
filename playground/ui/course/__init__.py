"""The course: the tutorials' syllabus as data (lessons, their questions and experiments), drawn by the Lessons tab."""
from playground.bilingual import Bilingual

from .lesson import Choice, Experiment, Lesson, Question
from .syllabus import LESSONS

__all__ = ["LESSONS", "Bilingual", "Choice", "Experiment", "Lesson", "Question"]
