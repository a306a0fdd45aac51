"""Benchmark suite "lessons": how many lessons the course has, how long the server takes to build a
lesson's live views, how many of the course's texts lack their Chinese, and how many of the numbers
and comparisons its texts state were checked against the data their figures draw (and disagree).

lesson_open_ms_p95: the 95th percentile, over every lesson in both languages, of the time to build
the views a lesson shows when no session has opened it yet (the shipped models loaded and the
process warmed up as the app does at its first page load);
after that first opening every session gets them from the view cache.
lesson_claims_checked / lesson_claims_mismatched: the claims of every lesson's views and typed
numbers (playground.ui.tabs.lessons.claims), in both languages, and how many the data do not bear out.
run_claims_shown: the claims made by the sentences a live run writes into its reveal (lessons 9, 10,
13 with its lab's findings, and 14), each checked against the figures that run drew; the ones that
hold are counted, the others listed. --quick stops each training at its first evaluation or snapshot
and runs a small float-mask lab; the full run trains to each lesson's goal.
"""
from __future__ import annotations

import dataclasses
import re
import time
from contextlib import contextmanager

import numpy as np

from playground.labs import get_lab
from playground.train import recipes
from playground.ui.course import LESSONS, Bilingual
from playground.ui.page.runtime import configure_torch, warm_up
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.labs import session as lab_session
from playground.ui.tabs.lessons import live
from playground.ui.tabs.lessons.claims import lesson_claims
from playground.ui.tabs.lessons.views import VIEWS
from playground.ui.text.i18n import text
from playground.zoo import ModelRegistry

SUITE = "lessons"
LETTERS = re.compile(r"[a-z]{3,}")      # an English word (not a symbol such as NaN or BLEU)
LESSON_KEYS = ("tab_lessons", "lesson_look_for", "lesson_experiment", "lesson_check", "btn_previous", "btn_next")


def texts_of(value) -> list[Bilingual]:
    """Every Bilingual inside a lesson (its questions and choices included)."""
    if isinstance(value, Bilingual):
        return [value]
    if dataclasses.is_dataclass(value):
        return [t for f in dataclasses.fields(value) for t in texts_of(getattr(value, f.name))]
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in texts_of(item)]
    return []


def missing_translations() -> int:
    """Texts whose Chinese is empty or the English left as it is, and tab strings without Chinese."""
    missing = sum(1 for lesson in LESSONS for t in texts_of(lesson)
                  if not t.zh.strip() or (t.zh == t.en and LETTERS.search(t.en)))
    for key in LESSON_KEYS:
        try:
            text("zh-CN", key)
        except KeyError:
            missing += 1
    return missing


def open_times_ms(registry: ModelRegistry) -> list[float]:
    """Per lesson and language: milliseconds to build the views it shows, none cached by the tab."""
    times = []
    for lang in ("en", "zh-CN"):
        for lesson in LESSONS:
            start = time.perf_counter()
            for key in lesson.views:
                VIEWS[key](registry, lang)
            times.append((time.perf_counter() - start) * 1000)
    return times


def claims(registry: ModelRegistry) -> list:
    """Every claim of every lesson in both languages."""
    return [claim for lang in ("en", "zh-CN") for lesson in LESSONS for claim in lesson_claims(registry, lesson, lang)]


@contextmanager
def _set(module, **values):
    """`module`'s attributes set to `values` for the block, then put back."""
    before = {name: getattr(module, name) for name in values}
    for name, value in values.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(module, name, value)


def run_claims(quick: bool) -> list:
    """The claims of the findings every live run of the lessons wrote into its reveal, in both languages."""
    if not quick:
        return [claim for key in live.LIVE for lang in ("en", "zh-CN")
                for claim in list(live.run(Workspace(f"bench-{key}"), key, lang))[-1].claims]
    small = get_lab("float-mask").resized(
        model_changes=dict(d_model=32, d_ff=64), train_changes=dict(max_steps=30, warmup_steps=5), rounds=3)
    with _set(recipes, EVENT_EVERY_S=0.0, EVAL_EVERY_S=0.5, SNAPSHOT_EVERY_S=0.5), \
            _set(live, UPDATE_EVERY_S=0.0, COPY_GOAL=0.0, RHYME_GOAL=3.0), \
            _set(lab_session, get_lab=lambda lab_id: small):
        return [claim for key in live.LIVE for lang in ("en", "zh-CN")
                for claim in list(live.run(Workspace(f"bench-{key}"), key, lang))[-1].claims]


def run(quick: bool) -> list[dict]:
    configure_torch()
    warm_up()                      # what the app does when its first page loads
    registry = ModelRegistry()
    times = open_times_ms(registry)
    checked = claims(registry)
    shown = run_claims(quick)
    return [
        {"suite": SUITE, "name": "lessons_count", "value": len(LESSONS), "unit": "lessons", "goal": 15,
         "better": "higher"},
        {"suite": SUITE, "name": "lesson_open_ms_p95", "value": round(float(np.percentile(times, 95)), 1),
         "unit": "ms", "goal": 1000, "better": "lower", "max_ms": round(max(times), 1)},
        {"suite": SUITE, "name": "lessons_missing_translations", "value": missing_translations(), "unit": "texts",
         "goal": 0, "better": "lower"},
        {"suite": SUITE, "name": "lesson_claims_checked", "value": len(checked), "unit": "claims",
         "better": "higher", "languages": 2},
        {"suite": SUITE, "name": "lesson_claims_mismatched", "value": sum(not c.holds for c in checked),
         "unit": "claims", "goal": 0, "better": "lower",
         "mismatched": [c.what for c in checked if not c.holds][:10]},
        {"suite": SUITE, "name": "run_claims_shown", "value": sum(bool(c.holds) for c in shown), "unit": "claims",
         "goal": 8, "better": "higher", "languages": 2, "runs": len(live.LIVE),
         "mismatched": [str(c) for c in shown if not c.holds][:10]},
    ]
