"""Helpers shared by the benchmark suites."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def result(suite: str, name: str, value: float | None, unit: str, goal: float | None, better: str, **context) -> dict:
    """One benchmark line: {"suite", "name", "value", "unit", "goal", "better", ...context}.

    value None (JSON null) says the metric was not measured, e.g. a goal not reached within the run;
    the context says why.
    """
    rounded = None if value is None else round(float(value), 3)
    line = {"suite": suite, "name": name, "value": rounded, "unit": unit, "goal": goal, "better": better}
    line.update(context)
    return line


def seconds(fn: Callable[[], object]) -> float:
    """Wall seconds one call of `fn` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def alternate(first: Callable[[], object], second: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Median wall seconds of `first` and of `second`, timed alternately so drift hits both alike."""
    first_times, second_times = [], []
    for _ in range(rounds):
        first_times.append(seconds(first))
        second_times.append(seconds(second))
    return statistics.median(first_times), statistics.median(second_times)
