"""What a lesson is: text in both languages, a prediction to make before an experiment, a check
question with feedback on every answer, the live views it shows and the tab view it links to."""
from __future__ import annotations

from dataclasses import dataclass, field

from playground.bilingual import Bilingual


@dataclass(frozen=True)
class Choice:
    """An answer: whether it is right, and why (shown once it is picked). A prediction about a live run
    names the run's `outcome` that bears it out (see the Lessons tab's run_findings): the run, not
    `correct`, then decides the verdict, and `correct` marks what is expected."""

    text: Bilingual
    correct: bool
    feedback: Bilingual
    outcome: str = ""


@dataclass(frozen=True)
class Question:
    """A multiple-choice question with exactly one right answer."""

    prompt: Bilingual
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if sum(choice.correct for choice in self.choices) != 1:
            raise ValueError(f"a question needs exactly one right answer: {self.prompt.en!r}")

    @property
    def answer(self) -> int:
        return next(i for i, choice in enumerate(self.choices) if choice.correct)


@dataclass(frozen=True)
class Experiment:
    """Predict, then run: `predict` is asked first; `run` names the button; `view` is the key of the
    view that shows the outcome once it has run, or `live` the key of a run (a training or a lab)
    that goes in the learner's session when Run is pressed; `reveal` explains it (for a live run, without
    stating what the run will show: its findings do)."""

    predict: Question
    run: Bilingual
    view: str
    reveal: Bilingual
    live: str = ""

    def __post_init__(self) -> None:
        if bool(self.view) == bool(self.live):
            raise ValueError(f"an experiment shows either a view or a live run: {self.run.en!r}")
        outcomes = [choice.outcome for choice in self.predict.choices]
        if self.live and (not all(outcomes) or len(set(outcomes)) != len(outcomes)):
            raise ValueError(f"each prediction of a live run names a distinct outcome of the run: {self.run.en!r}")


@dataclass(frozen=True)
class Lesson:
    """One screen of the course.

    views: the keys of the live views the lesson shows (built by the Lessons tab from the same
        handlers as the tabs); link: the tab view that explores further, as query parameters
        (`view` names the tab); game: whether the screen has the guess-the-next-character game.
    """

    id: str
    title: Bilingual
    explanation: Bilingual                 # markdown; $...$ and $$...$$ are math
    look_for: Bilingual
    experiment: Experiment
    check: Question
    views: tuple[str, ...]
    link: dict = field(default_factory=dict)
    game: bool = False
