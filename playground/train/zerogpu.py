"""Training on a Hugging Face ZeroGPU Space.

There (SPACES_ZERO_GPU set by the platform) CUDA exists only inside functions decorated with
`spaces.GPU`, and each call runs in a worker process that receives its arguments and returns its
results pickled: what the call changes in its arguments stays in the worker. So a run trains in
chunks of at most CHUNK_SECONDS: one call takes the Trainer, moves it to the GPU and trains, and
the items its run yields stream back as they come (the call is a generator, which `spaces` relays
item by item), so a student sees the first point of a run about one event interval
(TrainConfig.event_every_s) after its GPU comes, and the curves move during a chunk. Its last item
is the Trainer, moved back to the CPU, whose state the caller's Trainer takes over. Before handing
anything back, the worker checks that it holds nothing on the GPU (check_left_on): the main process
could not take it, so the call fails there instead. The process itself stays on the CPU
(playground.device), where the views run.

Closing a run stops it within a chunk, keeping the chunk's training: the caller sets the run's byte
in STOPS, memory shared with the workers `spaces` forks (made at import, before any fork), the
worker ends the chunk at the run's next item and hands the Trainer back as ever.

Each call asks the platform for what it will use (`gpu_seconds`: the chunk and the call's
overhead), and is charged to the daily GPU quota of whoever made the request: `spaces` reads the
Gradio request of the event from the calling context, so `run` draws every item of a call in the
context it was called in (the page's event, or a copy the caller made for a worker thread). When a
call is refused (the quota is spent, the queue for a GPU timed out, no GPU) or fails, the run goes
on on the CPU from the last chunk that came back (the progress a failed chunk streamed leaves the
trainer's history), and every event from then on carries the reason (TrainEvent.gpu_refusal); the
next run tries the GPU again.

The Train tab's runs (the lessons' live runs among them) train this way; the labs' rounds of a
few steps stay on the CPU, where they are sized to finish, since a GPU call costs more than they do.
Everywhere else `run` is the Trainer's own run and nothing is decorated. The decorated function is
made when this module is imported, which the app does at start-up, as ZeroGPU requires.
"""
from __future__ import annotations

import contextvars
import logging
import math
import mmap
import re
import threading
from contextlib import closing
from dataclasses import replace
from typing import Iterator

import torch

from playground.device import on_zero_gpu
from playground.model import tensors_on
from playground.train.events import GpuRefusal, Snapshot, TrainEvent
from playground.train.trainer import Trainer

CHUNK_SECONDS = 5.0            # training per GPU call (its progress streams as it comes)
CALL_OVERHEAD_SECONDS = 5.0    # per call: a worker's start, the trainer's pickling and moves, the closing evaluation
STOPPABLE_RUNS = 256           # runs at once whose chunk under way a Stop reaches (others stop at the chunk's end)
GPU = torch.device("cuda")
CPU = torch.device("cpu")

log = logging.getLogger(__name__)


class StopFlags:
    """One byte per run in anonymous shared memory: made before `spaces` forks its workers, so each
    worker reads what the main process writes. A run takes a byte (`take`) for its life; setting it
    asks the worker to end the chunk under way at the run's next item."""

    def __init__(self, count: int):
        self._bytes = mmap.mmap(-1, count)             # MAP_SHARED | MAP_ANONYMOUS: inherited by fork, shared
        self._free = list(range(count))
        self._lock = threading.Lock()

    def take(self) -> int | None:
        """A cleared byte for a run; None when every byte is taken."""
        with self._lock:
            if not self._free:
                return None
            index = self._free.pop()
        self._bytes[index] = 0
        return index

    def give_back(self, index: int | None) -> None:
        if index is not None:
            with self._lock:
                self._free.append(index)

    def set(self, index: int | None, value: bool = True) -> None:
        if index is not None:
            self._bytes[index] = int(value)

    def is_set(self, index: int | None) -> bool:
        return index is not None and self._bytes[index] == 1


STOPS = StopFlags(STOPPABLE_RUNS)


def gpu_seconds(trainer: Trainer, max_steps: int | None, max_seconds: float, stop: int | None = None) -> int:
    """The GPU time one chunk asks for, in whole seconds: its training time and the call's overhead.

    Called by `spaces` with the chunk's own arguments before each call; the platform refuses the
    call when the caller's quota left is below it, and charges the time the call really took.
    """
    return math.ceil(max_seconds + CALL_OVERHEAD_SECONDS)


def _on_gpu(function):
    """`function` as a ZeroGPU task on a ZeroGPU Space; unchanged elsewhere."""
    if not on_zero_gpu():
        return function
    import spaces                   # installed by requirements.txt; imported only where it acts
    return spaces.GPU(duration=gpu_seconds)(function)


@_on_gpu
def _train_chunk(trainer: Trainer, max_steps: int | None, max_seconds: float,
                 stop: int | None = None) -> Iterator[TrainEvent | Snapshot | Trainer]:
    """One chunk of the run on the GPU: what the run yields, as it comes, then the trainer back on the
    CPU. Ends at the run's next item once STOPS says `stop`."""
    trainer.to(GPU)
    try:
        with closing(trainer.run(max_steps=max_steps, max_seconds=max_seconds)) as run:
            for item in run:
                check_left_on(item, GPU)
                yield item
                if STOPS.is_set(stop):
                    break
    finally:
        trainer.to(CPU)
    check_left_on(trainer, GPU)
    yield trainer


class LeftOnGpu(RuntimeError):
    """What a GPU call would hand back holds tensors on the GPU: the Space's main process, where
    CUDA is forbidden, could not unpickle them, and the chunk's training would be lost."""


def check_left_on(result: object, device: torch.device) -> None:
    """Raise LeftOnGpu, naming them, when tensors reachable from `result` (a module's caches among
    them) are still on the kind of device the chunk trained on (nothing to check for the CPU)."""
    stray = [] if device.type == "cpu" else tensors_on(result, device.type)
    if stray:
        shown = ", ".join(stray[:4]) + (", ..." if len(stray) > 4 else "")
        raise LeftOnGpu(f"the trained model would come back from the GPU with {len(stray)} tensor(s) still on "
                        f"{device.type} ({shown}): something it keeps did not follow .to(cpu)")


def run(trainer: Trainer, max_steps: int | None = None,
        max_seconds: float | None = None) -> Iterator[TrainEvent | Snapshot]:
    """`trainer.run(max_steps, max_seconds)`; on a ZeroGPU Space the same run in chunks on its GPU,
    or on the CPU from the first refused call on.

    Closing the returned generator stops the run at its next item, within the chunk under way, whose
    training the trainer keeps. The GPU calls are made in the context `run` is called in, so they are
    charged to the request found there.
    """
    if not on_zero_gpu():
        return trainer.run(max_steps=max_steps, max_seconds=max_seconds)
    return _in_chunks(trainer, max_steps, max_seconds, contextvars.copy_context())


def _in_chunks(trainer: Trainer, max_steps: int | None, max_seconds: float | None,
               context: contextvars.Context) -> Iterator[TrainEvent | Snapshot]:
    first_step, first_elapsed = trainer.step, trainer.elapsed
    stop = STOPS.take()
    try:
        while True:
            steps_left = None if max_steps is None else max_steps - (trainer.step - first_step)
            seconds_left = None if max_seconds is None else max_seconds - (trainer.elapsed - first_elapsed)
            chunk = CHUNK_SECONDS if seconds_left is None else min(CHUNK_SECONDS, seconds_left)
            try:
                last = yield from _chunk(trainer, steps_left, chunk, stop, context.copy())
            except Exception as error:                    # refused, or failed on the GPU: the rest on the CPU
                refusal = gpu_refusal(error)
                log.warning("training goes on on the CPU (%s): %s", refusal.reason, refusal.detail)
                yield from (_noted(trainer, item, refusal) for item in trainer.run(steps_left, seconds_left))
                return
            more = (last.status == "paused" and (max_steps is None or trainer.step - first_step < max_steps)
                    and (max_seconds is None or trainer.elapsed - first_elapsed < max_seconds))
            if more:                                      # a chunk's end, not the run's
                last = trainer.history[-1] = replace(last, status="running")
            yield last
            if not more:
                return
    finally:
        STOPS.give_back(stop)


def _chunk(trainer: Trainer, max_steps: int | None, max_seconds: float, stop: int | None,
           call: contextvars.Context) -> Iterator[TrainEvent | Snapshot]:
    """One GPU call: yields its items as they stream in (its events joining the trainer's history),
    all but the last event, and returns that one once the trainer has taken over the worker's state.
    Closed between two items, it asks the worker to stop and takes over the state handed back. A
    call that fails takes its streamed events out of the history again and raises."""
    shown = len(trainer.history)
    STOPS.set(stop, False)
    items = _drawn_in(call, _train_chunk(trainer, max_steps, max_seconds, stop))
    final = None
    try:
        for item in items:
            if isinstance(item, Trainer):
                vars(trainer).update(vars(item))          # the worker's state is the trainer's now
            elif isinstance(item, TrainEvent) and item.status != "running":
                final = item                              # shown once the trainer has its state
            else:
                if isinstance(item, TrainEvent):
                    trainer.history.append(item)
                yield item
    except GeneratorExit:
        STOPS.set(stop)
        try:
            for item in items:
                if isinstance(item, Trainer):
                    vars(trainer).update(vars(item))
        except Exception as error:                        # the stopped call failed: its training is lost
            del trainer.history[shown:]
            log.warning("a stopped GPU call failed; the run keeps its state from before it: %s", error)
        raise
    except Exception:
        del trainer.history[shown:]
        raise
    return final


def _drawn_in(call: contextvars.Context, items: Iterator) -> Iterator:
    """The items of `items`, each drawn in `call` (where `spaces` reads the request it charges)."""
    while True:
        try:
            item = call.run(next, items)
        except StopIteration:
            return
        yield item


def _noted(trainer: Trainer, item: TrainEvent | Snapshot, refusal: GpuRefusal) -> TrainEvent | Snapshot:
    """An event of the run on the CPU, carrying why (in the trainer's history too)."""
    if not isinstance(item, TrainEvent):
        return item
    noted = replace(item, gpu_refusal=refusal)
    if trainer.history and trainer.history[-1] is item:
        trainer.history[-1] = noted
    return noted


QUOTA_LEFT = re.compile(r"\((\d+)s requested vs\. (\d+)s left\)")
RETRY_IN = re.compile(r"[Tt]ry again in ([^.]+?)\.?(?:\s|$)")


def gpu_refusal(error: Exception) -> GpuRefusal:
    """Why a GPU call did not train, from what `spaces` raised (0.51: Gradio errors with a title and a
    message; see spaces/zero/client.py):

    - "Space app has reached its GPU limit": the request carried no x-ip-token, so the call counted
      against the Space's own small pool: the app was opened outside huggingface.co ("gpu_outside_hf");
    - "You have exceeded your ZeroGPU quota" (neither "free" nor "Pro"): a visitor who is not signed
      in ("gpu_signed_out");
    - "your free ZeroGPU quota", "your Pro ZeroGPU quota", the runs limit: the user's quota is spent
      until it resets ("gpu_quota");
    - no GPU came free in the queue's 60 s, or none is free on the node ("gpu_busy");
    - anything else (the worker failed, CUDA was missing): "gpu_unavailable".
    """
    title = str(getattr(error, "title", "") or "")
    message = str(getattr(error, "message", "") or error)
    if (message.startswith("No GPU was available") and title != "ZeroGPU worker error") or title in (
            "ZeroGPU queue timeout", "ZeroGPU pending credits exceeded"):
        reason = "gpu_busy"
    elif message.startswith("Space app has reached its GPU limit"):
        reason = "gpu_outside_hf"
    elif message.startswith("You have exceeded your ZeroGPU quota"):
        reason = "gpu_signed_out"
    elif title == "ZeroGPU quota exceeded":
        reason = "gpu_quota"
    else:
        reason = "gpu_unavailable"
    quota = QUOTA_LEFT.search(message)
    retry = RETRY_IN.search(message)
    detail = f"{title}: {message}" if title else f"{type(error).__name__}: {message}"
    return GpuRefusal(reason, detail.strip(), quota_left_s=int(quota.group(2)) if quota else None,
                      retry_in=retry.group(1).strip() if retry else None)
