"""Training on a Hugging Face ZeroGPU Space.

There (SPACES_ZERO_GPU set by the platform) CUDA exists only inside functions decorated with
`spaces.GPU`, and each call runs in a worker process that receives its arguments and returns its
result pickled: what the call changes in its arguments stays in the worker. So a run trains in
chunks of at most CHUNK_SECONDS: one call takes the Trainer, moves it to the GPU, trains, moves it
back to the CPU and returns it with the items its run yielded, and the caller's Trainer takes over
the returned state. The process itself stays on the CPU (playground.device), where the views run.

The Train tab's runs (the lessons' live runs among them) train this way; the labs' rounds of a
few steps stay on the CPU, where they are sized to finish, since a GPU call costs more than they do.
Everywhere else `run` is the Trainer's own run and nothing is decorated.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

import torch

from playground.device import on_zero_gpu
from playground.train.events import Snapshot, TrainEvent
from playground.train.trainer import Trainer

CHUNK_SECONDS = 5.0            # training per GPU call; a Stop waits for the chunk at most this long
GPU_CALL_SECONDS = 60          # what ZeroGPU reserves per call: the chunk, the moves and the pickling
GPU = torch.device("cuda")


def _on_gpu(function):
    """`function` as a ZeroGPU task on a ZeroGPU Space; unchanged elsewhere."""
    if not on_zero_gpu():
        return function
    import spaces                   # installed by requirements.txt; imported only where it acts
    return spaces.GPU(duration=GPU_CALL_SECONDS)(function)


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
    """`trainer.run(max_steps, max_seconds)`; on a ZeroGPU Space the same run in chunks on its GPU.

    Closing the returned generator stops the run once the chunk under way ends.
    """
    if not on_zero_gpu():
        return trainer.run(max_steps=max_steps, max_seconds=max_seconds)
    return _in_chunks(trainer, max_steps, max_seconds)


def _in_chunks(trainer: Trainer, max_steps: int | None, max_seconds: float | None) -> Iterator[TrainEvent | Snapshot]:
    first_step, first_elapsed = trainer.step, trainer.elapsed
    while True:
        steps_left = None if max_steps is None else max_steps - (trainer.step - first_step)
        seconds_left = None if max_seconds is None else max_seconds - (trainer.elapsed - first_elapsed)
        chunk = CHUNK_SECONDS if seconds_left is None else min(CHUNK_SECONDS, seconds_left)
        trained, items = _train_chunk(trainer, steps_left, chunk)
        vars(trainer).update(vars(trained))            # the worker's state is the trainer's now
        last = items[-1]
        more = (last.status == "paused" and (max_steps is None or trainer.step - first_step < max_steps)
                and (max_seconds is None or trainer.elapsed - first_elapsed < max_seconds))
        if more:                                       # a chunk's end, not the run's
            items[-1] = trainer.history[-1] = replace(last, status="running")
        yield from items
        if not more:
            return
