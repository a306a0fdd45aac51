"""Training on a Hugging Face ZeroGPU Space.

There (SPACES_ZERO_GPU set by the platform) CUDA exists only inside functions decorated with
`spaces.GPU`, and each call runs in a worker process that receives its arguments and returns its
result pickled: what the call changes in its arguments stays in the worker. So a run trains in
chunks of at most CHUNK_SECONDS: one call takes the Trainer, moves it to the GPU, trains, moves it
back to the CPU and returns it with the items its run yielded, and the caller's Trainer takes over
the returned state. A chunk's items show when it returns, so a run's first chunk is short
(FIRST_CHUNK_SECONDS): a student sees the first point of their run within seconds of its GPU.
Before returning, the worker checks that nothing it hands back is still on the GPU
(check_left_on): the main process could not take it, so the call fails there instead. The process
itself stays on the CPU (playground.device), where the views run.

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
from playground.model import tensors_on
from playground.train.events import GpuRefusal, Snapshot, TrainEvent
from playground.train.trainer import Trainer

CHUNK_SECONDS = 5.0            # training per GPU call; a Stop waits for the chunk at most this long
FIRST_CHUNK_SECONDS = 1.0      # a run's first call: its first progress shows this soon after its GPU comes
CALL_OVERHEAD_SECONDS = 5.0    # per call: a worker's start, the trainer's pickling and moves, the closing evaluation
GPU = torch.device("cuda")
CPU = torch.device("cpu")

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
        trainer.to(CPU)
    check_left_on((trainer, items), GPU)
    return trainer, items


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

    Closing the returned generator stops the run once the chunk under way ends. The GPU calls are
    made in the context `run` is called in, so they are charged to the request found there.
    """
    if not on_zero_gpu():
        return trainer.run(max_steps=max_steps, max_seconds=max_seconds)
    return _in_chunks(trainer, max_steps, max_seconds, contextvars.copy_context())


def _in_chunks(trainer: Trainer, max_steps: int | None, max_seconds: float | None,
               context: contextvars.Context) -> Iterator[TrainEvent | Snapshot]:
    first_step, first_elapsed = trainer.step, trainer.elapsed
    longest = min(FIRST_CHUNK_SECONDS, CHUNK_SECONDS)  # a chunk's results show only when it ends
    while True:
        steps_left = None if max_steps is None else max_steps - (trainer.step - first_step)
        seconds_left = None if max_seconds is None else max_seconds - (trainer.elapsed - first_elapsed)
        chunk = longest if seconds_left is None else min(longest, seconds_left)
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
        longest = CHUNK_SECONDS


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
