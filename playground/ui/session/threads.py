"""How many torch threads a request and a training use, read from the environment: a 2-vCPU host
serves several requests at once (one thread each), and one core trains while the other answers."""
from __future__ import annotations

import os

THREADS_ENV_VAR = "PLAYGROUND_TORCH_THREADS"
DEFAULT_TORCH_THREADS = 1   # a 2-vCPU Space serves several requests at once: one thread each
TRAINING_THREADS_ENV_VAR = "PLAYGROUND_TRAINING_THREADS"
DEFAULT_TRAINING_THREADS = 1   # one core trains, the other keeps answering viewers on a 2-vCPU Space


def positive_int_env(name: str, default: int) -> int:
    """The whole number >= 1 in environment variable `name`, else `default`."""
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    if not value.strip().isdigit() or int(value) < 1:
        raise ValueError(f"${name} must be a whole number >= 1, got {value!r}")
    return int(value)


def torch_threads() -> int:
    """Intra-op threads per request: $PLAYGROUND_TORCH_THREADS (an integer >= 1), else 1."""
    return positive_int_env(THREADS_ENV_VAR, DEFAULT_TORCH_THREADS)


def training_threads() -> int:
    """Intra-op threads of a training: $PLAYGROUND_TRAINING_THREADS (an integer >= 1), else 1."""
    return positive_int_env(TRAINING_THREADS_ENV_VAR, DEFAULT_TRAINING_THREADS)
