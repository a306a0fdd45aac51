"""Whether one client can stop a class: a flood of queued events, and a flood of new sessions.

light_p95_ms_during_queue_flood: 30 students (each its own address, as a Space's proxy reports it in
X-Forwarded-For; the app is told to trust it) ask for an attention view or a generation step every
2 s while one client, from one address, keeps FLOOD_SESSIONS sessions each calling attention views
without pause, more than the app lets one address queue. The flooder and the class are separate load
processes, as they are separate machines. The p95 of the students' calls (goal 1,000 ms), their
refusals (goal 0), the flooder's calls served and refused (with the message it was told) and the
server's own time per student call are reported. Also runnable alone: python -m playground.bench.fairness
[--quick].

active_sessions_evicted_by_new_sessions: 30 students open the page and keep working (29 step through
a generation every 2 s, one trains), while NEW_SESSIONS new sessions arrive, half of them opening the
page and half only calling the API. A student whose generation starts over at step 1, or whose
training stops before its run's own end (its last step, or the time a run may take), lost its
session (goal 0).

Only localhost is contacted; every loop is bounded in count and time.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
import time
import urllib.request
from dataclasses import replace

import httpx
import numpy as np

from playground.bench import load
from playground.bench.asyncio_transport import AsyncioTransport
from playground.bench.common import result, run_alone
from playground.ui.session.training import RUN_SECONDS

SUITE = "app"
STUDENTS = 30
PERIOD_S = 2.0
FLOOD_S = {False: 60.0, True: 15.0}
FLOOD_SESSIONS = 192               # the flooder's sessions, each calling without pause: more than its address may queue
FLOOD_LEAD_S = 1.0                 # the flood is under way this long before the class acts
FLOODER = "198.51.100.9"
NEW_SESSIONS = {False: 1000, True: 300}
NEWCOMERS_AT_ONCE = 16
LIGHT_P95_GOAL_MS = 1000.0
TRUST_FORWARDED = {"PLAYGROUND_TRUST_FORWARDED_FOR": "1"}   # the app behind a proxy, as on a Space
_STEP = re.compile(rb'"Step (\d+)')


def student_address(index: int) -> str:
    return f"203.0.113.{index + 1}"


def _in_children(works: list, limit_s: float) -> list:
    """Each of `works` (functions without arguments) in a forked child of its own at the lowest CPU
    priority, all at once; what each returns, in order."""
    context = multiprocessing.get_context("fork")
    replies = [context.Queue() for _ in works]

    def child(work, reply) -> None:
        load.lowest_priority()
        reply.put(work())

    processes = [context.Process(target=child, args=(work, reply), daemon=True) for work, reply in zip(works, replies)]
    for process in processes:
        process.start()
    try:
        deadline = time.monotonic() + limit_s
        return [reply.get(timeout=max(1.0, deadline - time.monotonic())) for reply in replies]
    finally:
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()


def _in_child(work, limit_s: float):
    """`work()` in a forked child at the lowest CPU priority; what it returns."""
    return _in_children([work], limit_s)[0]


def _http(sessions: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=4 * sessions + 8, max_keepalive_connections=2 * sessions + 8)
    return httpx.AsyncClient(transport=AsyncioTransport(limits),
                             timeout=httpx.Timeout(load.CALL_LIMIT_S, connect=load.CONNECT_LIMIT_S))


async def _class(url: str, behaviour: load.Behaviour, start_at: float, duration_s: float) -> list[load.CallResult]:
    """The 30 students' calls, every PERIOD_S each, from `start_at` (time.time()) for `duration_s`."""
    async with _http(STUDENTS) as client:
        app = await load.connect(client, url)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        end = time.perf_counter() + duration_s

        async def student(index: int) -> list[load.CallResult]:
            rng = random.Random(index)
            actor, session = behaviour(rng, index), load.Session(client, app, student_address(index))
            due, done = time.perf_counter() + rng.uniform(0, PERIOD_S), []
            while due < end:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                outcome = await session.call(*actor.next_call(rng))
                actor.heard(outcome)
                done.append(replace(outcome, reply=b""))
                due += PERIOD_S
            return done

        results = await asyncio.gather(*(student(i) for i in range(STUDENTS)))
    return [r for done in results for r in done]


async def _flooder(url: str, behaviour: load.Behaviour, start_at: float, duration_s: float) -> tuple[int, int, str]:
    """FLOOD_SESSIONS sessions from one address calling attention views without pause from `start_at`
    (time.time()) for `duration_s`: (calls served, calls refused, the first refusal's message)."""
    async with _http(FLOOD_SESSIONS) as client:
        app = await load.connect(client, url)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        end = time.perf_counter() + duration_s
        flooded = refused = 0
        told = ""

        async def flooder(index: int) -> None:
            nonlocal flooded, refused, told
            rng = random.Random(10_000 + index)
            actor, session = behaviour(rng, index), load.Session(client, app, FLOODER)
            while time.perf_counter() < end:
                outcome = await session.call(*actor.attention(rng))
                flooded += outcome.ok
                if "HTTP 429" in outcome.error:
                    refused += 1
                    told = told or outcome.error
                if not outcome.ok:
                    await asyncio.sleep(0.05)         # refused: asks again at once, as a script would

        await asyncio.gather(*(flooder(i) for i in range(FLOOD_SESSIONS)))
    return flooded, refused, told


def flood_lines(url: str, behaviour: load.Behaviour, quick: bool) -> list[dict]:
    """The class's light calls while one client floods the queue (the app trusts X-Forwarded-For).

    The flooder and the class are two load processes, as they are two machines: in one process the
    flooder's hundred sessions held back the reading of the students' replies and sent their calls in
    bursts, which measured the load generator, not the app."""
    duration_s = FLOOD_S[quick]
    start_at = time.time() + FLOOD_LEAD_S                  # both connected; the flood under way before the class
    (flooded, refused, told), results = _in_children(
        [lambda: asyncio.run(_flooder(url, behaviour, start_at, duration_s + FLOOD_LEAD_S)),
         lambda: asyncio.run(_class(url, behaviour, start_at + FLOOD_LEAD_S, duration_s))],
        duration_s + 2 * FLOOD_LEAD_S + 2 * load.CALL_LIMIT_S + 60)
    done = [r.latency_ms for r in results if r.ok]
    served = [r.server_ms for r in results if r.ok and r.server_ms is not None]
    errors = [r.error for r in results if not r.ok]
    p95 = float(np.percentile(done, 95)) if done else float("inf")
    context = dict(students=STUDENTS, duration_s=duration_s, flooder_sessions=FLOOD_SESSIONS,
                   flooder_calls_served=flooded, flooder_calls_refused=refused, flooder_told=told[:160],
                   student_calls=len(results), student_refusals=len(errors), first_errors=errors[:3],
                   p50_ms=round(float(np.percentile(done, 50)), 1) if done else None,
                   server_p95_ms=round(float(np.percentile(served, 95)), 1) if served else None,
                   load_avg_1m=round(os.getloadavg()[0], 2))
    return [result(SUITE, "light_p95_ms_during_queue_flood", p95, "ms", LIGHT_P95_GOAL_MS, "lower", **context),
            result(SUITE, "student_refusals_during_queue_flood", len(errors), "calls", 0, "lower", **context)]


def page_opening(url: str) -> tuple[int, list]:
    """The event a fresh browser opening the app's address sends first, and its data: the draw of the
    first tab (the page's script clicks its hidden redraw button) with the page's language, the
    address's query (none) and nothing the browser keeps (an empty value for each kept state)."""
    config = json.loads(urllib.request.urlopen(url.rstrip("/") + "/config", timeout=30).read())
    first_tab = next(c["props"]["elem_id"] for c in config["components"] if c["type"] == "tabitem")
    redraw = next(c["id"] for c in config["components"]
                  if c["props"].get("elem_id") == first_tab.removeprefix("tab-") + "-redraw")
    draw = next(d for d in config["dependencies"] if [redraw, "click"] in d["targets"])
    return draw["id"], ["en", "", *({} for _ in draw["inputs"][2:])]


async def _arrivals(url: str, prompts: list[tuple[str, str]], finished: tuple[bytes, ...], new_sessions: int,
                    window_s: float) -> dict:
    async with _http(STUDENTS + NEWCOMERS_AT_ONCE) as client:
        app = await load.connect(client, url)
        opening, opening_data = page_opening(url)
        end = time.perf_counter() + window_s
        lost: list[str] = []
        errors: list[str] = []
        arrived = refused_newcomers = 0

        async def student(index: int) -> None:
            session = load.Session(client, app, student_address(index))
            opened = await session.call_index(opening, opening_data, "opening")
            if not opened.ok:
                errors.append(f"open: {opened.error}")
                return
            model, prompt = prompts[index % len(prompts)]
            last, due = 0, time.perf_counter() + random.Random(index).uniform(0, PERIOD_S)
            while due < end:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                step = await session.call("generate_step", dict(model=model, prompt=prompt, strategy="greedy",
                                                               max_new=40, lang="en"))
                found = _STEP.search(step.reply) if step.ok else None
                if not step.ok:
                    errors.append(step.error)
                elif any(marker in step.reply for marker in finished):
                    return                             # its generation is over: nothing more to tell
                elif found:
                    number = int(found.group(1))
                    if number <= last:                 # its generation started over: the session was lost
                        lost.append(f"student {index}: step {number} after {last}")
                        return
                    last = number
                due += PERIOD_S

        async def newcomer(index: int, sem: asyncio.Semaphore) -> None:
            nonlocal arrived, refused_newcomers
            async with sem:
                session = load.Session(client, app, f"192.0.2.{index % 250}")
                if index % 2:
                    outcome = await session.call_index(opening, opening_data, "opening")
                else:
                    model, prompt = prompts[index % len(prompts)]
                    outcome = await session.call("attention", dict(model=model, text=prompt, lang="en"))
                arrived += 1
                refused_newcomers += not outcome.ok

        students = [asyncio.create_task(student(i)) for i in range(STUDENTS - 1)]
        await asyncio.sleep(2 * PERIOD_S)               # the class is at work before the newcomers come
        sem = asyncio.Semaphore(NEWCOMERS_AT_ONCE)
        await asyncio.gather(*(newcomer(i, sem) for i in range(new_sessions)))
        await asyncio.gather(*students)
    return dict(lost=lost, errors=errors[:5], arrived=arrived, refused_newcomers=refused_newcomers)


def eviction_lines(url: str, prompts: list[tuple[str, str]], finished: tuple[bytes, ...], quick: bool) -> list[dict]:
    """Active students (one of them training) while NEW_SESSIONS new sessions arrive; `finished`: how
    the end of a generation shows in a reply."""
    from playground.bench.app_training import Training  # it builds on playground.bench.app
    new_sessions = NEW_SESSIONS[quick]
    trainer = Training(url)
    trainer.start()
    try:
        started = time.perf_counter()
        while not trainer.steps and time.perf_counter() - started < 120:
            time.sleep(0.2)
        window_start = time.perf_counter()
        window_s = 20.0 + new_sessions * 0.05
        outcome = _in_child(lambda: asyncio.run(_arrivals(url, prompts, finished, new_sessions, window_s)),
                            window_s + new_sessions + 2 * load.CALL_LIMIT_S + 60)
        ran_out = time.perf_counter() - started >= RUN_SECONDS - 5        # a run's own end, not a loss
        training_kept = (trainer.trained_throughout(window_start) or (trainer.job.done() and ran_out)
                         or trainer.reached_its_last_step())
    finally:
        trainer.stop()
    evicted = len(outcome["lost"]) + (not training_kept)
    return [result(SUITE, "active_sessions_evicted_by_new_sessions", evicted, "sessions", 0, "lower",
                   students=STUDENTS, trainings=1, new_sessions=new_sessions, arrived=outcome["arrived"],
                   newcomers_refused=outcome["refused_newcomers"], lost=outcome["lost"][:5],
                   training_kept=bool(training_kept), student_errors=outcome["errors"])]


def run_flood(quick: bool) -> list[dict]:
    """light_p95_ms_during_queue_flood alone: the app started as the app suite starts it (trusting
    X-Forwarded-For), the page's examples viewed once, then the flood."""
    from playground.bench import app as app_suite                 # it imports this module
    from playground.bench.app_training import environment
    with environment(**TRUST_FORWARDED):
        app = app_suite.AppProcess()
    try:
        choices = app_suite.teacher_opens(app.url)
        return flood_lines(app.url, lambda rng, i: app_suite.ClassStudent(choices, "en", rng, edits=True), quick)
    finally:
        app.stop()


def main(argv: list[str] | None = None) -> int:
    return run_alone("python -m playground.bench.fairness",
                     "light_p95_ms_during_queue_flood alone (the app suite measures it too)", run_flood, argv)


if __name__ == "__main__":
    raise SystemExit(main())
