"""`python -m playground.bench app`: how fast `python app.py` serves its page, and how it answers a class.

cold_start_s: seconds from starting `python app.py` (a subprocess on a free localhost port) to the
first HTTP 200 of the page; the median of a few starts.

For N = 1, 10 and 30 students at once, each a gradio_client Client in its own thread, for a
minute (15 s with --quick): every 2 s a student asks for an attention view or a generation step,
with inputs varied the way students vary them (an example cut shorter, another model, layer, head,
decoding settings; a fresh prompt once a generation has finished). Measured per N:
attention_p95_ms_N_sessions, generate_step_p95_ms_N_sessions (wall time of each call as the client
sees it) and errors_N_sessions (calls that failed).

The app serves its own models: the repository's pretrained/ checkpoints when there are any, and
its untrained ones; students pick among those through the examples the page offers. Only
localhost is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from gradio_client import Client

from playground.bench.common import result
from playground.ui.i18n import text

SUITE = "app"
REPO = Path(__file__).resolve().parents[2]
SESSION_COUNTS = (1, 10, 30)
PERIOD_S = 2.0                    # a student acts every 2 seconds
DURATION_S = {False: 60.0, True: 15.0}
COLD_STARTS = {False: 3, True: 1}
COLD_START_GOAL_S = 8.0
P95_GOAL_MS = 1000.0
START_LIMIT_S = 120.0             # a server that is not up by then is a failure
CALL_LIMIT_S = 60.0               # one call that takes longer counts as an error
MIN_CUT = 3                       # shortest piece of an example a student types


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AppProcess:
    """`python app.py` on a free localhost port; `started_s` is how long until the page answered 200."""

    def __init__(self):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(self.port),
               "GRADIO_ANALYTICS_ENABLED": "False"}
        start = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_for_page(start)
        except BaseException:
            self.stop()
            raise
        self.started_s = time.perf_counter() - start

    def _wait_for_page(self, start: float) -> None:
        while True:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"python app.py exited with status {self.process.returncode} before serving")
            if time.perf_counter() - start > START_LIMIT_S:
                raise RuntimeError(f"python app.py did not serve {self.url} within {START_LIMIT_S:.0f} s")
            time.sleep(0.05)

    def cpu_seconds(self) -> float | None:
        """CPU time the server process has used so far (user + system; None off Linux)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass(frozen=True)
class PageChoices:
    """What the page lets a student pick: example (model, text) pairs, the attention kinds and head
    scores its radios offer, and the status lines that end a generation."""

    attention_examples: list[tuple[str, str]]
    generate_examples: list[tuple[str, str]]
    kinds: list[str]
    scores: list[str]
    finished: tuple[str, ...]          # status lines that say a generation is over


def _component_props(config: dict, elem_id: str) -> dict:
    for component in config["components"]:
        if component.get("props", {}).get("elem_id") == elem_id:
            return component["props"]
    raise RuntimeError(f"the page has no component with elem_id {elem_id!r}")


def page_choices(config: dict) -> PageChoices:
    samples = {key: [(model, value) for model, value in _component_props(config, f"{key}-examples")["samples"]]
               for key in ("attention", "generate")}
    choice_values = {key: [value for _, value in _component_props(config, f"attention-{key}")["choices"]]
                     for key in ("kind", "score")}
    finished = tuple(text(lang, f"reason_{why}") for lang in ("en", "zh-CN") for why in ("eos", "budget", "context"))
    return PageChoices(samples["attention"], samples["generate"], choice_values["kind"], choice_values["score"],
                       finished)


def _cut(rng: random.Random, value: str) -> str:
    """A piece of an example, as a student shortens or edits it (never shorter than MIN_CUT)."""
    if len(value) <= MIN_CUT:
        return value
    length = rng.randint(MIN_CUT, len(value))
    start = rng.randint(0, len(value) - length)
    return value[start:start + length]


@dataclass
class Student:
    """One session: its own Client, its own random choices, the latency of every call it made."""

    client: Client
    rng: random.Random
    choices: PageChoices
    lang: str
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"attention": [], "generate_step": []})
    errors: list[str] = field(default_factory=list)
    prompt: tuple[str, str] | None = None     # (model, prompt) of the generation under way
    finished: tuple[str, str] | None = None   # (model, prompt) whose generation has finished
    turn: bool | None = None                   # whether the last action was an attention view

    def attention(self, model: str | None = None, value: str | None = None) -> None:
        """An attention view with a kind and score the page offers (the app shows a model's own
        when it lacks the ones asked)."""
        if model is None:
            model, value = self.rng.choice(self.choices.attention_examples)
            value = _cut(self.rng, value)
        kind = self.rng.choice(self.choices.kinds)
        score = self.rng.choice(self.choices.scores)
        self._call("attention", model, value, "", kind, self.rng.randint(0, 1), self.rng.randint(0, 1),
                   self.rng.random() < 0.2, score, self.lang)

    def generate_step(self) -> None:
        if self.prompt is None or self.rng.random() < 0.15:
            self.prompt = self._new_prompt()
        strategy = self.rng.choice(("greedy", "sample"))
        # top-k stays within the smallest vocabulary (copy: 15 tokens), as the slider does
        settings = (strategy, round(self.rng.uniform(0.6, 1.4), 2), self.rng.choice((0, 5, 10)),
                    self.rng.choice((1.0, 0.9)), self.rng.randint(0, 99), 40, 3)
        output = self._call("generate_step", *self.prompt, *settings, self.rng.randint(0, 1),
                            self.rng.randint(0, 1), self.lang)
        if output is not None and any(line in output[1] for line in self.choices.finished):
            self.finished, self.prompt = self.prompt, None      # the student types a new prompt

    def _new_prompt(self) -> tuple[str, str]:
        """An example prompt, cut; never the one whose generation just finished (a step there is refused)."""
        for _ in range(20):
            model, value = self.rng.choice(self.choices.generate_examples)
            prompt = (model, _cut(self.rng, value))
            if prompt != self.finished:
                return prompt
        raise RuntimeError(f"the page offers no generation example besides {self.finished}")

    def _call(self, endpoint: str, *inputs):
        start = time.perf_counter()
        try:
            job = self.client.submit(*inputs, api_name=f"/{endpoint}")
            output = job.result(timeout=CALL_LIMIT_S)
        except Exception as error:              # every failure counts, whatever its kind
            self.errors.append(f"{endpoint}: {type(error).__name__}: {str(error)[:200]}")
            return None
        self.latencies[endpoint].append(1000 * (time.perf_counter() - start))
        return output

    def act(self) -> None:
        """Attention view and generation step by turns (which comes first is the student's choice)."""
        if self.turn is None:
            self.turn = self.rng.random() < 0.5
        self.turn = not self.turn
        (self.attention if self.turn else self.generate_step)()


def local_client(url: str) -> Client:
    """A student's client of the local app. The app is served over plain HTTP on localhost, where
    TLS verification has nothing to verify; left on, httpx loads the CA bundle again for every
    request gradio_client makes (about 50 ms of the client's CPU per call, which on a shared
    2-core machine is taken from the server being measured)."""
    return Client(url, verbose=False, download_files=False, analytics_enabled=False, ssl_verify=False)


def class_session(url: str, choices: PageChoices, n_students: int, duration_s: float, seed: int) -> list[Student]:
    """`n_students` students acting every PERIOD_S seconds for `duration_s`; the clock starts once
    all are connected, and each student's first action falls at a random point of the first period."""
    window: dict[str, float] = {}

    def open_window() -> None:
        """Runs once every client is connected (which takes seconds for 30), so no first action is overdue."""
        window["start"] = time.perf_counter() + 0.5
        window["end"] = window["start"] + duration_s

    ready = threading.Barrier(n_students + 1, action=open_window, timeout=START_LIMIT_S)
    max_actions = int(duration_s / PERIOD_S) + 1

    def student(index: int) -> Student:
        client = local_client(url)
        rng = random.Random(seed * 1000 + index)
        me = Student(client, rng, choices, "zh-CN" if index % 3 == 2 else "en")
        ready.wait()
        first = window["start"] + rng.uniform(0, PERIOD_S)      # students do not click in lockstep
        for k in range(max_actions):
            due = first + k * PERIOD_S
            if due >= window["end"]:
                break
            time.sleep(max(0.0, due - time.perf_counter()))
            me.act()
        client.close()
        return me

    with ThreadPoolExecutor(max_workers=n_students) as pool:
        futures = [pool.submit(student, i) for i in range(n_students)]
        ready.wait()
        return [future.result(timeout=duration_s + START_LIMIT_S + CALL_LIMIT_S) for future in futures]


def teacher_opens(url: str) -> PageChoices:
    """The page's choices, after one attention view per example and one generation step, so lazy
    one-time costs do not land on a student."""
    client = local_client(url)
    teacher = Student(client, random.Random(0), page_choices(client.config), "en")
    for model, value in teacher.choices.attention_examples:
        teacher.attention(model, value)
    teacher.generate_step()
    client.close()
    if teacher.errors:
        raise RuntimeError(f"the app refused the page's own examples: {teacher.errors[:3]}")
    return teacher.choices


def class_results(app: AppProcess, choices: PageChoices, n_students: int, duration_s: float) -> list[dict]:
    """The three lines of one class size, with where the CPU went as context: the server's CPU
    time per call and in cores, and this process's (the clients') in cores."""
    load, server_before, clients_before = os.getloadavg()[0], app.cpu_seconds(), time.process_time()
    start = time.perf_counter()
    students = class_session(app.url, choices, n_students, duration_s, seed=n_students)
    wall = time.perf_counter() - start
    server_after, clients_cpu = app.cpu_seconds(), time.process_time() - clients_before
    n_calls = sum(len(v) for s in students for v in s.latencies.values()) + sum(len(s.errors) for s in students)
    context = dict(sessions=n_students, duration_s=duration_s, period_s=PERIOD_S, cpus=os.cpu_count(),
                   load_avg_1m_before=round(load, 2), clients_cores=round(clients_cpu / wall, 2))
    if server_before is not None and server_after is not None:
        context.update(server_cores=round((server_after - server_before) / wall, 2),
                       server_cpu_ms_per_call=round(1000 * (server_after - server_before) / max(1, n_calls), 1))
    lines = []
    for endpoint in ("attention", "generate_step"):
        times = [t for s in students for t in s.latencies[endpoint]]
        if not times:
            raise RuntimeError(f"no {endpoint} call succeeded with {n_students} sessions")
        lines.append(result(SUITE, f"{endpoint}_p95_ms_{n_students}_sessions", float(np.percentile(times, 95)), "ms",
                            P95_GOAL_MS, "lower", calls=len(times), p50_ms=round(float(np.percentile(times, 50)), 1),
                            max_ms=round(max(times), 1), **context))
    errors = [e for s in students for e in s.errors]
    lines.append(result(SUITE, f"errors_{n_students}_sessions", len(errors), "calls", 0, "lower", calls=n_calls,
                        first_errors=errors[:3], **context))
    return lines


def run(quick: bool) -> list[dict]:
    starts = []
    for _ in range(COLD_STARTS[quick]):
        app = AppProcess()
        starts.append(app.started_s)
        if len(starts) < COLD_STARTS[quick]:
            app.stop()
    lines = [result(SUITE, "cold_start_s", statistics.median(starts), "s", COLD_START_GOAL_S, "lower",
                    starts_s=[round(s, 2) for s in starts], load_avg_1m=round(os.getloadavg()[0], 2))]
    try:
        choices = teacher_opens(app.url)
        for n_students in SESSION_COUNTS:
            lines += class_results(app, choices, n_students, DURATION_S[quick])
    finally:
        app.stop()
    from playground.bench import app_training      # live training in the app; it builds on this module
    return lines + app_training.run(quick)
