"""A class of 30 starting trainings on a ZeroGPU Space (part of `python -m playground.bench app`; on
its own: `python -m playground.bench.zerogpu_class [--quick]`).

The app is served as on ZeroGPU (playground.bench.zerogpu_app: the real `spaces` package, its
chunks in forked workers), against a fake control API (playground.bench.zerogpu_platform) answering
like the platform: each GPU call waits QUEUE_S in its queue, a new worker takes WORKER_START_S to
start (the platform's CUDA start and weight transfer), and a chunk trains CHUNK_SECONDS; the node is of
the current kind (GPU_MODEL: `spaces` asks for 1.5 times a call's duration there). There is no
GPU here: the workers train on this machine's CPU at the lowest priority, standing in for the GPU;
on a Space the Space's CPU only waits for them. PLAYGROUND_TRAINING_SLOTS is left at its ZeroGPU
default.

class_30_starts_seconds_to_last_progress: 30 students (gradio_client sessions) press Start on the
copy preset at random moments within START_WINDOW_S; seconds from the first press until the 30th
student sees its first progress point. Each student presses Stop once it has seen that point (a
class told "press Start and watch the first point"): the measure is of starting, not of a run's
length, which on the platform's GPU differs from this CPU's. Stop is pressed as the page does it: the
run's event is cancelled (/cancel, which frees its training slot) and /train_stop ends the run and
shows its published model. Beside it: how many students waited for a training slot, and how many of those the queue told their place in line and an estimate of the wait;
the median seconds a student waited for a slot, from the slot to its first point, and its Stop took;
the GPU calls the class made, the seconds each asked for, and how long each held its GPU.

viewer_p95_ms_during_30_starts: meanwhile ten other sessions ask for the Attention tab's view every
PERIOD_S seconds (as in playground.bench.app_training); the 95th percentile of their wall time.

Timings are wall clock on whatever else the machine runs; load_avg_1m says how busy it was.
"""
from __future__ import annotations

import os
import random
import signal
import threading
import time

import numpy as np
from gradio_client import Client
from gradio_client.utils import Status

from playground.bench.app import AppProcess
from playground.bench.app_training import STEP, Viewer, copy_form, environment, page_view
from playground.bench.common import proc_stat, result, run_alone
from playground.bench.fairness import TRUST_FORWARDED, student_address
from playground.bench.zerogpu_app import GPU_MODEL, QUEUE_S, WORKER_START_S
from playground.bench.zerogpu_platform import Answer, ControlApi, platform_environment

SUITE = "app"
STUDENTS = 30
START_WINDOW_S = 10.0          # the class presses Start within this
VIEWERS = {False: 10, True: 5}
DEADLINE_S = 600.0             # the whole class, at most
GOAL_S = 30.0
VIEWER_GOAL_MS = 2000.0
CLIENT_TIMEOUT_S = 120.0       # a student's page waits this long for an answer
POLL_S = 0.1                   # how often a student looks at its run's status and outputs


class Student(threading.Thread):
    """Presses Start at `at` (perf_counter, set before it starts), waits for the first progress
    point, then presses Stop; from an address of its own, as each student's browser comes through
    a Space's proxy. While its run waits for a training slot, it notes whether the queue told it
    its place in line (`waited`, `told_place`) and an estimate of the wait (`told_eta`)."""

    def __init__(self, client: Client):
        super().__init__(daemon=True)
        self.at = 0.0
        self.client = client
        self.pressed: float | None = None
        self.slot_at: float | None = None      # when its run took a training slot (its event started)
        self.progress_at: float | None = None
        self.stop_s: float | None = None       # how long its Stop took
        self.waited = self.told_place = self.told_eta = False
        self.error: str | None = None          # the start's or the run's
        self.stop_error: str | None = None     # Stop's (it waits for the GPU call under way)

    def run(self) -> None:
        client = self.client
        job = None
        try:
            time.sleep(max(0.0, self.at - time.perf_counter()))
            self.pressed = time.perf_counter()
            job = client.submit(*copy_form(), api_name="/train_start")
            while self.progress_at is None and not job.done():
                self._note(job.status())
                if any(STEP.search(str(output[0] or "")) for output in job.outputs()):
                    self.progress_at = time.perf_counter()
                time.sleep(POLL_S)
            if job.done():
                job.result()                           # a run that ended early: its error, if any, counts
        except Exception as error:                     # every failure counts, whatever its kind
            self.error = f"{type(error).__name__}: {str(error)[:200]}"
        try:
            stopping = time.perf_counter()
            if job is not None and not job.done():
                job.cancel()                           # as the page's Stop: its run's event is cancelled, then Stop
            client.predict(*copy_form(), api_name="/train_stop")
            self.stop_s = time.perf_counter() - stopping
        except Exception as error:
            self.stop_error = f"{type(error).__name__}: {str(error)[:200]}"
        finally:
            client.close()

    def _note(self, status) -> None:
        if self.slot_at is None and status.code in (Status.PROCESSING, Status.ITERATING, Status.PROGRESS):
            self.slot_at = time.perf_counter()
        if status.code == Status.IN_QUEUE:
            self.waited = True
            self.told_place |= status.rank is not None
            self.told_eta |= status.eta is not None


def student_client(url: str, index: int | None = None) -> Client:
    """A student's page (the teacher's when `index` is None): a session of its own, from an address of
    its own, waiting up to CLIENT_TIMEOUT_S for an answer (a freshly started app on a busy machine
    takes longer than gradio_client's default to send its first page)."""
    headers = {} if index is None else {"X-Forwarded-For": student_address(index)}
    return Client(url, verbose=False, download_files=False, analytics_enabled=False, ssl_verify=False,
                  headers=headers, httpx_kwargs={"timeout": CLIENT_TIMEOUT_S})


def class_starts(url: str, quick: bool, api: ControlApi) -> list[dict]:
    view = page_view(student_client(url).config)
    rng = random.Random(0)
    presses = [rng.uniform(0, START_WINDOW_S) for _ in range(STUDENTS)]
    students = [Student(student_client(url, index)) for index in range(STUDENTS)]     # their pages open first
    first = time.perf_counter() + 1.0
    for student, press in zip(students, presses):
        student.at = first + press - min(presses)
    viewers = [Viewer(url, view, first + DEADLINE_S, seed) for seed in range(VIEWERS[quick])]
    for thread in (*students, *viewers):
        thread.start()
    for student in students:
        student.join(timeout=max(1.0, first + DEADLINE_S - time.perf_counter()))
    for viewer in viewers:
        viewer.end = time.perf_counter()               # the viewers stop with the class
    for viewer in viewers:
        viewer.join(timeout=120)
    seen = [s.progress_at for s in students if s.progress_at is not None]
    errors = [s.error for s in students if s.error]
    stop_errors = [s.stop_error for s in students if s.stop_error]
    last = max(seen) - first if len(seen) == STUDENTS else None
    times_ms = [t for v in viewers for t in v.latencies_ms]
    viewer_errors = [e for v in viewers for e in v.errors]
    context = dict(students=STUDENTS, start_window_s=START_WINDOW_S, queue_s=QUEUE_S, worker_start_s=WORKER_START_S,
                   load_avg_1m=round(os.getloadavg()[0], 2))
    return [
        result(SUITE, "class_30_starts_seconds_to_last_progress", last, "s", GOAL_S, "lower",
               saw_progress=len(seen), errors=len(errors), first_errors=errors[:3], stop_errors=len(stop_errors),
               first_stop_errors=stop_errors[:1],
               waited_for_a_slot=sum(s.waited for s in students), told_place=sum(s.told_place for s in students),
               told_estimate=sum(s.told_eta for s in students), **gpu_context(api),
               median_s_to_progress=median([s.progress_at - s.pressed for s in students if s.progress_at]),
               median_s_waiting_for_a_slot=median([s.slot_at - s.pressed for s in students if s.slot_at]),
               median_s_slot_to_progress=median([s.progress_at - s.slot_at for s in students
                                                 if s.progress_at and s.slot_at]),
               median_s_stop=median([s.stop_s for s in students if s.stop_s is not None]),
               **slots_context(), **context),
        result(SUITE, "viewer_p95_ms_during_30_starts", float(np.percentile(times_ms, 95)) if times_ms else None, "ms",
               VIEWER_GOAL_MS, "lower", calls=len(times_ms), errors=len(viewer_errors), first_errors=viewer_errors[:3],
               viewers=VIEWERS[quick], **context),
    ]


def median(values: list[float]) -> float | None:
    return round(float(np.median(values)), 2) if values else None


def gpu_context(api: ControlApi) -> dict:
    """The GPU calls the class made: how many, the seconds each asked for (the node's duration factor
    applied by `spaces`), the median seconds a GPU was held (what the platform charges), failed ones."""
    asked = sorted({schedule.duration_s for schedule in api.schedules})
    return {"gpu_calls": len(api.schedules), "gpu_seconds_asked_per_call": asked,
            "gpu_held_s_median": median(api.held_s),
            "gpu_calls_failed": sum(api.released), "gpu_model": GPU_MODEL}


def slots_context() -> dict:
    """The trainings at once the app allows as on ZeroGPU, and the length of a chunk."""
    with environment(SPACES_ZERO_GPU="true"):
        from playground.train.zerogpu import CHUNK_SECONDS
        from playground.ui.page.context import training_slots
        return {"training_slots": training_slots(), "chunk_seconds": CHUNK_SECONDS}


def run(quick: bool) -> list[dict]:
    with ControlApi([Answer("queue", queue_s=QUEUE_S)]) as api:
        variables = {**platform_environment(api.url), "PLAYGROUND_TRAINING_SLOTS": "", **TRUST_FORWARDED}
        with environment(**variables):
            app = AppProcess(("-m", "playground.bench.zerogpu_app"))
        try:
            return class_starts(app.url, quick, api)
        finally:
            workers = workers_of(app.process.pid)     # the GPU workers `spaces` forked: gone with the app
            app.stop()
            end(workers)


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux; none elsewhere)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
        except OSError:
            continue
    return found


def started_at(pid: int) -> str | None:
    """When process `pid` started (in clock ticks since boot: /proc's stat), None once it has ended."""
    fields = proc_stat(pid)
    return None if fields is None else fields[19]


def workers_of(pid: int) -> dict[int, str]:
    """The processes `pid` started, each with when it started (for `end`)."""
    return {child: started for child in children(pid) if (started := started_at(child)) is not None}


def end(workers: dict[int, str]) -> None:
    """Kill each of `workers` (workers_of) still running. A process number the system has given to a new
    process since (numbers are reused once they wrap around) is left alone: its start time differs."""
    for pid, started in workers.items():
        if started_at(pid) == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main(argv: list[str] | None = None) -> int:
    return run_alone("python -m playground.bench.zerogpu_class", __doc__.splitlines()[0], run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
