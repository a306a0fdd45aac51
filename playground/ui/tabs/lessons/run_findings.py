"""What a lesson's live run showed, in sentences filled in from that run, and the claims they make,
checked against the figures the run drew (the Train tab's curves and the induction formation
figure, read back from their traces).

Each function takes the finished run and the language and returns (markdown, claims, outcome): the
outcome names what the run showed in the terms of the lesson's prediction (see Choice.outcome), ""
when the run ended before it could show it.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np
import plotly.graph_objects as go

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.claims import Claim
from playground.labs import LabResult
from playground.labs.bug_labs import LEAK_FLOOR, loss_verdict
from playground.labs.findings import claims_of, last_value

from ...session.training import TrainingSession
from ...text.i18n import text
from ...views.training import (
    DIAGONAL_KEY,
    INDUCTION_KEY,
    PREVIOUS_KEY,
    curves_figure,
    formation_figure,
    scores_figure,
)

MIN_RISE = 0.02          # a score that rose by less than this over the run has not risen
SAME_STRETCH = 0.25      # two scores passing halfway within this share of the run's steps rose together
FORMED = 0.5             # a cross-attention pattern whose best head scores this much has formed
ANTI_DIAGONAL_KEY = "decoder.cross_attn.anti_diagonal"
SPACE = {"en": " ", "zh-CN": ""}          # between two sentences: Chinese sets none
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

def formation_order(halfway: dict[str, int | None], span: int) -> str:
    """What the two scores did: "none" (one has not risen), "same" (they passed halfway within SAME_STRETCH
    of the run's `span` steps of each other), else the name of the one that passed first."""
    first = first_of(halfway)
    if first in ("none", "same"):
        return first
    return "same" if abs(halfway["previous"] - halfway["induction"]) <= SAME_STRETCH * span else first


def induction_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim], str]:
    """Which score passed halfway to its highest value first, when, whether in the same stretch of the run,
    and when the induction score crossed its threshold; checked against the formation figure's traces."""
    t = partial(text, lang)
    history = [(step, scores) for step, scores in session.score_history if INDUCTION_KEY in scores]
    if len(history) < 2:
        return t("lesson_findings_too_short"), [], ""
    steps = [step for step, _ in history]
    span = goal if goal is not None else steps[-1]
    series = {"previous": [float(scores[PREVIOUS_KEY][0].max()) for _, scores in history],
              "induction": [float(scores[INDUCTION_KEY][1:].max()) for _, scores in history]}
    halfway = {name: halfway_step(steps, values) for name, values in series.items()}
    first = first_of(halfway)
    outcome = formation_order(halfway, span)
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
        gap = halfway[second] - halfway[first]
        order += SPACE[lang] + t("lesson_findings_together" if outcome == "same" else "lesson_findings_apart",
                         gap=gap, span=span, share=SAME_STRETCH)
    lines = [order, rise]
    if goal is not None:
        lines.append(t("lesson_findings_goal", threshold=INDUCTION_THRESHOLD, step=goal))
    figure = formation_figure(session, lang)
    x, previous = _trace(figure, t("w_formation_previous"))
    _, induction = _trace(figure, t("w_formation_induction"))
    drawn = {"previous": halfway_step(x, previous), "induction": halfway_step(x, induction)}
    claims = [Claim("lesson 14: the score the reveal says rose first", first, first_of(drawn)),
              Claim("lesson 14: whether the two scores rose in the same stretch of steps", outcome,
                    formation_order(drawn, span))]
    if goal is not None and first != "none":
        crossed = next((step for step, value in zip(x, induction) if step > 0 and value >= INDUCTION_THRESHOLD), None)
        claims.append(Claim("lesson 14: the step the induction score crossed its threshold", goal, crossed))
    return SPACE[lang].join(lines), claims, outcome


# ------------------------------------------------------------------ lesson 9: copy

def cross_pattern(diagonal: float, anti_diagonal: float) -> str:
    """"diagonal" or "anti_diagonal" (the stronger one, once it reaches FORMED), else "none"."""
    if max(diagonal, anti_diagonal) < FORMED:
        return "none"
    return "diagonal" if diagonal >= anti_diagonal else "anti_diagonal"


def copy_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim], str]:
    """When the training loss had halved, when exact match first rose above 0, which came first, and what
    the cross-attention formed; checked against the Train tab's curves and head-score figure."""
    t = partial(text, lang)
    history = session.trainer.history
    if not history:
        return t("lesson_findings_too_short"), [], ""
    first_loss = history[0].loss
    halved = next((e.step for e in history if e.loss <= first_loss / 2), None)
    exact = next((e.step for e in history if e.evaluated and e.exact_match is not None and e.exact_match > 0), None)
    first = first_of({"loss": halved, "exact": exact})
    line = t("lesson_findings_copy", loss=first_loss, halved="–" if halved is None else halved,
             exact="–" if exact is None else exact)
    if first in ("loss", "exact"):
        line += SPACE[lang] + t(f"lesson_findings_copy_{first}")
    elif first == "same":
        line += SPACE[lang] + t("lesson_findings_copy_same")
    figure = curves_figure(session, lang)
    steps, losses = _trace(figure, t("w_train_loss"))
    _, exacts = _trace(figure, t("w_exact_match"))
    drawn_halved = next((s for s, v in zip(steps, losses) if v is not None and v <= losses[0] / 2), None)
    drawn_exact = next((s for s, v in zip(steps, exacts) if v is not None and v > 0), None)
    claims = [Claim("lesson 9: what moved first, the loss or exact match", first,
                    first_of({"loss": drawn_halved, "exact": drawn_exact}))]
    if goal is not None:
        line += SPACE[lang] + t("lesson_findings_copy_goal", step=goal)
    scores = session.score_history[-1][1] if session.score_history else {}
    if DIAGONAL_KEY not in scores or ANTI_DIAGONAL_KEY not in scores:
        return line, claims, ""
    diagonal, anti = float(scores[DIAGONAL_KEY].max()), float(scores[ANTI_DIAGONAL_KEY].max())
    outcome = cross_pattern(diagonal, anti)
    line += SPACE[lang] + t("lesson_findings_copy_pattern", diagonal=diagonal, anti=anti, formed=FORMED,
                    pattern=t(f"lesson_findings_pattern_{outcome}"))
    if session.view_score == DIAGONAL_KEY:
        drawn = np.asarray(scores_figure(session, lang).data[0].z, dtype=float)[:, -1].max()    # [L*H, S]: last step
        claims.append(Claim("lesson 9: the best head's diagonal score at the end is the figure's", round(diagonal, 2),
                            round(float(drawn), 2), tolerance=0.005))
    return line, claims, outcome


# ------------------------------------------------------------------ lesson 10: the rhyme

def rhyme_ending(last_loss: float, goal: int | None, vocab: int) -> str:
    """"memorised" (the goal reached), "flat" (still within a fifth of ln V), else "level"."""
    if goal is not None:
        return "memorised"
    return "flat" if last_loss >= 0.8 * math.log(vocab) else "level"


def rhyme_findings(session: TrainingSession, goal: int | None, lang: str) -> tuple[str, list[Claim], str]:
    """The training loss at the start and at the end, against ln V of the rhyme's vocabulary."""
    t = partial(text, lang)
    history = session.trainer.history
    if not history:
        return t("lesson_findings_too_short"), [], ""
    vocab = session.trainer.tokenizer.vocab_size
    first, last = history[0], history[-1]
    line = t("lesson_findings_rhyme", first=first.loss, first_step=first.step, last=last.loss, last_step=last.step,
             v=vocab, uniform=math.log(vocab))
    figure = curves_figure(session, lang)
    _, losses = _trace(figure, t("w_train_loss"))
    drawn = [v for v in losses if v is not None]
    outcome = rhyme_ending(last.loss, goal, vocab)
    line += SPACE[lang] + t(f"lesson_findings_rhyme_{outcome}")
    return line, [Claim("lesson 10: the training loss the run ended at", round(last.loss, 3),
                        round(drawn[-1], 3), tolerance=1e-3),
                  Claim("lesson 10: where the loss ended, as the curve shows", outcome,
                        rhyme_ending(drawn[-1], goal, vocab))], outcome


# ------------------------------------------------------------------ lesson 13: the float-mask lab

def leak_outcome(result: LabResult, variant: str) -> str:
    """"leak" (an earlier logit moved when only the last token changed), "nan" (the logits were NaN),
    "same" (no earlier logit moved), "" when the lab did not measure it."""
    check = next((c for c in result.checks if c.id == "future_leak" and c.stage == "end"), None)
    if check is None:
        return ""
    value = check.values[variant]
    return "nan" if math.isnan(value) else "leak" if value > LEAK_FLOOR else "same"


def lab_findings(result: LabResult, variant: str, lang: str) -> tuple[str, list[Claim], str]:
    """The lab's own findings, what they decide about lesson 13's prediction, and the curves against the
    final metrics."""
    lines = [f"- {finding.text.get(lang)}" for finding in result.findings]
    broken = result.variant(variant)
    measured = loss_verdict(broken.final["val_loss"], result.reference.final["val_loss"])
    drawn = loss_verdict(last_value(broken.history, "val_loss"), last_value(result.reference.history, "val_loss"))
    outcome = leak_outcome(result, variant)
    leaks = next((c for c in claims_of(result.findings) if c.what.endswith("the variant's future leaks")), None)
    claims = [*claims_of(result.findings), Claim("lesson 13: the curves agree with the final metrics", measured, drawn)]
    if leaks is not None:
        claims.append(Claim("lesson 13: the verdict on the prediction follows the leak the findings state",
                            outcome == "leak", leaks.stated))
    return "\n".join(lines), claims, outcome
