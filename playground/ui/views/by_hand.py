"""Boxes where a learner types numbers into LayerNorm (lesson 7) or softmax (lesson 4) and reads the
arithmetic worked through, step by step, beside torch's own result on the same numbers."""
from __future__ import annotations

import math
import re
from functools import partial

from playground.analysis.by_hand import MAX_MAGNITUDE, MAX_VALUES, layer_norm_steps, softmax_steps

from ..inputs.validation import fail
from ..text.i18n import text

# The seed tutorial's own examples: LayerNorm of x = [2, 5, 8, 1, 3] (it writes a variance of 5.76 and
# sigma 2.4; the squares sum to 30.8, so the variance is 6.16), and the scores [100, 45.3, -20.1, 12.5]
# scaled by sqrt(64) before the softmax.
SEED_LAYER_NORM = "2, 5, 8, 1, 3"
SEED_LAYER_NORM_VARIANCE = 5.76
SEED_SOFTMAX = "100, 45.3, -20.1, 12.5"
SEED_D_K = 64
MAX_D_K = 4096
MAX_TYPED_CHARS = 200
KINDS = {"block": "layernorm", "attention": "softmax"}       # lesson id -> the box it shows
_SEPARATORS = re.compile(r"[\s,，;；、\[\]()（）]+")


def number(value: float) -> str:
    """A short decimal: 3.8, -0.7225, 2.482, 1.066e-05."""
    if value == 0:
        return "0"
    return f"{value:.4g}" if abs(value) >= 1e-4 else f"{value:.3e}"


def as_formula(value: float) -> str:
    """A number for a formula: a power of ten as 10^{k} (1e-05 would read as 1e − 05), else `number`."""
    power = math.log10(value) if value > 0 else 0.5
    return f"10^{{{round(power)}}}" if power == round(power) else number(value)


def parse_numbers(typed, lang: str, least: int) -> list[float]:
    """The numbers typed in the box (separated by commas, spaces or semicolons, brackets allowed);
    gr.Error in `lang` naming what to change otherwise."""
    name = text(lang, "lbl_by_hand_numbers")
    if not isinstance(typed, str):
        raise fail(lang, "err_not_text", what=name)
    if len(typed) > MAX_TYPED_CHARS:
        raise fail(lang, "err_too_long", what=name, length=len(typed), limit=MAX_TYPED_CHARS)
    pieces = [piece for piece in _SEPARATORS.split(typed) if piece]
    numbers = []
    for piece in pieces:
        try:
            value = float(piece)
        except ValueError:
            raise fail(lang, "err_by_hand_not_number", value=piece) from None
        if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
            raise fail(lang, "err_by_hand_size", value=piece, limit=f"{MAX_MAGNITUDE:g}")
        numbers.append(value)
    if not least <= len(numbers) <= MAX_VALUES:
        raise fail(lang, "err_by_hand_count", n=len(numbers), least=least, most=MAX_VALUES)
    return numbers


def parse_d_k(value, lang: str) -> int:
    name = "d_k"
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise fail(lang, "err_not_integer", name=name, value=value)
    if not 1 <= value <= MAX_D_K:
        raise fail(lang, "err_out_of_range", name=name, value=int(value), low=1, high=MAX_D_K)
    return int(value)


def _sum(values: list[float]) -> str:
    return " + ".join(number(v) if v >= 0 else f"({number(v)})" for v in values)


def layer_norm_worked(typed, lang: str) -> str:
    """LayerNorm of the typed vector (gamma = 1, beta = 0), step by step, as Markdown with formulas."""
    steps = layer_norm_steps(parse_numbers(typed, lang, 2))
    t = partial(text, lang)
    n = len(steps.x)
    rows = "\n".join(f"| {i} | {number(x)} | {number(d)} | {number(q)} | {number(y)} | {number(z)} |"
                     for i, (x, d, q, y, z) in enumerate(zip(steps.x, steps.deviations, steps.squares,
                                                             steps.normalised, steps.torch_normalised)))
    return "\n\n".join([
        t("by_hand_mean", n=n, terms=_sum(steps.x), total=number(math.fsum(steps.x)), mean=number(steps.mean)),
        t("by_hand_variance", n=n, terms=_sum(steps.squares), total=number(math.fsum(steps.squares)),
          variance=number(steps.variance)),
        t("by_hand_std", variance=number(steps.variance), eps=as_formula(steps.eps), std=number(steps.std)),
        t("by_hand_ln_table") + "\n" + rows,
        t("by_hand_ln_torch", largest=number(max(abs(a - b) for a, b in zip(steps.normalised,
                                                                              steps.torch_normalised)))),
    ])


def softmax_worked(typed, d_k, lang: str) -> str:
    """softmax(scores / sqrt(d_k)) of the typed scores, step by step, as Markdown with formulas."""
    steps = softmax_steps(parse_numbers(typed, lang, 1), parse_d_k(d_k, lang))
    t = partial(text, lang)
    rows = "\n".join(f"| {i} | {number(s)} | {number(c)} | {number(h)} | {number(e)} | {number(p)} | {number(q)} |"
                     for i, (s, c, h, e, p, q) in enumerate(zip(steps.scores, steps.scaled, steps.shifted, steps.exps,
                                                                steps.probabilities, steps.torch_probabilities)))
    top = steps.scaled.index(steps.largest)
    raw = steps.raw_exps[top]
    parts = [
        t("by_hand_scale", d_k=steps.d_k, root=number(math.sqrt(steps.d_k))),
        t("by_hand_shift", largest=number(steps.largest)),
        t("by_hand_sm_table") + "\n" + rows,
        t("by_hand_total", total=number(steps.total), largest=number(steps.largest)),
        t("by_hand_sm_torch", largest=number(max(abs(a - b) for a, b in zip(steps.probabilities,
                                                                             steps.torch_probabilities)))),
    ]
    if raw is not None:
        parts.append(t("by_hand_raw_exp", score=number(steps.largest), value=f"{raw:,.6g}"))
    return "\n\n".join(parts)


def intro(lesson_id: str, lang: str) -> str:
    """What the lesson's box is for, with the tutorial's example it starts from ("" without a box)."""
    kind = KINDS.get(lesson_id)
    if kind == "layernorm":
        return text(lang, "by_hand_ln_intro", seed=SEED_LAYER_NORM, seed_variance=SEED_LAYER_NORM_VARIANCE)
    if kind == "softmax":
        return text(lang, "by_hand_sm_intro", seed=SEED_SOFTMAX, d_k=SEED_D_K)
    return ""


def worked(lesson_id, typed, d_k, lang: str) -> str:
    """The arithmetic of the box of lesson `lesson_id` on the typed numbers (the text is only ever parsed)."""
    kind = KINDS.get(lesson_id) if isinstance(lesson_id, str) else None
    if kind == "layernorm":
        return layer_norm_worked(typed, lang)
    if kind == "softmax":
        return softmax_worked(typed, d_k, lang)
    raise fail(lang, "err_by_hand_lesson")
