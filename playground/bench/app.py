"""`python -m playground.bench app`: how fast `python app.py` serves its page, and how it answers a class.

cold_start_s: seconds from starting `python app.py` (a subprocess on a free localhost port) to the
first HTTP 200 of the page; the median of a few starts.

deep_link_view_s: a link to an attention view opened in a fresh browser until the view is drawn,
next to the same clock for a one-figure Gradio page (deep_link_floor_s) and for a Gradio page of
the app's size that draws one figure (deep_link_size_floor_s), and the server's CPU per page
opened (page_open_server_cpu_s); see playground.bench.deep_link.

tab_switch_ms_p95: a tab picked in a browser until its figure is drawn (see playground.bench.tab_switch).

idle_page_browser_cores: the browser's CPU while an opened page of the app is left alone, next to
Gradio's one-figure page (idle_page_ratio_to_floor); see playground.bench.idle_page.

a11y_serious_violations and a11y_critical_violations: axe-core's audit of every tab in both
languages at 1280x720 (goal 0 each; see playground.bench.accessibility).

gpt2_small_attention_view_ms and gpt2_small_attention_view_cached_ms: the Attention tab's view at
GPT-2 small's size, cold and from the shared pass cache; see playground.bench.attention_view.

llm_0_5b_attention_view_ms and llm_0_5b_step_ms: the Attention tab's cold view and one Generate step
(KV cache at 64 tokens) on a model of Qwen2.5-0.5B's shape, with the memory of its shared copy; see
playground.bench.llm_views.

Two kinds of students are measured. On the shipped examples, a student clicks an example the page
offers and changes the view's controls (model, kind, layer, head, score, decoding settings): what a
class does when the teacher says "open the reverse example, look at layer 1". With edited inputs,
a student also cuts each example to a random piece of itself, so almost no input repeats; those
lines carry the suffix _edited_inputs and show what the shared caches cannot save.

CPU per call, measured in the same run: echo_event_cpu_ms_p50 (the app's echo event, which does no
work: what Gradio itself costs per event), light_call_cpu_ms_p50 (attention views and generation
steps of the shipped examples; light_call_cpu_ms_p50_edited_inputs beside it) and the ratio
light_call_cpu_ratio_to_echo. Calls are made one after another in batches, the three kinds' batches
taking turns; each value is a batch's server CPU (its threads' run time, to the nanosecond) divided
by its calls.

The class: for N = 1, 10, 30 and 100 students at once, for a minute (15 s with --quick), every 2 s a
student asks for an attention view or a generation step. The students are sessions of one asyncio
process that speaks Gradio's queue API directly (playground.bench.load) at the lowest CPU priority,
so the load generator takes little from the server it measures; its own cores are reported next
to the server's. Measured per N on the shipped examples: p95_ms_N_sessions (every call's wall time
as the client sees it, with the server's own time per event beside it) and errors_N_sessions; then
p95_ms_30_sessions_2_trainings, the class of 30 while two sessions train; the classes of 30 and
100 again with edited inputs; and load_generator_cores at 100 students.

light_p95_ms_during_queue_flood (with student_refusals_during_queue_flood) and
active_sessions_evicted_by_new_sessions: one client flooding the queue while 30 students act, and
1,000 new sessions (300 with --quick) arriving while 30 students work, one of them training; see
playground.bench.fairness. The app is started trusting X-Forwarded-For, as behind a Space's proxy.

room_p95_ms_100_students, room_errors_100_students and room_board_lag_s: a class of 100 in one
class room, joining and guessing within 10 s while the board is polled (see playground.bench.room).

class_30_starts_seconds_to_last_progress and viewer_p95_ms_during_30_starts: 30 students pressing
Start within 10 s on the app served as on ZeroGPU (the real `spaces` against a fake control API; see
playground.bench.zerogpu_class, also runnable on its own).

hostile_upload_view_peak_mib and hostile_upload_view_s: the largest upload the app accepts, through
its handlers in this process (see playground.bench.uploads, also a suite of its own).

The app serves its own models: the repository's pretrained/ checkpoints when there are any, and
its untrained ones; students pick among those through the examples the page offers. Only
localhost is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import inspect
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gradio_client import Client

from playground.bench import (accessibility, attention_view, deep_link, fairness, idle_page, llm_views, load, tab_switch,
                              uploads)
from playground.bench.common import proc_stat, result
from playground.bench.room import room_lines
from playground.ui.text.i18n import text

SUITE = "app"
REPO = Path(__file__).resolve().parents[2]
SESSION_COUNTS = (1, 10, 30, 100)
EDITED_SESSION_COUNTS = (30, 100)
EDITED = "_edited_inputs"          # the suffix of lines measured with edited inputs
CLASS_WITH_TRAININGS = 30
TRAINING_SLOTS = "2"              # two sessions may train at once (the 2-trainings class)
PERIOD_S = 2.0                    # a student acts every 2 seconds
DURATION_S = {False: 60.0, True: 15.0}
COLD_STARTS = {False: 3, True: 1}
CPU_BATCHES = {False: 9, True: 5}
CPU_BATCH_CALLS = 10
COLD_START_GOAL_S = 8.0
P95_GOALS_MS = {"30": 300.0, "30_2_trainings": 800.0, "100": 1000.0}
LIGHT_CPU_RATIO_GOAL = 2.0
REPEAT_VIEWS = {False: 50, True: 20}
REPEAT_VIEW_GOAL_MS = 3.0
GRID_MODEL = "shakespeare-char"   # 4 layers x 4 heads
GRID_TEXT = "To be, or not to be, that is the"
GRID_KB_GOAL = 60.0
GENERATOR_CORES_GOAL = 0.3
START_LIMIT_S = 120.0             # a server that is not up by then is a failure
MIN_CUT = 3                       # shortest piece of an example a student types


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AppProcess:
    """`python app.py` on a free localhost port; `started_s` is how long until the page answered 200.
    `command`: the Python arguments that serve the app, when not app.py (a bench's own launcher)."""

    def __init__(self, command: tuple[str, ...] = ("app.py",)):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(self.port),
               "GRADIO_ANALYTICS_ENABLED": "False"}
        start = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, *command], cwd=REPO, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_for_page(start)
        except BaseException:
            self.stop()
            raise
        self.started_s = time.perf_counter() - start
        self.cpu = ProcessCPU(self.process.pid)

    def _wait_for_page(self, start: float) -> None:
        while True:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"the app exited with status {self.process.returncode} before serving")
            if time.perf_counter() - start > START_LIMIT_S:
                raise RuntimeError(f"the app did not serve {self.url} within {START_LIMIT_S:.0f} s")
            time.sleep(0.05)

    def cpu_seconds(self) -> float | None:
        """CPU seconds the server process has used, as a counter to take differences of; None off Linux."""
        return self.cpu.seconds()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class ProcessCPU:
    """A process's CPU seconds, to the nanosecond: the run time of each of its threads
    (/proc/PID/task/TID/schedstat), added up from one reading to the next, so a thread that ended
    since the last reading takes only its CPU since then with it. The kernel's per-process counters
    tick every 10 ms, too coarse for a batch of calls of a few milliseconds each; they are the
    fallback where schedstat is missing."""

    def __init__(self, pid: int):
        self.pid = pid
        self.precise = Path(f"/proc/{pid}/schedstat").exists()
        self._lock = threading.Lock()
        self._thread_ns: dict[str, int] = {}
        self._total_ns = 0

    def seconds(self) -> float | None:
        """CPU seconds so far (the first reading counts the threads alive then); None once the
        process is gone, or off Linux."""
        if not self.precise:
            return self._ticked_seconds()
        try:
            threads = set(os.listdir(f"/proc/{self.pid}/task"))
        except OSError:
            return None
        with self._lock:
            for thread in threads:
                try:
                    ns = int(Path(f"/proc/{self.pid}/task/{thread}/schedstat").read_text().split()[0])
                except (OSError, ValueError, IndexError):
                    continue                          # the thread ended while being read
                self._total_ns += ns - self._thread_ns.get(thread, 0)
                self._thread_ns[thread] = ns
            self._thread_ns = {thread: ns for thread, ns in self._thread_ns.items() if thread in threads}
            return self._total_ns / 1e9

    def _ticked_seconds(self) -> float | None:
        """User + system CPU seconds from /proc/PID/stat (10 ms ticks)."""
        fields = proc_stat(self.pid)
        return None if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


class ClassStudent(load.Student):
    """A student of the class: an attention view and a generation step by turns, on the page's
    examples with the controls varied (another model, kind, layer, head, score, decoding settings;
    a fresh prompt once a generation has finished); with `edits`, each example is also cut to a
    random piece of itself."""

    def __init__(self, choices: PageChoices, lang: str, rng: random.Random, edits: bool = False):
        self.choices, self.lang, self.edits = choices, lang, edits
        self.turn = rng.random() < 0.5                 # which comes first is the student's choice
        self.prompt: tuple[str, str] | None = None     # (model, prompt) of the generation under way
        self.finished: tuple[str, str] | None = None   # (model, prompt) whose generation has finished
        self.markers = tuple(m for line in choices.finished for m in _encodings(line))

    def next_call(self, rng: random.Random) -> tuple[str, dict]:
        self.turn = not self.turn
        return self.attention(rng) if self.turn else self.generate_step(rng)

    def attention(self, rng: random.Random, example: tuple[str, str] | None = None) -> tuple[str, dict]:
        """An attention view with a kind and score the page offers (the app shows a model's own
        when it lacks the ones asked)."""
        model, value = example or rng.choice(self.choices.attention_examples)
        if example is None and self.edits:
            value = _cut(rng, value)
        return "attention", dict(model=model, text=value, target="", kind=rng.choice(self.choices.kinds),
                                 layer=rng.randint(0, 1), head=rng.randint(0, 1), mean=rng.random() < 0.2,
                                 score=rng.choice(self.choices.scores), lang=self.lang)

    def generate_step(self, rng: random.Random) -> tuple[str, dict]:
        if self.prompt is None or rng.random() < 0.15:
            self.prompt = self._new_prompt(rng)
        model, prompt = self.prompt
        # top-k stays within the smallest vocabulary (copy: 15 tokens), as the slider does
        return "generate_step", dict(model=model, prompt=prompt, strategy=rng.choice(("greedy", "sample")),
                                     temperature=round(rng.uniform(0.6, 1.4), 2), top_k=rng.choice((0, 5, 10)),
                                     top_p=rng.choice((1.0, 0.9)), seed=rng.randint(0, 99), max_new=40,
                                     beam_width=3, layer=rng.randint(0, 1), head=rng.randint(0, 1),
                                     lang=self.lang)

    def heard(self, result: load.CallResult) -> None:
        if result.endpoint == "generate_step" and any(m in result.reply for m in self.markers):
            self.finished, self.prompt = self.prompt, None      # the student types a new prompt

    def _new_prompt(self, rng: random.Random) -> tuple[str, str]:
        """An example prompt (cut, with edits); never the one whose generation just finished (a step
        there is refused)."""
        for _ in range(20):
            model, value = rng.choice(self.choices.generate_examples)
            prompt = (model, _cut(rng, value) if self.edits else value)
            if prompt != self.finished:
                return prompt
        raise RuntimeError(f"the page offers no generation example besides {self.finished}")


class EchoStudent(load.Student):
    """Calls the app's echo event: Gradio's own cost of an event, with no work in it."""

    def next_call(self, rng: random.Random) -> tuple[str, dict]:
        return "echo", {"value": "echo"}


def _encodings(line: str) -> tuple[bytes, ...]:
    """How a line of text can appear in a reply: raw UTF-8, or with JSON's \\u escapes."""
    return tuple({line.encode("utf-8"), json.dumps(line)[1:-1].encode("ascii")})


def local_client(url: str) -> Client:
    """A gradio_client Client of the local app (for the training benches). The app is served over
    plain HTTP on localhost, where TLS verification has nothing to verify; left on, httpx loads the
    CA bundle again for every request gradio_client makes."""
    return Client(url, verbose=False, download_files=False, analytics_enabled=False, ssl_verify=False)


def teacher_opens(url: str) -> PageChoices:
    """The page's choices, after one attention view per example and one generation step, so lazy
    one-time costs do not land on a student."""
    config = json.loads(urllib.request.urlopen(url.rstrip("/") + "/config", timeout=30).read())
    choices = page_choices(config)
    teacher = ClassStudent(choices, "en", random.Random(0))
    calls = [teacher.attention(random.Random(0), example) for example in choices.attention_examples]
    calls.append(teacher.generate_step(random.Random(0)))
    failed = [r.error for r in load.calls_in_turn(url, _Script(calls), len(calls)) if not r.ok]
    if failed:
        raise RuntimeError(f"the app refused the page's own examples: {failed[:3]}")
    return choices


class _Script(load.Student):
    """Makes the given calls in order."""

    def __init__(self, calls: list[tuple[str, dict]]):
        self.calls = iter(calls)

    def next_call(self, rng: random.Random) -> tuple[str, dict]:
        return next(self.calls)


def cpu_per_call_ms(app: AppProcess, students: dict[str, load.Student], quick: bool) -> dict[str, list[float]]:
    """The server's CPU milliseconds per call of each student, one value per batch of calls made one
    after another; the students' batches take turns, so a drift of the machine's speed reaches all
    of them alike. Empty where the server's CPU cannot be read.

    Each value is a batch's CPU (ProcessCPU) divided by its calls. A batch is one session's calls
    after its first; its start (the page's config, the API description, the session's state) is a
    cost per student, not per call, and is left out.
    """
    values: dict[str, list[float]] = {name: [] for name in students}
    for batch in range(CPU_BATCHES[quick]):
        for name, student in students.items():
            results, used = load.metered_calls(app.url, student, CPU_BATCH_CALLS, app.cpu_seconds, seed=batch)
            if used is None:
                return {}
            failed = [r.error for r in results if not r.ok]
            if failed:
                raise RuntimeError(f"calls failed while measuring CPU per call: {failed[:3]}")
            values[name].append(1000 * used / len(results))
    return values


def cpu_lines(app: AppProcess, choices: PageChoices, quick: bool) -> list[dict]:
    """Gradio's own cost of an event (echo) and the app's light calls, measured in the same run."""
    students = {"echo": EchoStudent(), "light": ClassStudent(choices, "en", random.Random(1)),
                "edited": ClassStudent(choices, "en", random.Random(1), edits=True)}
    per_call = cpu_per_call_ms(app, students, quick)
    if not per_call:
        return []
    echo, light, edited = per_call["echo"], per_call["light"], per_call["edited"]
    echo_p50, light_p50 = statistics.median(echo), statistics.median(light)
    context = dict(batches=len(echo), calls_per_batch=CPU_BATCH_CALLS, load_avg_1m=round(os.getloadavg()[0], 2))
    return [result(SUITE, "echo_event_cpu_ms_p50", echo_p50, "ms", None, "lower", per_batch=_rounded(echo), **context),
            result(SUITE, "light_call_cpu_ms_p50", light_p50, "ms", None, "lower", per_batch=_rounded(light),
                   **context),
            result(SUITE, f"light_call_cpu_ms_p50{EDITED}", statistics.median(edited), "ms", None, "lower",
                   per_batch=_rounded(edited), ratio_to_echo=round(statistics.median(edited) / echo_p50, 2),
                   **context),
            result(SUITE, "light_call_cpu_ratio_to_echo", light_p50 / echo_p50, "x", LIGHT_CPU_RATIO_GOAL, "lower",
                   **context)]


def _rounded(values: list[float]) -> list[float]:
    return [round(v, 1) for v in values]


def class_lines(app: AppProcess, choices: PageChoices, n_students: int, duration_s: float,
                suffix: str = "", edits: bool = False, **extra_context) -> list[dict]:
    """One class size: the p95 of every light call, the errors, and where the CPU went (the server's
    CPU per call and in cores, the load generator's in cores); with `edits`, students edit the
    examples (and the lines' names end in EDITED)."""
    load_avg, server_before = os.getloadavg()[0], app.cpu_seconds()
    suffix += EDITED if edits else ""

    def behaviour(rng: random.Random, index: int) -> ClassStudent:
        return ClassStudent(choices, "zh-CN" if index % 3 == 2 else "en", rng, edits)

    run = load.run_class(app.url, behaviour, n_students, duration_s, PERIOD_S, seed=n_students)
    server_after = app.cpu_seconds()
    context = dict(sessions=n_students, duration_s=duration_s, period_s=PERIOD_S, cpus=os.cpu_count(),
                   load_avg_1m_before=round(load_avg, 2), load_generator_cores=round(run.generator_cores, 3),
                   calls=len(run.results), **extra_context)
    if server_before is not None and server_after is not None:
        server_cpu = server_after - server_before
        context.update(server_cores=round(server_cpu / run.wall_s, 2),
                       server_cpu_ms_per_call=round(1000 * server_cpu / max(1, len(run.results)), 1))
    done = [r for r in run.results if r.ok]
    errors = [r.error for r in run.results if not r.ok]
    if not done:
        raise RuntimeError(f"no call succeeded with {n_students} sessions: {errors[:3]}")
    for endpoint in ("attention", "generate_step"):
        times = [r.latency_ms for r in done if r.endpoint == endpoint]
        if times:
            context[f"{endpoint}_p95_ms"] = round(float(np.percentile(times, 95)), 1)
    server_ms = [r.server_ms for r in done if r.server_ms is not None]
    if server_ms:
        context["server_event_ms_p50"] = round(float(np.percentile(server_ms, 50)), 1)
        context["server_event_ms_p95"] = round(float(np.percentile(server_ms, 95)), 1)
    context["reply_kb_p50"] = round(float(np.percentile([r.reply_bytes for r in done], 50)) / 1024, 1)
    latencies = [r.latency_ms for r in done]
    goal = P95_GOALS_MS.get(f"{n_students}{suffix}")
    lines = [result(SUITE, f"p95_ms_{n_students}_sessions{suffix}", float(np.percentile(latencies, 95)), "ms", goal,
                    "lower", p50_ms=round(float(np.percentile(latencies, 50)), 1), max_ms=round(max(latencies), 1),
                    **context),
             result(SUITE, f"errors_{n_students}_sessions{suffix}", len(errors), "calls", 0, "lower",
                    first_errors=errors[:3], **context)]
    if n_students == max(SESSION_COUNTS) and not suffix:
        lines.append(result(SUITE, "load_generator_cores", run.generator_cores, "cores", GENERATOR_CORES_GOAL,
                            "lower", **context))
    return lines


def view_lines(quick: bool) -> list[dict]:
    """In this process, on the app's own attention event: the handler's time for a view a session
    has already asked for (served from the shared view cache), and the size of the attention grid
    it sends (postprocessed, as Gradio sends it) for a 4 x 4-head model and a 32-token input."""
    from playground.ui import create_app
    from playground.ui.tabs.attention import AttentionForm
    demo = create_app()
    event = next(f.fn for f in demo.fns.values() if f.api_name == "attention")
    form = AttentionForm(model=GRID_MODEL, text=GRID_TEXT, kind="decoder", layer=1, head=2)
    names = list(inspect.signature(event).parameters)[2:]           # the API's order, after the request and event
    values = ["en" if name == "lang" else getattr(form, name) for name in names]
    started = time.perf_counter()
    first = event(None, None, *values)
    first_ms = 1000 * (time.perf_counter() - started)
    repeats = []
    for _ in range(REPEAT_VIEWS[quick]):
        started = time.perf_counter()
        event(None, None, *values)
        repeats.append(1000 * (time.perf_counter() - started))
    grid = next(value for component, value in first.items() if getattr(component, "elem_id", "") == "attention-grid")
    context = dict(model=GRID_MODEL, tokens=len(GRID_TEXT), first_view_ms=round(first_ms, 1), repeats=len(repeats))
    return [result(SUITE, "repeat_view_handler_ms_p50", statistics.median(repeats), "ms", REPEAT_VIEW_GOAL_MS,
                   "lower", **context),
            result(SUITE, "attention_grid_kb", len(grid["plot"]) / 1024, "KB", GRID_KB_GOAL, "lower", **context)]


def class_during_trainings(app: AppProcess, choices: PageChoices, duration_s: float) -> list[dict]:
    """A class of 30 while two sessions train the copy preset in the same app."""
    from playground.bench.app_training import Training  # it builds on this module
    trainings = [Training(app.url) for _ in range(2)]
    for training in trainings:
        training.start()
    try:
        deadline = time.perf_counter() + START_LIMIT_S
        while any(not t.steps for t in trainings) and time.perf_counter() < deadline:
            time.sleep(0.2)
        if any(not t.steps for t in trainings):
            raise RuntimeError("the two trainings did not both start within the start limit")
        before = [t.steps[-1][1] for t in trainings]
        lines = class_lines(app, choices, CLASS_WITH_TRAININGS, duration_s, suffix="_2_trainings", trainings=2)
        advanced = [t.steps[-1][1] - b for t, b in zip(trainings, before)]
        for line in lines:
            line["training_steps_during_class"] = advanced
        if not all(advanced):
            raise RuntimeError(f"a training stopped while the class was measured (steps advanced: {advanced})")
        return lines
    finally:
        for training in trainings:
            training.stop()


def run(quick: bool) -> list[dict]:
    from playground.bench import app_training  # live training in the app; it builds on this module
    starts = []
    with app_training.environment(PLAYGROUND_TRAINING_SLOTS=TRAINING_SLOTS, **fairness.TRUST_FORWARDED):
        for _ in range(COLD_STARTS[quick]):
            app = AppProcess()
            starts.append(app.started_s)
            if len(starts) < COLD_STARTS[quick]:
                app.stop()
    lines = [result(SUITE, "cold_start_s", statistics.median(starts), "s", COLD_START_GOAL_S, "lower",
                    starts_s=[round(s, 2) for s in starts], load_avg_1m=round(os.getloadavg()[0], 2)),
             *view_lines(quick), *attention_view.run(quick), *llm_views.run(quick)]
    try:
        choices = teacher_opens(app.url)
        lines += deep_link.deep_link_lines(app.url, quick, app.cpu_seconds)
        lines += tab_switch.tab_switch_lines(app.url, quick)
        lines += idle_page.idle_page_lines(app.url)
        lines += accessibility.accessibility_lines(app.url)
        lines += cpu_lines(app, choices, quick)
        for n_students in SESSION_COUNTS:
            lines += class_lines(app, choices, n_students, DURATION_S[quick])
        lines += class_during_trainings(app, choices, DURATION_S[quick])
        for n_students in EDITED_SESSION_COUNTS:
            lines += class_lines(app, choices, n_students, DURATION_S[quick], edits=True)
        lines += room_lines(app.url, quick)
        lines += fairness.flood_lines(app.url, lambda rng, i: ClassStudent(choices, "en", rng, edits=True), quick)
        lines += fairness.eviction_lines(app.url, choices.generate_examples,
                                         tuple(m for line in choices.finished for m in _encodings(line)), quick)
    finally:
        app.stop()
    from playground.bench import zerogpu_class    # a class starting trainings as on ZeroGPU; it builds on this module
    return lines + app_training.run(quick) + uploads.run(quick) + zerogpu_class.run(quick)
