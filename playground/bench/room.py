"""The class room under a class: run by `python -m playground.bench app` on its running app.

room_p95_ms_100_students: a teacher opens a room and starts a round (shakespeare-char, a line of
Hamlet); 100 students, each a session of its own, join at random moments within 10 s and send a guess
right after joining, while the teacher's board is polled once a second (the board page's cadence,
room_page.BOARD_POLL_SECONDS). The p95 of every call's wall time (joins, guesses, board polls) as the
client sees it; room_errors_100_students beside it (goal 0).

room_board_lag_s: then, with the room quiet, a student sends a guess while the board is still polled
once a second; the time from sending it to the first poll whose board counts it. The worst of a few
such guesses (the poll's phase is random). The goal is 2 s; the cadence alone accounts for up to 1 s.

The students are one asyncio process at the lowest CPU priority that speaks Gradio's queue API
(playground.bench.load), so the load generator takes little from the server it measures. Only the
app's localhost address is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import time

import httpx
import numpy as np

from playground.bench.asyncio_transport import AsyncioTransport
from playground.bench.common import result
from playground.bench.load import CALL_LIMIT_S, CONNECT_LIMIT_S, CallResult, Session, connect, lowest_priority
from playground.ui.header.room_page import BOARD_POLL_SECONDS

SUITE = "app"
STUDENTS = 100
WINDOW_S = 10.0                   # every student joins and guesses within this window
BOARD_POLL_S = BOARD_POLL_SECONDS # the board page's cadence
LAG_PROBES = {False: 5, True: 3}
P95_GOAL_MS = 1000.0
LAG_GOAL_S = 2.0
MODEL = "shakespeare-char"
PASSAGE = "To be, or not to be, that is the question"
GUESSES = "neast"                 # what students guess (letters of the model's vocabulary)


def _output(reply: CallResult):
    """The value an API call returned (its reply decoded)."""
    message = json.loads(reply.reply.split(b"data:", 1)[1])
    return message["output"]["data"][0]


async def _room(url: str, probes: int, seed: int) -> dict:
    limits = httpx.Limits(max_connections=4 * STUDENTS + 16, max_keepalive_connections=2 * STUDENTS + 16)
    timeout = httpx.Timeout(CALL_LIMIT_S, connect=CONNECT_LIMIT_S)
    rng = random.Random(seed)
    async with httpx.AsyncClient(transport=AsyncioTransport(limits), timeout=timeout) as client:
        app = await connect(client, url)
        teacher = Session(client, app)
        opened = await teacher.call("room_open", {"lang": "en", "nicknames": False})
        if not opened.ok:
            return {"error": opened.error}
        room = _output(opened)
        key = {"code": room["code"], "key": room["key"], "lang": "en"}
        started = await teacher.call("room_round", {**key, "model": MODEL, "passage": PASSAGE})
        if not started.ok:
            return {"error": started.error}
        calls: list[CallResult] = []
        seen: list[tuple[float, int]] = []            # (when a poll answered, how many it counted)
        polling = True

        async def poll() -> None:
            board = Session(client, app)
            while polling:
                due = time.perf_counter() + BOARD_POLL_S
                answer = await board.call("room_board", key)
                calls.append(answer)
                if answer.ok:
                    seen.append((time.perf_counter(), _output(answer)["answered"]))
                await asyncio.sleep(max(0.0, due - time.perf_counter()))

        async def student(index: int, at: float) -> str | None:
            await asyncio.sleep(at)
            session = Session(client, app)
            joined = await session.call("room_join", {"code": room["code"], "nickname": "", "student": "",
                                                      "lang": "en"})
            calls.append(joined)
            if not joined.ok:
                return None
            token = _output(joined)["student"]
            guessed = await session.call("room_guess", {"code": room["code"], "student": token,
                                                        "guess": GUESSES[index % len(GUESSES)], "lang": "en"})
            calls.append(guessed)
            return token

        poller = asyncio.create_task(poll())
        await asyncio.gather(*(student(i, rng.uniform(0, WINDOW_S - 1)) for i in range(STUDENTS)))
        class_calls = [replace_reply(c) for c in calls]
        calls.clear()
        lags = []
        for k in range(probes):
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            session = Session(client, app)
            joined = await session.call("room_join", {"code": room["code"], "nickname": "", "student": "",
                                                      "lang": "en"})
            if not joined.ok:
                continue
            counted = STUDENTS + k + 1
            sent = time.perf_counter()
            await session.call("room_guess", {"code": room["code"], "student": _output(joined)["student"],
                                              "guess": "n", "lang": "en"})
            deadline = sent + 10 * BOARD_POLL_S
            while time.perf_counter() < deadline and not any(t > sent and n >= counted for t, n in seen):
                await asyncio.sleep(0.02)
            shown = [t for t, n in seen if t > sent and n >= counted]
            lags.append(shown[0] - sent if shown else None)
        polling = False
        await poller
        await teacher.call("room_close", key)
    return {"calls": class_calls, "lags": lags}


def replace_reply(call: CallResult) -> CallResult:
    """The call's numbers without its reply."""
    return CallResult(call.endpoint, call.ok, call.latency_ms, call.server_ms, call.reply_bytes, call.error)


def measure(url: str, quick: bool, seed: int = 0) -> dict:
    """The room's class and lag probes run in a child process at the lowest CPU priority."""
    context = multiprocessing.get_context("fork")
    replies = context.Queue()

    def child() -> None:
        lowest_priority()
        cpu = time.process_time()
        found = asyncio.run(_room(url, LAG_PROBES[quick], seed))
        replies.put({**found, "generator_cpu_s": time.process_time() - cpu})

    process = context.Process(target=child, daemon=True)
    process.start()
    try:
        return replies.get(timeout=WINDOW_S + 20 * LAG_PROBES[quick] + CONNECT_LIMIT_S + CALL_LIMIT_S + 60)
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.kill()


def room_lines(url: str, quick: bool) -> list[dict]:
    """room_p95_ms_100_students, room_errors_100_students and room_board_lag_s on the app at `url`."""
    found = measure(url, quick)
    if "error" in found:
        return [result(SUITE, name, None, unit, goal, "lower", error=found["error"][:200])
                for name, unit, goal in (("room_p95_ms_100_students", "ms", P95_GOAL_MS),
                                         ("room_board_lag_s", "s", LAG_GOAL_S))]
    calls = found["calls"]
    latencies = [c.latency_ms for c in calls]
    errors = [c for c in calls if not c.ok]
    by_kind = {kind: round(float(np.percentile([c.latency_ms for c in calls if c.endpoint == kind], 95)), 1)
               for kind in ("room_join", "room_guess", "room_board") if any(c.endpoint == kind for c in calls)}
    lags = [lag for lag in found["lags"] if lag is not None]
    server = [c.server_ms for c in calls if c.server_ms is not None]
    context = {"students": STUDENTS, "window_s": WINDOW_S, "calls": len(calls), "p95_ms_by_call": by_kind,
               "server_ms_p95": round(float(np.percentile(server, 95)), 2) if server else None,
               "generator_cpu_s": round(found["generator_cpu_s"], 2)}
    return [result(SUITE, "room_p95_ms_100_students", float(np.percentile(latencies, 95)) if latencies else None,
                   "ms", P95_GOAL_MS, "lower", p50_ms=round(float(np.percentile(latencies, 50)), 1) if latencies
                   else None, **context),
            result(SUITE, "room_errors_100_students", len(errors), "calls", 0, "lower",
                   first_errors=[e.error[:120] for e in errors[:3]]),
            result(SUITE, "room_board_lag_s", max(lags) if len(lags) == len(found["lags"]) and lags else None, "s",
                   LAG_GOAL_S, "lower", lags_s=[None if lag is None else round(lag, 3) for lag in found["lags"]],
                   board_poll_s=BOARD_POLL_S)]
