"""Training work that outlives one page event: a job in a thread of its own, whose items the page
streams, and which can be asked to stop between two of its steps.

The thread runs at a lower CPU priority than the threads answering viewers (so a busy CPU serves
viewers first), with autograd on and $PLAYGROUND_TRAINING_THREADS intra-op threads. At most one
job runs per Worker. Used by the Train tab's runs and the Labs tab's side-by-side trainings.
The job runs in a copy of the launching event's context, so what Gradio keeps there (the request)
is still known to the job: on a ZeroGPU Space a chunk of training is then counted against the
quota of the student who pressed Start, not the Space's.
"""
from __future__ import annotations

import contextvars
import os
import queue
import threading
from typing import Callable, Iterator

import torch

from .threads import training_threads

TRAINING_NICENESS = 10        # how much nicer than the viewers' threads a training thread is
END = "end"                   # the worker's last item
STOP_WAIT_SECONDS = 30.0      # how long stop_and_wait waits by default for a job to reach the end of its step

Put = Callable[[object], None]


class Worker:
    """Runs one job at a time in a background thread; see the module docstring."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = False
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._idle.set()

    @property
    def running(self) -> bool:
        return self._running

    @property
    def stopping(self) -> bool:
        """Whether the job was asked to stop (it checks this between two of its steps)."""
        return self._stop.is_set()

    def launch(self, job: Callable[[Put], None], refusal: Exception) -> Iterator[list]:
        """Start ``job(put)`` in the background and return what it puts, in batches, until it ends.

        Raises ``refusal`` while another job runs. Closing the returned generator asks the job to
        stop; an exception raised by the job is raised by the generator.
        """
        with self._lock:
            if self._running:
                raise refusal
            self._running = True
            self._stop.clear()
            self._idle.clear()
        items: queue.Queue = queue.Queue()
        threading.Thread(target=contextvars.copy_context().run, args=(self._work, items, job),
                         name="playground-training", daemon=True).start()
        return self._batches(items)

    def _work(self, items: queue.Queue, job: Callable[[Put], None]) -> None:
        try:
            lower_priority()
            torch.set_num_threads(training_threads())
            with torch.inference_mode(False), torch.enable_grad():
                job(items.put)
        except BaseException as error:           # handed to the page, which raises it
            items.put(error)
        finally:
            with self._lock:
                self._running = False
                self._idle.set()
            items.put(END)

    def _batches(self, items: queue.Queue) -> Iterator[list]:
        """What the job has put so far (at least one item) until it ends."""
        ended = False
        try:
            while not ended:
                batch = [items.get()]
                while not items.empty():
                    batch.append(items.get_nowait())
                for item in batch:
                    if isinstance(item, BaseException):
                        raise item
                ended = any(item is END for item in batch)
                batch = [item for item in batch if item is not END]
                if batch:
                    yield batch
        finally:
            if not ended:
                self._stop.set()

    def stop(self) -> None:
        """Ask a running job to stop between two of its steps (without waiting)."""
        self._stop.set()

    def stop_and_wait(self, timeout: float = STOP_WAIT_SECONDS) -> bool:
        """Ask a running job to stop; True once none runs (False if one still runs after ``timeout`` s)."""
        self._stop.set()
        return self._idle.wait(timeout)


def lower_priority() -> None:
    """Make the calling thread nicer (Linux: niceness is per thread), so viewers' requests win a busy CPU."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + TRAINING_NICENESS))
    except (AttributeError, OSError):            # not Linux, or not allowed: train at normal priority
        pass
