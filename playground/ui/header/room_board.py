"""What the class room shows, as plain values: the board (for the teacher's projector, in the teacher's
language) and a student's view (in the student's). Text from students and passages is written literally.

    board(room, lang)          -> Board(status, histogram figure, reveal text, attention figure, match text)
    student_view(room, student, lang) -> StudentView(round text, own guess, own record)
"""
from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from playground.viz.attention import attention_head
from playground.viz.charts import grouped_bars
from playground.viz.labels import plotly_text, visible_token

from ..text.i18n import text
from ..text.markup import literal
from ..text.math import with_mathml
from .room_polls import poll_question
from .room_rules import Room, Round

PROMPT_SHOWN_CHARS = 300      # the end of a long prompt is what a student reads
NAMES_SHOWN = 40              # nicknames the board lists


@dataclass(frozen=True)
class Board:
    status: str                       # Markdown: the round, how many answered
    histogram: go.Figure | None       # the class's shares beside the model's probabilities
    reveal: str                       # Markdown: the answer, shares and log-losses ("" before the reveal)
    attention: go.Figure | None       # the model's attention at that step (after the reveal)
    match: str                        # Markdown: the running score


@dataclass(frozen=True)
class StudentView:
    round: str                        # Markdown: the text to continue, or what to wait for
    guess: str                        # Markdown: the student's vote in this round
    record: str                       # Markdown: the student's own record


def plain_token(token: str) -> str:
    """A token as plain text with its whitespace made visible (a space ␣, a new line ↵), for a picker."""
    return token.replace(" ", "␣").replace("\n", "↵").replace("\t", "⇥") or "∅"


def shown(token: str) -> str:
    """A token for Markdown: whitespace made visible (␣ ↵), written literally, in code quotes' stead."""
    return literal(visible_token(token).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))


def prompt_text(round_: Round) -> str:
    joined = "".join(round_.spec.prompt_tokens)[-PROMPT_SHOWN_CHARS:]
    return "> " + "  \n> ".join(literal(line) for line in joined.split("\n")) + " **▯**"


def _round_head(room: Room, lang: str) -> str:
    round_ = room.current
    if round_.spec.poll:
        return poll_text(round_, len(room.rounds), lang)
    return text(lang, "room_round_prompt", round=len(room.rounds), model=literal(round_.spec.model),
                prompt=prompt_text(round_))


def poll_text(round_: Round, number: int, lang: str) -> str:
    """A poll's lesson, question and lettered choices (the syllabus's own Markdown, formulas as MathML)."""
    lesson, question, _ = poll_question(round_.spec.model)
    choices = "\n".join(f"- **{letter}**: {choice.text.get(lang)}"
                         for letter, choice in zip(round_.spec.vocabulary, question.choices))
    return with_mathml(text(lang, "room_poll_prompt", round=number, lesson=lesson.title.get(lang),
                            question=question.prompt.get(lang)) + "\n\n" + choices)


def poll_picks(round_: Round, lang: str) -> list[tuple[str, str]]:
    """A poll's choices for a student's picker: ("A: the choice's text", "A")."""
    _, question, _ = poll_question(round_.spec.model)
    return [(f"{letter}: {choice.text.get(lang)}", letter) for letter, choice in zip(round_.spec.vocabulary,
                                                                                     question.choices)]


def histogram(round_: Round, lang: str) -> go.Figure:
    rows = round_.histogram()
    categories = [f"{plotly_text(visible_token(token))}" for token, *_ in rows]
    categories = [c if categories.count(c) == 1 else f"{c} ({k})" for k, c in enumerate(categories)]
    series = {text(lang, "room_series_class"): [r[1] for r in rows]}
    if not round_.spec.poll:
        series[text(lang, "room_series_model")] = [r[2] for r in rows]
    poll = "_poll" if round_.spec.poll else ""
    return grouped_bars(categories, series,
                        title=text(lang, f"room_hist_title{poll}", answered=len(round_.votes)),
                        category_label=text(lang, f"room_axis_token{poll}"), value_label=text(lang, "room_axis_share"),
                        percent=True, height=420)


def attention(round_: Round, lang: str) -> go.Figure | None:
    if not round_.spec.attention:
        return None
    layers = [text(lang, "room_layer", n=k + 1) for k in range(len(round_.spec.attention))]
    return attention_head(list(round_.spec.attention), layers, list(round_.spec.prompt_tokens),
                          title=text(lang, "room_attention_title"), query_label=text(lang, "room_axis_layer"),
                          key_label=text(lang, "room_axis_key"), weight_label=text(lang, "room_axis_weight"),
                          height=160 + 48 * len(layers))


def reveal_text(round_: Round, lang: str) -> str:
    r = round_.reveal
    if round_.spec.poll:
        _, question, after = poll_question(round_.spec.model)
        right = question.choices[round_.spec.answer]
        said = text(lang, "room_poll_reveal", answer=r.answer, choice=right.text.get(lang), share=r.class_share,
                    feedback=right.feedback.get(lang))
        return with_mathml(said + ("\n\n" + after.get(lang) if after is not None else ""))
    return text(lang, "room_reveal", answer=shown(r.answer), share=r.class_share, p_class=r.class_probability,
                class_loss=r.class_loss, p_model=r.model_probability, model_loss=r.model_loss, answered=r.answered)


def match_text(room: Room, lang: str) -> str:
    m = room.match()
    if not m["rounds"]:
        return ""
    return text(lang, "room_match", rounds=m["rounds"], class_loss=m["class_loss"], model_loss=m["model_loss"],
                class_right=m["class_right"], model_right=m["model_right"], surprise_round=m["surprise_round"],
                answer=shown(m["surprise"].answer), loss=m["surprise"].class_loss)


def names_text(room: Room, lang: str) -> str:
    """The nicknames of a room that allows them, written literally ("" otherwise)."""
    names = [literal(s.nickname) for s in room.students.values() if s.nickname]
    if not room.nicknames or not names:
        return ""
    shown_names = names[:NAMES_SHOWN] + (["…"] if len(names) > NAMES_SHOWN else [])
    return "\n\n" + text(lang, "room_names", names=", ".join(shown_names))


def board(room: Room, lang: str) -> Board:
    """The teacher's board for `room` now."""
    round_ = room.current
    students = len(room.students)
    if round_ is None:
        return Board(text(lang, "room_no_round", students=students) + names_text(room, lang), None, "", None,
                     match_text(room, lang))
    status = _round_head(room, lang) + "\n\n" + text(lang, "room_answered", answered=len(round_.votes),
                                                     students=students) + names_text(room, lang)
    if round_.reveal is None:
        return Board(status, histogram(round_, lang), "", None, match_text(room, lang))
    return Board(status, histogram(round_, lang), reveal_text(round_, lang), attention(round_, lang),
                 match_text(room, lang))


def student_view(room: Room, student: str, lang: str) -> StudentView:
    """What the student `student` sees in `room` now: the round, their own guess, their own record."""
    round_ = room.current
    me = room.students[student]
    right = sum(1 for _, _, ok in me.record if ok)
    record = text(lang, "room_record", right=right, rounds=len(me.record)) if me.record else ""
    if round_ is None:
        return StudentView(text(lang, "room_waiting"), "", record)
    head = _round_head(room, lang)
    vote = round_.votes.get(student)
    if round_.reveal is None:
        guess = (text(lang, "room_your_guess", guess=shown(round_.spec.vocabulary[vote])) if vote is not None
                 else text(lang, "room_no_guess_yet"))
        return StudentView(head, guess, record)
    mine = shown(round_.spec.vocabulary[vote]) if vote is not None else "—"
    said = "room_poll_revealed_student" if round_.spec.poll else "room_revealed_student"
    return StudentView(head, text(lang, said, answer=shown(round_.reveal.answer), guess=mine,
                                  mark="✓" if vote == round_.spec.answer else "✗"), record)
