"""A fair load generator: a whole class of students in one asyncio process, speaking Gradio's HTTP
queue API with httpx (on asyncio's own streams: asyncio_transport).

Each student is one session (its own session hash). To call an event it joins the queue
(POST {api}/queue/join) and reads its session's event stream (GET {api}/queue/data) until that
event completes. Replies are scanned, not decoded: a figure of a hundred kilobytes is never parsed,
only the message's head (its kind and event id) and tail (success, and the server's own time for
the function, which Gradio reports as "duration"). So the generator's CPU per call is small and
nearly constant, and it runs at the lowest CPU priority; it reports its own cores next to the
server's, so a reader can see what the measurement cost.

Only the address given (a local app) is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Callable

import httpx

from playground.bench.asyncio_transport import AsyncioTransport

CALL_LIMIT_S = 60.0               # a call that takes longer counts as an error
CONNECT_LIMIT_S = 30.0
_HEAD = re.compile(rb'"msg"\s*:\s*"(\w+)".*?"event_id"\s*:\s*"([^"]+)"', re.S)
_SUCCESS = re.compile(rb'"success"\s*:\s*(true|false)')
_DURATION = re.compile(rb'"duration"\s*:\s*([0-9.eE+-]+)')
SMALL_MESSAGE = 20_000            # failures and progress messages are small enough to decode


@dataclass(frozen=True)
class Endpoint:
    """One named event of the app: its function index, and how to build its data list."""

    fn_index: int
    parameters: tuple[str, ...]                  # the API's parameter names, in order
    defaults: dict                               # name -> the value the page starts with
    inputs_are_state: tuple[bool, ...]           # one per input component; state inputs get None

    def data(self, values: dict) -> list:
        """The queue's data list: `values` by parameter name, defaults for the rest, None for state."""
        unknown = set(values) - set(self.parameters)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}; this endpoint takes {list(self.parameters)}")
        ordered = [values.get(name, self.defaults.get(name)) for name in self.parameters]
        if not self.inputs_are_state:                # an API-only event (gr.api) takes its parameters as they are
            return ordered
        given = iter(ordered)
        return [None if is_state else next(given) for is_state in self.inputs_are_state]


@dataclass(frozen=True)
class CallResult:
    """What one call cost, as the client saw it, and what the server said of it."""

    endpoint: str
    ok: bool
    latency_ms: float                 # join sent -> completion read
    server_ms: float | None           # the server's own time running the function
    reply_bytes: int                  # the completion message's size
    error: str = ""
    reply: bytes = b""                # a successful reply, undecoded, until the student has heard it


@dataclass
class App:
    """A running app's address, API prefix and named endpoints."""

    url: str
    api: str
    endpoints: dict[str, Endpoint] = field(default_factory=dict)


async def connect(client: httpx.AsyncClient, url: str) -> App:
    """Read the app's config and API description once."""
    config = (await client.get(url.rstrip("/") + "/config", timeout=CONNECT_LIMIT_S)).json()
    api = url.rstrip("/") + "/" + config.get("api_prefix", "/gradio_api").strip("/") + "/"
    info = (await client.get(api + "info", params={"all_endpoints": "True"}, timeout=CONNECT_LIMIT_S)).json()
    types = {c["id"]: c.get("type") for c in config["components"]}
    app = App(url, api)
    for dependency in config["dependencies"]:
        name = dependency.get("api_name")
        described = info["named_endpoints"].get(f"/{name}") if name else None
        if described is None:
            continue
        parameters = described["parameters"]
        app.endpoints[name] = Endpoint(
            dependency["id"], tuple(p["parameter_name"] for p in parameters),
            {p["parameter_name"]: p.get("parameter_default") for p in parameters},
            tuple(types.get(i) == "state" for i in dependency["inputs"]))
    return app


class Session:
    """One student's session: calls one event at a time and reads its stream until it completes.
    `forwarded_for`: the address a proxy in front of the app would report for the student
    (X-Forwarded-For), for an app told to trust it."""

    def __init__(self, client: httpx.AsyncClient, app: App, forwarded_for: str | None = None):
        self.client = client
        self.app = app
        self.hash = uuid.uuid4().hex[:11]
        self.headers = {"x-forwarded-for": forwarded_for} if forwarded_for else {}

    async def call(self, endpoint: str, values: dict) -> CallResult:
        start = time.perf_counter()
        try:
            return await asyncio.wait_for(self._call(endpoint, values, start), CALL_LIMIT_S)
        except Exception as error:                      # every failure counts, whatever its kind
            return CallResult(endpoint, False, 1000 * (time.perf_counter() - start), None, 0,
                              f"{type(error).__name__}: {str(error)[:200]}")

    async def call_index(self, fn_index: int, data: list, name: str = "") -> CallResult:
        """Call the event `fn_index` with its data list as it is (an event without an API name, such as
        the page's opening)."""
        start = time.perf_counter()
        try:
            return await asyncio.wait_for(self._join_and_read(name, fn_index, data, start), CALL_LIMIT_S)
        except Exception as error:                      # every failure counts, whatever its kind
            return CallResult(name, False, 1000 * (time.perf_counter() - start), None, 0,
                              f"{type(error).__name__}: {str(error)[:200]}")

    async def _call(self, endpoint: str, values: dict, start: float) -> CallResult:
        target = self.app.endpoints[endpoint]
        return await self._join_and_read(endpoint, target.fn_index, target.data(values), start)

    async def _join_and_read(self, endpoint: str, fn_index: int, data: list, start: float) -> CallResult:
        body = {"data": data, "fn_index": fn_index, "session_hash": self.hash, "event_data": None, "trigger_id": None}
        joined = await self.client.post(self.app.api + "queue/join", json=body, headers=self.headers)
        if joined.status_code != 200:                   # refused: the app's message, if it gave one
            raise RuntimeError(f"HTTP {joined.status_code}: {joined.text[:200]}")
        event_id = joined.json()["event_id"]
        async with self.client.stream("GET", self.app.api + "queue/data", params={"session_hash": self.hash},
                                      headers=self.headers) as stream:
            pending = bytearray()               # received, not yet split into messages
            async for chunk in stream.aiter_bytes():
                scan_from = max(0, len(pending) - 1)            # a separator may straddle two chunks
                pending += chunk
                while (end := pending.find(b"\n\n", scan_from)) >= 0:
                    message = bytes(pending[:end])
                    del pending[:end + 2]
                    scan_from = 0
                    done = _completion(message, event_id)
                    if done is not None:
                        ok, server_ms, error = done
                        return CallResult(endpoint, ok, 1000 * (time.perf_counter() - start), server_ms,
                                          len(message), error, message if ok else b"")
        raise ConnectionError("the event stream closed before the event completed")


def _completion(message: bytes, event_id: str) -> tuple[bool, float | None, str] | None:
    """(success, server ms, error) when `message` completes `event_id`; None for any other message.

    Reads the head and tail of the message only (a figure in the middle is never decoded).
    """
    head = _HEAD.search(message[:300])
    if head is None or head.group(2).decode() != event_id:
        return None
    kind = head.group(1)
    if kind != b"process_completed":
        if kind == b"unexpected_error" or kind == b"queue_full":
            return False, None, kind.decode()
        return None
    tail = message[-400:]
    success = _SUCCESS.search(tail)
    duration = _DURATION.search(tail)
    server_ms = 1000 * float(duration.group(1)) if duration else None
    if success is not None and success.group(1) == b"true":
        return True, server_ms, ""
    error = "the event failed"
    if len(message) < SMALL_MESSAGE:
        output = json.loads(message.split(b":", 1)[1]).get("output") or {}
        error = str(output.get("error") or output.get("title") or error)[:200]
    return False, server_ms, error


Behaviour = Callable[[random.Random, int], "Student"]


class Student:
    """A student's choices: `next_call(rng)` gives the next (endpoint, values); `heard(result)` lets
    the student react to what came back (e.g. start a new prompt once a generation is over: a
    bytes search of `result.reply`, never a decode)."""

    def next_call(self, rng: random.Random) -> tuple[str, dict]:
        raise NotImplementedError

    def heard(self, result: CallResult) -> None:
        """React to a reply (nothing by default)."""


@dataclass
class ClassRun:
    """Every call of a class session, and the generator's own CPU over it."""

    results: list[CallResult]
    wall_s: float
    generator_cpu_s: float

    @property
    def generator_cores(self) -> float:
        return self.generator_cpu_s / self.wall_s if self.wall_s else 0.0


def lowest_priority() -> None:
    """Let every other process of the machine (the server) go first."""
    try:
        os.nice(19 - os.nice(0))
    except OSError:
        pass


async def _class(url: str, behaviour: Behaviour, n_students: int, duration_s: float, period_s: float,
                 seed: int) -> list[CallResult]:
    limits = httpx.Limits(max_connections=4 * n_students + 8, max_keepalive_connections=2 * n_students + 8)
    timeout = httpx.Timeout(CALL_LIMIT_S, connect=CONNECT_LIMIT_S)
    async with httpx.AsyncClient(transport=AsyncioTransport(limits), timeout=timeout) as client:
        app = await connect(client, url)
        start = time.perf_counter() + 0.2
        end = start + duration_s
        max_actions = int(duration_s / period_s) + 1

        async def one(index: int) -> list[CallResult]:
            rng = random.Random(seed * 1000 + index)
            student = behaviour(rng, index)
            session = Session(client, app)
            first = start + rng.uniform(0, period_s)            # students do not click in lockstep
            done = []
            for k in range(max_actions):
                due = first + k * period_s
                if due >= end:
                    break
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                result = await session.call(*student.next_call(rng))
                student.heard(result)
                done.append(replace(result, reply=b""))          # keep the numbers, not the figures
            return done

        per_student = await asyncio.gather(*(one(i) for i in range(n_students)))
    return [r for results in per_student for r in results]


async def _in_turn(url: str, student: "Student", rng: random.Random, n_calls: int,
                   meter: Callable[[], float | None] | None = None) -> tuple[list[CallResult], float | None]:
    timeout = httpx.Timeout(CALL_LIMIT_S, connect=CONNECT_LIMIT_S)
    async with httpx.AsyncClient(transport=AsyncioTransport(), timeout=timeout) as client:
        session = Session(client, await connect(client, url))
        if meter is not None:                                              # the session's own start, unmetered
            student.heard(await session.call(*student.next_call(rng)))
        before = meter() if meter is not None else None
        results = []
        for _ in range(n_calls):
            result = await session.call(*student.next_call(rng))
            student.heard(result)
            results.append(replace(result, reply=b""))
        after = meter() if meter is not None else None
        return results, None if before is None or after is None else after - before


def calls_in_turn(url: str, student: "Student", n_calls: int, seed: int = 0) -> list[CallResult]:
    """One session making `n_calls` calls one after another (nothing else from this process)."""
    return asyncio.run(_in_turn(url, student, random.Random(seed), n_calls))[0]


def metered_calls(url: str, student: "Student", n_calls: int, meter: Callable[[], float | None],
                  seed: int = 0) -> tuple[list[CallResult], float | None]:
    """`n_calls` calls of one session one after another, and what `meter` (e.g. the server's CPU
    seconds) grew by while they ran: reading the app's config and API, and the session's first
    call, which creates its state, come before the first reading."""
    return asyncio.run(_in_turn(url, student, random.Random(seed), n_calls, meter))


def run_class(url: str, behaviour: Behaviour, n_students: int, duration_s: float, period_s: float = 2.0,
              seed: int = 0) -> ClassRun:
    """`n_students` sessions acting every `period_s` seconds for `duration_s`.

    They run in a child process at the lowest CPU priority (forked, so `behaviour` needs no
    pickling), which also keeps the generator's CPU apart from the caller's.
    """
    context = multiprocessing.get_context("fork")
    replies = context.Queue()

    def child() -> None:
        lowest_priority()
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        results = asyncio.run(_class(url, behaviour, n_students, duration_s, period_s, seed))
        replies.put(ClassRun(results, time.perf_counter() - wall_before, time.process_time() - cpu_before))

    process = context.Process(target=child, daemon=True)
    process.start()
    try:
        return replies.get(timeout=duration_s + CONNECT_LIMIT_S + CALL_LIMIT_S + 30)
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.kill()
