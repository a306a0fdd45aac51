"""Gradio's queue woken by its events instead of a clock.

Gradio's queue loop looks for an event to start every `sleep_when_free` seconds while it has none it
can start, and its progress loop looks for progress to send every `progress_update_sleep_when_free`
seconds while no event runs. At the 5 ms and 50 ms the app used, an idle `python app.py` woke 220
times a second: 2.4 % of a core doing nothing (its event loop's thread 0.62 CPU-s over 30 s idle),
paid by a Space between classes and by each app server of the test suite for its whole life.

Here both loops wait on a signal: an event that joins the queue, or one that ends (freeing a worker
and a slot of its group), wakes the queue loop at once; an event that starts wakes the progress loop.
Each loop still looks once every FALLBACK_SECONDS without a signal, so nothing waits longer than that.
The queue loop is Gradio's own (`gradio.queueing.Queue.start_processing` of the pinned version), with
its sleeps replaced by the wait: the events it starts, and how, are unchanged.

Why it is kept (measured on the 2-core machine, the tree before against this, same run): an idle
`python app.py` 2.4 % of a core -> 0.37 %; the echo event's wall time, client to client, 5.4 ms -> 2.8 ms
(p50 of 100 calls in a row, an event no longer waits for the next look) and its server CPU 3.0 -> 2.7 ms.
"""
from __future__ import annotations

import asyncio
import contextlib
import time

from gradio.utils import run_coro_in_background, set_task_name

FALLBACK_SECONDS = 0.5          # a loop looks this often without a signal


class QueueWakeup:
    """Installed over a Blocks' queue before it starts: its loops wait for a signal rather than poll."""

    def __init__(self, queue):
        self.queue = queue
        # Made again as each loop starts, in the event loop that serves (a relaunch has another).
        self._work = asyncio.Event()             # an event joined or ended: the queue loop looks
        self._running = asyncio.Event()          # an event started: the progress loop looks
        self._push, self._process_events = queue.push, queue.process_events
        queue.push, queue.process_events = self.push, self.process_events
        queue.start_processing, queue.start_progress_updates = self.start_processing, self.start_progress_updates

    async def push(self, *args, **kwargs):
        try:
            return await self._push(*args, **kwargs)
        finally:
            self._work.set()

    async def process_events(self, *args, **kwargs):
        try:
            return await self._process_events(*args, **kwargs)
        finally:
            self._work.set()

    async def _wait(self, signal: asyncio.Event) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(signal.wait(), FALLBACK_SECONDS)

    async def start_processing(self) -> None:
        """Gradio's loop: start the next batch of events while there is one a worker can take, else wait."""
        queue, self._work = self.queue, asyncio.Event()
        try:
            while not queue.stopped:
                self._work.clear()                 # before looking: a signal from now on is not lost
                if len(queue) == 0 or None not in queue.active_jobs:
                    await self._wait(self._work)
                    continue
                async with queue.delete_lock:
                    event_batch = queue.get_events()
                if not event_batch:
                    await self._wait(self._work)
                    continue
                events, batch, concurrency_id = event_batch
                queue.active_jobs[queue.active_jobs.index(None)] = events
                event_queue = queue.event_queue_per_concurrency_id[concurrency_id]
                event_queue.current_concurrency += 1
                start_time = time.time()
                fn = events[0].fn
                event_queue.start_times_per_fn[fn].add(start_time)
                for event in events:
                    if (analytics := queue.event_analytics.get(event._id)) is not None:
                        analytics["status"] = "processing"
                task = run_coro_in_background(queue.process_events, events, batch, start_time, fn)
                set_task_name(task, events[0].session_hash, fn._id, events[0]._id, batch)
                queue._asyncio_tasks.add(task)
                task.add_done_callback(queue._asyncio_tasks.discard)
                if queue.live_updates:
                    queue.broadcast_estimations(concurrency_id)
                self._running.set()
        finally:
            queue.stopped = True
            queue._cancel_asyncio_tasks()

    async def start_progress_updates(self) -> None:
        """Gradio's progress loop, waiting while no event runs."""
        queue, self._running = self.queue, asyncio.Event()
        while not queue.stopped:
            events = [event for job in queue.active_jobs if job is not None for event in job]
            if not events:
                self._running.clear()
                await self._wait(self._running)
                continue
            for event in events:
                if event.progress_pending and event.progress:
                    event.progress_pending = False
                    queue.send_message(event, event.progress)
            await asyncio.sleep(queue.progress_update_sleep_when_free)
