"""The Lessons: the tutorials' syllabus as a path through live views."""
from .lesson import Choice, Experiment, Lesson, Question, Text
from .syllabus import LESSONS

__all__ = ["LESSONS", "Choice", "Experiment", "Lesson", "Question", "Text"]
