"""`python -m playground.bench soak`: whether the server's memory levels off over a day of classes.

A class of 30 students on edited inputs (playground.bench.app's ClassStudent with edits) acts every
2 s through four phases, as a day goes: churn (every ROUND_S a new class of 30 sessions, as students
come and go, so the sessions seen run far beyond what the server keeps), steady (the same 30
sessions), idle (nothing at all), and steady again. Beside them, outside the idle phase, every
TRAINING_EVERY_S a new session trains the copy preset for TRAINING_S (two at once at most), and
every UPLOAD_EVERY_S a new session uploads a checkpoint. The full run takes 17 minutes, --quick 3.

Measured from the server process's resident memory (VmRSS), read every SAMPLE_S:
soak_rss_mib_growth_per_min_last_10_min (its median over the last minute against its median over
the minute ten minutes before the end, per minute; with --quick over the run's last two minutes;
goal 5), soak_rss_mib_peak (goal 1,200), soak_errors (every failed call, training or upload; goal 0)
and soak_rss_mib_after_idle (its median over the idle phase's last readings, next to the same before
the idle phase: what the server gave back). Only localhost is contacted; every loop is bounded in
count and time.
"""
from __future__ import annotations

import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from gradio_client import handle_file

from playground.bench import load
from playground.bench.app import PERIOD_S, AppProcess, ClassStudent, local_client, teacher_opens
from playground.bench.common import result

SUITE = "soak"
STUDENTS = 30
PHASES_S = {False: {"churn": 6 * 60.0, "steady": 4 * 60.0, "idle": 2 * 60.0, "steady again": 5 * 60.0},
            True: {"churn": 60.0, "steady": 45.0, "idle": 30.0, "steady again": 45.0}}
ROUND_S = {False: 30.0, True: 15.0}  # in the churn phase, each round is 30 new sessions
WINDOW_S = {False: 10 * 60.0, True: 2 * 60.0}     # growth over the run's last ten minutes
SAMPLE_S = 2.0                      # how often the server's memory is read
MEDIAN_OVER_S = {False: 60.0, True: 20.0}          # each end of the window: the median of these readings
IDLE_TAIL_S = 10.0                  # RSS before and after the idle phase: the median of its readings over this
TRAINING_EVERY_S = 150.0
TRAINING_S = 40.0
UPLOAD_EVERY_S = 60.0
GROWTH_GOAL_MIB_PER_MIN = 5.0
PEAK_GOAL_MIB = 1200.0
UPLOADED_MODEL = Path(__file__).resolve().parents[2] / "pretrained" / "copy" / "model.safetensors"


def rss_mib(pid: int) -> float | None:
    """The process's resident memory in MiB (None where /proc cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def growth_over_window(samples: list[tuple[float, float]], end: float, window_s: float = WINDOW_S[False],
                       median_over_s: float = MEDIAN_OVER_S[False]) -> float | None:
    """How much the readings (time, MiB) grew over the `window_s` before `end`: the median of the last
    `median_over_s` against the median of the same span `window_s` earlier (None without readings in both)."""
    late = [mib for at, mib in samples if end - median_over_s <= at <= end]
    early = [mib for at, mib in samples if end - window_s - median_over_s <= at <= end - window_s]
    if not late or not early:
        return None
    return statistics.median(late) - statistics.median(early)


class MemoryReader(threading.Thread):
    """Reads a process's resident memory every SAMPLE_S until stopped."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.done = pid, [], threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            mib = rss_mib(self.pid)
            if mib is not None:
                self.samples.append((time.perf_counter(), mib))
            self.done.wait(SAMPLE_S)


class SideWork(threading.Thread):
    """Trainings and uploads in sessions of their own, on their timers, until stopped."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.done, self.paused = url, threading.Event(), threading.Event()
        self.trainings = self.uploads = 0
        self.errors: list[str] = []

    def run(self) -> None:
        from playground.bench.app_training import Training  # it builds on playground.bench.app
        start = time.perf_counter()
        next_training, next_upload = start, start + UPLOAD_EVERY_S / 2
        running: list[tuple[float, Training]] = []
        with tempfile.TemporaryDirectory() as folder:
            upload = Path(folder) / "soak model.safetensors"
            upload.write_bytes(UPLOADED_MODEL.read_bytes())
            while not self.done.wait(1.0):
                now = time.perf_counter()
                if self.paused.is_set():                  # idle: what runs stops, nothing new starts
                    for item in list(running):
                        self._quietly(item[1].stop)
                        running.remove(item)
                    next_training, next_upload = now, now + UPLOAD_EVERY_S / 2
                    continue
                for begun, training in [item for item in running if now - item[0] >= TRAINING_S]:
                    self._quietly(training.stop)
                    running.remove((begun, training))
                if now >= next_training and len(running) < 2:
                    self._quietly(lambda: running.append((now, self._begun(Training(self.url)))))
                    next_training = now + TRAINING_EVERY_S
                if now >= next_upload:
                    self._quietly(lambda: self._upload(upload))
                    next_upload = now + UPLOAD_EVERY_S
            for _, training in running:
                self._quietly(training.stop)

    def _begun(self, training):
        """`training` started and counted (a training whose start fails is an error, and the soak goes on)."""
        training.start()
        self.trainings += 1
        return training

    def _upload(self, path: Path) -> None:
        client = local_client(self.url)
        try:
            client.predict(handle_file(str(path)), "en", api_name="/upload_model")
            self.uploads += 1
        finally:
            client.close()

    def _quietly(self, work) -> None:
        try:
            work()
        except Exception as error:                  # counted and reported, the soak goes on
            self.errors.append(f"{type(error).__name__}: {str(error)[:120]}")


def median_between(samples: list[tuple[float, float]], start: float, end: float) -> float | None:
    readings = [mib for at, mib in samples if start <= at <= end]
    return statistics.median(readings) if readings else None


def run(quick: bool) -> list[dict]:
    phases = PHASES_S[quick]
    if not UPLOADED_MODEL.is_file():
        raise RuntimeError(f"{UPLOADED_MODEL} is missing: the soak uploads the shipped copy model")
    from playground.bench.app_training import environment  # it builds on playground.bench.app
    with environment(PLAYGROUND_TRAINING_SLOTS="2"):
        app = AppProcess()
    memory, side = MemoryReader(app.process.pid), SideWork(app.url)
    calls, errors, sessions, seed = 0, [], 0, 1000
    bounds: dict[str, tuple[float, float]] = {}

    def behaviour(rng: random.Random, student: int) -> ClassStudent:
        return ClassStudent(choices, "zh-CN" if student % 3 == 2 else "en", rng, edits=True)

    def a_class(duration_s: float) -> None:
        nonlocal calls, errors, sessions, seed
        seed += 1
        class_run = load.run_class(app.url, behaviour, STUDENTS, duration_s, PERIOD_S, seed=seed)
        calls += len(class_run.results)
        errors += [r.error for r in class_run.results if not r.ok]
        sessions += STUDENTS

    try:
        choices = teacher_opens(app.url)
        memory.start()
        side.start()
        for phase, duration_s in phases.items():
            begun = time.perf_counter()
            if phase == "churn":
                for _ in range(int(duration_s // ROUND_S[quick])):
                    a_class(ROUND_S[quick])
            elif phase == "idle":
                side.paused.set()
                time.sleep(duration_s)
                side.paused.clear()
            else:
                a_class(duration_s)
            bounds[phase] = (begun, time.perf_counter())
        end = time.perf_counter()
    finally:
        for thread, limit_s in ((side, 120), (memory, 30)):
            thread.done.set()
            if thread.ident is not None:            # started: the teacher's page may have failed first
                thread.join(timeout=limit_s)
        app.stop()
    samples, window_s = memory.samples, WINDOW_S[quick]
    growth = growth_over_window(samples, end, window_s, MEDIAN_OVER_S[quick])
    idle_start, idle_end = bounds["idle"]
    before_idle = median_between(samples, idle_start - IDLE_TAIL_S, idle_start)
    after_idle = median_between(samples, idle_end - IDLE_TAIL_S, idle_end)
    readings = [mib for _, mib in samples]
    all_errors = errors + side.errors
    context = dict(duration_s=round(end - bounds["churn"][0]), phases_s=phases, students=STUDENTS,
                   sessions=sessions + side.trainings + side.uploads, calls=calls, trainings=side.trainings,
                   uploads=side.uploads, rss_start_mib=round(readings[0], 1), rss_peak_mib=round(max(readings), 1),
                   rss_end_mib=round(readings[-1], 1), window_min=window_s / 60, cpus=os.cpu_count(),
                   load_avg_1m=round(os.getloadavg()[0], 2))
    per_min = None if growth is None else growth / (window_s / 60)
    return [result(SUITE, "soak_rss_mib_growth_per_min_last_10_min", per_min, "MiB/min", GROWTH_GOAL_MIB_PER_MIN,
                   "lower", **context),
            result(SUITE, "soak_rss_mib_peak", max(readings), "MiB", PEAK_GOAL_MIB, "lower", **context),
            result(SUITE, "soak_errors", len(all_errors), "errors", 0, "lower", first_errors=all_errors[:3], **context),
            result(SUITE, "soak_rss_mib_after_idle", after_idle, "MiB", None, "lower",
                   rss_mib_before_idle=None if before_idle is None else round(before_idle, 1), **context)]
