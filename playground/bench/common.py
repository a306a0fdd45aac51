"""Helpers shared by the benchmark suites."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
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


def proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the process's name (its state first: the name, in
    parentheses, may hold spaces), None once the process has ended (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


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


def run_alone(prog: str, description: str, run: Callable[[bool], list[dict]], argv: list[str] | None = None) -> int:
    """`python -m <prog> [--quick]`: one benchmark's lines alone, one JSON line each (the suite that
    holds it measures them too)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--quick", action="store_true", help="fewer repeats; every metric is still measured")
    args = parser.parse_args(argv)
    for line in run(args.quick):
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
    return 0
