"""Live training in the served app (part of `python -m playground.bench app`).

train_ui_overhead_pct: optimisation steps per second of the copy preset trained through the app
(`python app.py`, a gradio_client session streaming every update) against the bare Trainer in
this process with the same settings, thread count and priority, as 100 * (1 - app / bare). Both
rates are measured between the first and the last progress update of a window, evaluations and
snapshots included; bare and app windows alternate so drifting load hits both alike. On a shared,
busy machine wall-clock rates are noisy, so the context also gives cpu_overhead_pct: the same
comparison per CPU-second (the server's, less what it uses when idle).

viewer_p95_ms_during_2_trainings: with two trainings running (PLAYGROUND_TRAINING_SLOTS=2), ten
sessions ask for the Attention tab's view of its first model (its examples, shortened as students
shorten them, another layer and head) every PERIOD_S seconds; the 95th percentile of their wall
time. Null when a training ended or stalled while the viewers measured (trainings_running says which).

copy_preset_seconds_to_exact99_in_app: seconds from pressing Start (the request) on the copy
preset to the first update whose held-out exact match is at least 99%. Not reaching it within
one run (RUN_SECONDS) reports null, with reached=false and the seconds the run lasted.

The numbers are read from the status text the page shows (English).
"""
from __future__ import annotations

import os
import random
import re
import statistics
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch

from playground.bench.app import PERIOD_S, AppProcess, local_client
from playground.bench.common import result
from playground.train import TrainEvent
from playground.ui.session.threads import training_threads
from playground.ui.session.training import RUN_SECONDS, build_trainer
from playground.ui.session.worker import lower_priority
from playground.ui.tabs.train import TrainForm

SUITE = "app"
TASK = "copy"
WINDOW_S = {False: 20.0, True: 8.0}            # one throughput measurement
IDLE_S = 5.0
ROUNDS = {False: 3, True: 1}
VIEWERS = 10
VIEWING_S = {False: 45.0, True: 15.0}
OVERHEAD_GOAL_PCT = 15.0
VIEWER_P95_GOAL_MS = 2000.0
EXACT99_GOAL_S = 20.0
EXACT_TARGET = 99.0
SLOTS = "2"
STEP = re.compile(r"step \*\*(\d+)\*\*")                 # strings_en "train_progress"
EXACT = re.compile(r"exact match \*\*([\d.]+)%\*\*")     # strings_en "train_exact"


def copy_form() -> list:
    """The Train tab's inputs for the copy preset, as a user leaves them."""
    form = copy_train_form()
    return [*(getattr(form, name) for name in TrainForm.params()), "en"]


def copy_train_form() -> TrainForm:
    return TrainForm(task=TASK).with_task_defaults()


def copy_spec():
    return copy_train_form().spec("en")


def _rate(points: list[tuple[float, int]]) -> float:
    """Steps per second between the first and the last (seconds, step) point."""
    (t0, s0), (t1, s1) = points[0], points[-1]
    return (s1 - s0) / (t1 - t0) if t1 > t0 else 0.0


@dataclass(frozen=True)
class Window:
    """Progress between the first and the last update of a measurement: steps, wall and CPU seconds."""

    steps: int
    wall_s: float
    cpu_s: float
    updates: int

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.wall_s

    @property
    def steps_per_cpu_s(self) -> float:
        return self.steps / self.cpu_s


def bare_window(window_s: float) -> Window:
    """The copy preset's Trainer run here as the app runs it: in a thread of its own, at the app's
    training priority and thread count."""
    points: list[tuple[float, float, int]] = []

    def train() -> None:
        lower_priority()
        torch.set_num_threads(training_threads())
        trainer = build_trainer(copy_spec(), None, "en")
        started = time.perf_counter()
        for item in trainer.run(max_seconds=window_s + 5):
            if isinstance(item, TrainEvent):
                points.append((time.perf_counter(), time.process_time(), item.step))
                if time.perf_counter() - started >= window_s:
                    break

    worker = threading.Thread(target=train)
    worker.start()
    worker.join()
    (w0, c0, s0), (w1, c1, s1) = points[0], points[-1]
    return Window(s1 - s0, w1 - w0, c1 - c0, len(points))


def app_window(app: AppProcess, window_s: float) -> Window:
    """The copy preset trained through the app by one session streaming every update; CPU is the server's."""
    client = local_client(app.url)
    job = client.submit(*copy_form(), api_name="/train_start")
    points, updates, started = [], 0, time.perf_counter()
    for output in job:
        updates += 1
        match = STEP.search(output[0] or "")
        if match:
            points.append((time.perf_counter(), app.cpu_seconds(), int(match.group(1))))
        if time.perf_counter() - started >= window_s:
            break
    client.predict(*copy_form(), api_name="/train_stop")
    job.result(timeout=60)
    client.close()
    (w0, c0, s0), (w1, c1, s1) = points[0], points[-1]
    return Window(s1 - s0, w1 - w0, c1 - c0, len(points))


def idle_cores(app: AppProcess, seconds: float = IDLE_S) -> float:
    """CPU the server uses while nothing happens (Gradio's own polling), in cores."""
    before = app.cpu_seconds()
    time.sleep(seconds)
    return (app.cpu_seconds() - before) / seconds


def overhead(app: AppProcess, quick: bool) -> dict:
    """Bare and served windows alternately; the medians of their rates. The CPU-based overhead
    leaves out the server's idle CPU, so it is what the training stream itself adds."""
    idle = idle_cores(app)
    bare, served = [], []
    for _ in range(ROUNDS[quick]):
        bare.append(bare_window(WINDOW_S[quick]))
        served.append(app_window(app, WINDOW_S[quick]))

    def median(windows: list[Window], rate: str) -> float:
        return statistics.median(getattr(w, rate) for w in windows)

    served_cpu = [Window(w.steps, w.wall_s, w.cpu_s - idle * w.wall_s, w.updates) for w in served]
    wall = 100 * (1 - median(served, "steps_per_s") / median(bare, "steps_per_s"))
    cpu = 100 * (1 - median(served_cpu, "steps_per_cpu_s") / median(bare, "steps_per_cpu_s"))
    return result(SUITE, "train_ui_overhead_pct", wall, "%", OVERHEAD_GOAL_PCT, "lower",
                  bare_steps_per_s=round(median(bare, "steps_per_s"), 2),
                  app_steps_per_s=round(median(served, "steps_per_s"), 2),
                  cpu_overhead_pct=round(cpu, 1), server_idle_cores=round(idle, 3),
                  progress_updates_per_s=round(statistics.median(w.updates / w.wall_s for w in served), 2),
                  window_s=WINDOW_S[quick], rounds=ROUNDS[quick], training_threads=training_threads(),
                  load_avg_1m=round(os.getloadavg()[0], 2))


class Training(threading.Thread):
    """One session training the copy preset in the app until stopped; counts its progress updates."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.client = local_client(url)
        self.job = self.client.submit(*copy_form(), api_name="/train_start")
        self.steps: list[tuple[float, int]] = []

    def run(self) -> None:
        for output in self.job:
            match = STEP.search(output[0] or "")
            if match:
                self.steps.append((time.perf_counter(), int(match.group(1))))

    def trained_throughout(self, start: float) -> bool:
        """Still training at the end of a window that began at `start`: its stream has not ended and
        it reported steps after `start` beyond the last one before it."""
        before = [step for at, step in self.steps if at < start]
        after = [step for at, step in self.steps if at >= start]
        return not self.job.done() and bool(after) and (not before or after[-1] > before[-1])

    def reached_its_last_step(self) -> bool:
        """Its run has ended at its last step (the Train form's steps): a run's own end, on a fast machine."""
        last_step = copy_train_form().steps
        return self.job.done() and bool(self.steps) and self.steps[-1][1] >= last_step

    def stop(self) -> None:
        self.client.predict(*copy_form(), api_name="/train_stop")
        self.join(timeout=60)
        self.client.close()


def page_view(config: dict) -> tuple[str, list[str], str, str]:
    """The Attention tab as the page opens: its model, that model's example texts, its kind and score."""
    props = {c["props"].get("elem_id"): c["props"] for c in config["components"] if "props" in c}
    model = props["attention-model"]["value"]
    texts = [text for name, text in props["attention-examples"]["samples"] if name == model]
    return model, texts, props["attention-kind"]["value"], props["attention-score"]["value"]


class Viewer(threading.Thread):
    """One session asking for the page's attention view every PERIOD_S seconds until `end`."""

    def __init__(self, url: str, view: tuple[str, list[str], str, str], end: float, seed: int):
        super().__init__(daemon=True)
        self.client, self.view, self.end = local_client(url), view, end
        self.rng = random.Random(seed)
        self.latencies_ms: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        model, texts, kind, score = self.view
        next_at = time.perf_counter() + self.rng.uniform(0, PERIOD_S)
        while next_at < self.end:
            time.sleep(max(0.0, next_at - time.perf_counter()))
            text = self.rng.choice(texts)
            text = text[:self.rng.randint(min(3, len(text)), len(text))]      # students shorten the example
            started = time.perf_counter()
            try:
                self.client.predict(model, text, "", kind, self.rng.randint(0, 1), self.rng.randint(0, 1), False,
                                    score, "en", api_name="/attention")
                self.latencies_ms.append(1000 * (time.perf_counter() - started))
            except Exception as error:               # every failure counts, whatever its kind
                self.errors.append(f"{type(error).__name__}: {str(error)[:200]}")
            next_at += PERIOD_S
        self.client.close()


def viewers_during_trainings(url: str, quick: bool) -> dict:
    trainings = [Training(url) for _ in range(2)]
    for training in trainings:
        training.start()
    deadline = time.perf_counter() + 120
    while any(not t.steps for t in trainings) and time.perf_counter() < deadline:
        time.sleep(0.2)
    view = page_view(local_client(url).config)
    start = time.perf_counter()
    end = start + VIEWING_S[quick]
    viewers = [Viewer(url, view, end, seed) for seed in range(VIEWERS)]
    for viewer in viewers:
        viewer.start()
    for viewer in viewers:
        viewer.join(timeout=VIEWING_S[quick] + 120)
    running = [training.trained_throughout(start) for training in trainings]
    for training in trainings:
        training.stop()
    return viewer_line([t for v in viewers for t in v.latencies_ms], [e for v in viewers for e in v.errors], running,
                       model=view[0], viewers=VIEWERS, period_s=PERIOD_S, duration_s=VIEWING_S[quick],
                       training_steps_per_s=[round(_rate(t.steps), 2) for t in trainings],
                       load_avg_1m=round(os.getloadavg()[0], 2))


def viewer_line(times_ms: list[float], errors: list[str], trainings_running: list[bool], **context) -> dict:
    """The viewers' p95 latency; null unless every training kept running while they measured."""
    if not times_ms:
        raise RuntimeError(f"no attention view succeeded during the trainings: {errors[:3]}")
    p95 = float(np.percentile(times_ms, 95)) if all(trainings_running) else None
    return result(SUITE, "viewer_p95_ms_during_2_trainings", p95, "ms", VIEWER_P95_GOAL_MS, "lower",
                  trainings_running=trainings_running, calls=len(times_ms), errors=len(errors),
                  first_errors=errors[:3], p50_ms=round(float(np.percentile(times_ms, 50)), 1), **context)


def seconds_to_exact99(url: str) -> dict:
    client = local_client(url)
    started = time.perf_counter()
    job = client.submit(*copy_form(), api_name="/train_start")
    best, reached_at, steps = 0.0, None, 0
    for output in job:
        exact, step = EXACT.search(output[0] or ""), STEP.search(output[0] or "")
        steps = int(step.group(1)) if step else steps
        if exact:
            best = max(best, float(exact.group(1)))
            if best >= EXACT_TARGET:
                reached_at = time.perf_counter() - started
                break
    client.predict(*copy_form(), api_name="/train_stop")
    job.result(timeout=60)
    client.close()
    return exact99_line(reached_at, time.perf_counter() - started, best, steps)


def exact99_line(reached_at: float | None, elapsed_s: float, best_exact_pct: float, steps: int) -> dict:
    """The seconds to 99% exact match, or null when the run ended before reaching it."""
    return result(SUITE, "copy_preset_seconds_to_exact99_in_app", reached_at, "s", EXACT99_GOAL_S, "lower",
                  reached=reached_at is not None, elapsed_s=round(elapsed_s, 1), best_exact_pct=best_exact_pct,
                  steps=steps, run_cap_s=RUN_SECONDS, load_avg_1m=round(os.getloadavg()[0], 2))


@contextmanager
def environment(**values: str):
    """os.environ with `values` set, restored afterwards (the app process inherits it)."""
    previous = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run(quick: bool) -> list[dict]:
    with environment(PLAYGROUND_TRAINING_SLOTS=SLOTS):
        app = AppProcess()
    try:
        return [overhead(app, quick), seconds_to_exact99(app.url), viewers_during_trainings(app.url, quick)]
    finally:
        app.stop()
