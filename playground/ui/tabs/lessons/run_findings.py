"""What a lesson's live run showed, in sentences filled in from that run, and the claims they make,
checked against the figures the run drew (the Train tab's curves and the induction formation
figure, read back from their traces).

Each function takes the finished run and the language and returns (markdown, claims).
"""
from __future__ import annotations

import math
from functools import partial

import plotly.graph_objects as go

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.claims import Claim
from playground.labs import LabResult
from playground.labs.bug_labs import loss_verdict
from playground.labs.findings import claims_of, last_value

from ...session.training import TrainingSession
from ...text.i18n import text
from ...views.training import INDUCTION_KEY, PREVIOUS_KEY, curves_figure, formation_figure

MIN_RISE = 0.02          # a score that rose by less than this over the run has not risen
SAME_STRETCH = 0.25      # two scores passing halfway within this share of the goal's step rose together
SCORE_NAMES = {"previous": "lesson_score_previous", "induction": "lesson_score_induction"}


def halfway_step(steps: list[int], values: list[float]) -> int | None:
    """The first step at which `values` reached halfway from its first value to its highest; None when it
    rose by less than MIN_RISE."""
    if not values:
        return None
    start, top = values[0], max(values)
    if top - start < MIN_RISE:
        return None
    return next(step for step, value in zip(steps, values) if value >= start + (top - start) / 2)


def first_of(halfway: dict[str, int | None]) -> str:
    """Which of the named series passed halfway first: its name, "same" for a tie, "none" when one has not risen."""
    if any(step is None for step in halfway.values()):
        return "none"
    (a, step_a), (b, step_b) = halfway.items()
    return "same" if step_a == step_b else (a if step_a < step_b else b)


def _trace(figure: go.Figure, name: str) -> tuple[list, list]:
    """(x, y) of the trace called `name`, Nones where a value is missing."""
    trace = next(t for t in figure.data if t.name == name)
    return list(trace.x), [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v) for v in trace.y]


# ------------------------------------------------------------------ lesson 14: induction

def induction_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim]]:
    """Which score passed halfway to its highest value first, when, and when the induction score crossed
    its threshold; checked against the formation figure's traces."""
    t = partial(text, lang)
    history = [(step, scores) for step, scores in session.score_history if INDUCTION_KEY in scores]
    if len(history) < 2:
        return t("lesson_findings_too_short"), []
    steps = [step for step, _ in history]
    series = {"previous": [float(scores[PREVIOUS_KEY][0].max()) for _, scores in history],
              "induction": [float(scores[INDUCTION_KEY][1:].max()) for _, scores in history]}
    halfway = {name: halfway_step(steps, values) for name, values in series.items()}
    first = first_of(halfway)
    names = {name: t(key) for name, key in SCORE_NAMES.items()}
    rise = t("lesson_findings_rise", previous_from=series["previous"][0], previous_to=max(series["previous"]),
             induction_from=series["induction"][0], induction_to=max(series["induction"]))
    if first == "none":
        order = t("lesson_findings_not_risen", names=", ".join(names[n] for n, s in halfway.items() if s is None))
    elif first == "same":
        order = t("lesson_findings_same", step=halfway["previous"])
    else:
        second = "induction" if first == "previous" else "previous"
        order = t("lesson_findings_first", first=names[first], second=names[second], a=halfway[first],
                  b=halfway[second])
    lines = [order, rise]
    if goal is not None:
        lines.append(t("lesson_findings_goal", threshold=INDUCTION_THRESHOLD, step=goal))
    figure = formation_figure(session, lang)
    x, previous = _trace(figure, t("w_formation_previous"))
    _, induction = _trace(figure, t("w_formation_induction"))
    drawn = first_of({"previous": halfway_step(x, previous), "induction": halfway_step(x, induction)})
    claims = [Claim("lesson 14: the score the reveal says rose first", first, drawn)]
    if goal is not None and first not in ("none",):
        together = abs(halfway["previous"] - halfway["induction"]) <= SAME_STRETCH * goal
        claims.append(Claim("lesson 14: the two scores rise in the same stretch of steps", True, together))
        crossed = next((step for step, value in zip(x, induction) if step > 0 and value >= INDUCTION_THRESHOLD), None)
        claims.append(Claim("lesson 14: the step the induction score crossed its threshold", goal, crossed))
    return " ".join(lines), claims


# ------------------------------------------------------------------ lesson 9: copy

def copy_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim]]:
    """When the training loss had halved, when exact match first rose above 0, and which came first;
    checked against the Train tab's curves."""
    t = partial(text, lang)
    history = session.trainer.history
    if not history:
        return t("lesson_findings_too_short"), []
    first_loss = history[0].loss
    halved = next((e.step for e in history if e.loss <= first_loss / 2), None)
    exact = next((e.step for e in history if e.evaluated and e.exact_match is not None and e.exact_match > 0), None)
    first = first_of({"loss": halved, "exact": exact})
    line = t("lesson_findings_copy", loss=first_loss, halved="–" if halved is None else halved,
             exact="–" if exact is None else exact)
    if first in ("loss", "exact"):
        line += " " + t(f"lesson_findings_copy_{first}")
    figure = curves_figure(session, lang)
    steps, losses = _trace(figure, t("w_train_loss"))
    _, exacts = _trace(figure, t("w_exact_match"))
    drawn_halved = next((s for s, v in zip(steps, losses) if v is not None and v <= losses[0] / 2), None)
    drawn_exact = next((s for s, v in zip(steps, exacts) if v is not None and v > 0), None)
    claims = [Claim("lesson 9: what moved first, the loss or exact match", first,
                    first_of({"loss": drawn_halved, "exact": drawn_exact}))]
    if goal is not None:
        line += " " + t("lesson_findings_copy_goal", step=goal)
    return line, claims


# ------------------------------------------------------------------ lesson 10: the rhyme

def rhyme_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim]]:
    """The training loss at the start and at the end, against ln V of the rhyme's vocabulary."""
    t = partial(text, lang)
    history = session.trainer.history
    if not history:
        return t("lesson_findings_too_short"), []
    vocab = session.trainer.tokenizer.vocab_size
    first, last = history[0], history[-1]
    line = t("lesson_findings_rhyme", first=first.loss, first_step=first.step, last=last.loss, last_step=last.step,
             v=vocab, uniform=math.log(vocab))
    figure = curves_figure(session, lang)
    _, losses = _trace(figure, t("w_train_loss"))
    drawn = [v for v in losses if v is not None]
    return line, [Claim("lesson 10: the training loss the run ended at", round(last.loss, 3),
                        round(drawn[-1], 3), tolerance=1e-3)]


# ------------------------------------------------------------------ lesson 13: the float-mask lab

def lab_findings(result: LabResult, variant: str, lang: str) -> tuple[str, list[Claim]]:
    """The lab's own findings, and lesson 13's statement that the broken model's loss looks ordinary."""
    lines = [f"- {finding.text.get(lang)}" for finding in result.findings]
    broken = result.variant(variant)
    measured = loss_verdict(broken.final["val_loss"], result.reference.final["val_loss"])
    drawn = loss_verdict(last_value(broken.history, "val_loss"), last_value(result.reference.history, "val_loss"))
    claims = [*claims_of(result.findings),
              Claim("lesson 13: the float mask's loss looks ordinary beside the reference's", "ordinary", measured),
              Claim("lesson 13: the curves agree with the final metrics", measured, drawn)]
    return "\n".join(lines), claims
