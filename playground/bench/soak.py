"""`python -m playground.bench soak`: whether the server's memory levels off over a day of classes.

A class of 30 students on edited inputs (playground.bench.app's ClassStudent with edits) acts every
2 s for 30 minutes (12 with --quick), in rounds of a minute; each round is 30 new sessions, as
students come and go (so the sessions seen run far beyond what the server keeps: it forgets the
least recently used). Beside them, every TRAINING_EVERY_S a new session trains the copy preset for
TRAINING_S (two at once at most), and every UPLOAD_EVERY_S a new session uploads a checkpoint.

soak_rss_mib_growth_last_10_min: the server process's resident memory (VmRSS) over the last ten
minutes of the run: its median over the last minute against its median over the minute ten
minutes before the end (goal: under 50 MiB). The run's start, peak and end, the sessions, calls,
errors, trainings and uploads are reported beside it. Only localhost is contacted; every loop is
bounded in count and time.
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
ROUND_S = 60.0                      # each round: 30 new sessions
DURATION_S = {False: 30 * 60.0, True: 12 * 60.0}
WINDOW_S = 10 * 60.0                # growth over the last ten minutes
SAMPLE_S = 5.0                      # how often the server's memory is read
MEDIAN_OVER_S = 60.0                # each end of the window: the median of a minute's readings
TRAINING_EVERY_S = 150.0
TRAINING_S = 40.0
UPLOAD_EVERY_S = 60.0
GROWTH_GOAL_MIB = 50.0
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


def growth_over_window(samples: list[tuple[float, float]], end: float, window_s: float = WINDOW_S,
                       median_over_s: float = MEDIAN_OVER_S) -> float | None:
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
        self.url, self.done = url, threading.Event()
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
                for begun, training in [item for item in running if now - item[0] >= TRAINING_S]:
                    self._quietly(training.stop)
                    running.remove((begun, training))
                if now >= next_training and len(running) < 2:
                    running.append((now, Training(self.url)))
                    running[-1][1].start()
                    self.trainings += 1
                    next_training = now + TRAINING_EVERY_S
                if now >= next_upload:
                    self._quietly(lambda: self._upload(upload))
                    next_upload = now + UPLOAD_EVERY_S
            for _, training in running:
                self._quietly(training.stop)

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


def run(quick: bool) -> list[dict]:
    duration_s = DURATION_S[quick]
    if not UPLOADED_MODEL.is_file():
        raise RuntimeError(f"{UPLOADED_MODEL} is missing: the soak uploads the shipped copy model")
    from playground.bench.app_training import environment  # it builds on playground.bench.app
    with environment(PLAYGROUND_TRAINING_SLOTS="2"):
        app = AppProcess()
    memory, side = MemoryReader(app.process.pid), SideWork(app.url)
    calls, errors, sessions = 0, [], 0
    try:
        choices = teacher_opens(app.url)
        memory.start()
        side.start()
        start = time.perf_counter()
        rounds = int(duration_s // ROUND_S)
        for index in range(rounds):
            def behaviour(rng: random.Random, student: int) -> ClassStudent:
                return ClassStudent(choices, "zh-CN" if student % 3 == 2 else "en", rng, edits=True)

            round_run = load.run_class(app.url, behaviour, STUDENTS, ROUND_S, PERIOD_S, seed=1000 + index)
            calls += len(round_run.results)
            errors += [r.error for r in round_run.results if not r.ok]
            sessions += STUDENTS
        end = time.perf_counter()
    finally:
        side.done.set()
        side.join(timeout=120)
        memory.done.set()
        memory.join(timeout=30)
        app.stop()
    readings = [mib for _, mib in memory.samples]
    growth = growth_over_window(memory.samples, end)
    context = dict(duration_s=round(end - start), students=STUDENTS, sessions=sessions + side.trainings + side.uploads,
                   calls=calls, errors=len(errors) + len(side.errors), first_errors=(errors + side.errors)[:3],
                   trainings=side.trainings, uploads=side.uploads, rss_start_mib=round(readings[0], 1),
                   rss_peak_mib=round(max(readings), 1), rss_end_mib=round(readings[-1], 1), cpus=os.cpu_count())
    return [result(SUITE, "soak_rss_mib_growth_last_10_min", growth, "MiB", GROWTH_GOAL_MIB, "lower", **context)]
