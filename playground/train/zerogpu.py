"""Training on a Hugging Face ZeroGPU Space.

There (SPACES_ZERO_GPU set by the platform) CUDA exists only inside functions decorated with
`spaces.GPU`, and each call runs in a worker process that receives its arguments and returns its
result pickled: what the call changes in its arguments stays in the worker. So a run trains in
chunks of at most CHUNK_SECONDS: one call takes the Trainer, moves it to the GPU, trains, moves it
back to the CPU and returns it with the items its run yielded, and the caller's Trainer takes over
the returned state. The process itself stays on the CPU (playground.device), where the views run.

Each call asks the platform for what it will use (`gpu_seconds`: the chunk and the call's
overhead), and is charged to the daily GPU quota of whoever made the request: `spaces` reads the
Gradio request of the event from the calling context, so `run` makes every call in the context it
was called in (the page's event, or a copy the caller made for a worker thread). When a call is
refused (the quota is spent, the queue for a GPU timed out, no GPU) or fails, the run goes on on
the CPU from the last chunk that came back, and every event from then on carries the reason
(TrainEvent.gpu_refusal); the next run tries the GPU again.

The Train tab's runs (the lessons' live runs among them) train this way; the labs' rounds of a
few steps stay on the CPU, where they are sized to finish, since a GPU call costs more than they do.
Everywhere else `run` is the Trainer's own run and nothing is decorated. The decorated function is
made when this module is imported, which the app does at start-up, as ZeroGPU requires.
"""
from __future__ import annotations

import contextvars
import logging
import math
import re
from dataclasses import replace
from typing import Iterator

import torch

from playground.device import on_zero_gpu
from playground.train.events import GpuRefusal, Snapshot, TrainEvent
from playground.train.trainer import Trainer

CHUNK_SECONDS = 5.0            # training per GPU call; a Stop waits for the chunk at most this long
CALL_OVERHEAD_SECONDS = 5.0    # per call: a worker's start, the trainer's pickling and moves, the closing evaluation
GPU = torch.device("cuda")

log = logging.getLogger(__name__)


def gpu_seconds(trainer: Trainer, max_steps: int | None, max_seconds: float) -> int:
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
def _train_chunk(trainer: Trainer, max_steps: int | None, max_seconds: float) -> tuple[Trainer, list]:
    """One chunk of the run on the GPU; the trainer comes back on the CPU with what the run yielded."""
    trainer.to(GPU)
    try:
        items = list(trainer.run(max_steps=max_steps, max_seconds=max_seconds))
    finally:
        trainer.to(torch.device("cpu"))
    return trainer, items


def run(trainer: Trainer, max_steps: int | None = None,
        max_seconds: float | None = None) -> Iterator[TrainEvent | Snapshot]:
    """`trainer.run(max_steps, max_seconds)`; on a ZeroGPU Space the same run in chunks on its GPU,
    or on the CPU from the first refused call on.

    Closing the returned generator stops the run once the chunk under way ends. The GPU calls are
    made in the context `run` is called in, so they are charged to the request found there.
    """
    if not on_zero_gpu():
        return trainer.run(max_steps=max_steps, max_seconds=max_seconds)
    return _in_chunks(trainer, max_steps, max_seconds, contextvars.copy_context())


def _in_chunks(trainer: Trainer, max_steps: int | None, max_seconds: float | None,
               context: contextvars.Context) -> Iterator[TrainEvent | Snapshot]:
    first_step, first_elapsed = trainer.step, trainer.elapsed
    while True:
        steps_left = None if max_steps is None else max_steps - (trainer.step - first_step)
        seconds_left = None if max_seconds is None else max_seconds - (trainer.elapsed - first_elapsed)
        chunk = CHUNK_SECONDS if seconds_left is None else min(CHUNK_SECONDS, seconds_left)
        try:
            trained, items = context.copy().run(_train_chunk, trainer, steps_left, chunk)
        except Exception as error:                    # refused, or failed on the GPU: the rest on the CPU
            refusal = gpu_refusal(error)
            log.warning("training goes on on the CPU (%s): %s", refusal.reason, refusal.detail)
            yield from (_noted(trainer, item, refusal) for item in trainer.run(steps_left, seconds_left))
            return
        vars(trainer).update(vars(trained))            # the worker's state is the trainer's now
        last = items[-1]
        more = (last.status == "paused" and (max_steps is None or trainer.step - first_step < max_steps)
                and (max_seconds is None or trainer.elapsed - first_elapsed < max_seconds))
        if more:                                       # a chunk's end, not the run's
            items[-1] = trainer.history[-1] = replace(last, status="running")
        yield from items
        if not more:
            return


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
    """Why a GPU call did not train, from what `spaces` raised: its errors are Gradio errors with a
    title ("ZeroGPU quota exceeded", "ZeroGPU queue timeout", ...) and a message; anything else
    (the worker failed, CUDA was missing) reads as no GPU."""
    title = str(getattr(error, "title", "") or "")
    message = str(getattr(error, "message", "") or error)
    if message.startswith("No GPU was available after") or title in ("ZeroGPU queue timeout",
                                                                      "ZeroGPU pending credits exceeded"):
        reason = "gpu_busy"
    elif title in ("ZeroGPU quota exceeded", "ZeroGPU illegal duration"):
        reason = "gpu_quota"
    else:
        reason = "gpu_unavailable"
    quota = QUOTA_LEFT.search(message)
    retry = RETRY_IN.search(message)
    detail = message if title else f"{type(error).__name__}: {message}"
    return GpuRefusal(reason, detail, quota_left_s=int(quota.group(2)) if quota else None,
                      retry_in=retry.group(1).strip() if retry else None)
