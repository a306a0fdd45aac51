"""Where tensors live: the one device of this process, chosen once.

CUDA when there is a GPU, then Apple's MPS, else the CPU; the environment variable
PLAYGROUND_DEVICE (cpu, cuda, cuda:N, mps) overrides the choice, and a requested device this
machine does not have is refused with a message naming the ones it has. A model's device is
read from its parameters, never stored on it.

On a Hugging Face ZeroGPU Space (SPACES_ZERO_GPU set by the platform) the GPU exists only inside
functions decorated with `spaces.GPU`, so the process's device is the CPU there, and training
moves to the GPU for its chunks (playground.train.zerogpu).
"""
from __future__ import annotations

import os

import torch
from torch import nn

DEVICE_VARIABLE = "PLAYGROUND_DEVICE"
ZERO_GPU_VARIABLE = "SPACES_ZERO_GPU"
KINDS = ("cpu", "cuda", "mps")

_chosen: torch.device | None = None


def available_devices() -> list[str]:
    """The devices this machine can run on, best first: cuda:0 ... cuda:N-1, mps, cpu."""
    names = []
    if torch.cuda.is_available():
        names += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    if torch.backends.mps.is_available():
        names.append("mps")
    return [*names, "cpu"]


def resolve_device(requested: str | None = None) -> torch.device:
    """The device named by ``requested`` ("cpu", "cuda", "cuda:N", "mps"), or the best one for None.

    Raises ValueError for a name that is not a device, or a device this machine does not have.
    """
    available = available_devices()
    if requested is None or not requested.strip():
        return torch.device(available[0])
    name = requested.strip().lower()
    try:
        device = torch.device(name)
    except RuntimeError:
        device = None
    if device is None or device.type not in KINDS or (device.type != "cuda" and device.index not in (None, 0)):
        raise ValueError(f"unknown device {requested!r}; use one of cpu, cuda, cuda:N or mps "
                         f"(this machine has {', '.join(available)})")
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)
    wanted = str(device) if device.type == "cuda" else device.type
    if wanted not in available:
        raise ValueError(f"device {requested!r} is not available on this machine; it has {', '.join(available)}")
    return torch.device(wanted)


def on_zero_gpu() -> bool:
    """True on a Hugging Face ZeroGPU Space, where CUDA exists only inside `spaces.GPU` calls."""
    return os.environ.get(ZERO_GPU_VARIABLE, "").strip().lower() in ("1", "t", "true")


def default_device() -> torch.device:
    """This process's device: PLAYGROUND_DEVICE when set, else the CPU on ZeroGPU, else the best
    available; chosen on the first call."""
    global _chosen
    if _chosen is None:
        requested = os.environ.get(DEVICE_VARIABLE)
        if not (requested and requested.strip()) and on_zero_gpu():
            _chosen = torch.device("cpu")          # without asking CUDA, which spaces.GPU calls own
            return _chosen
        try:
            _chosen = resolve_device(requested)
        except ValueError as error:
            raise ValueError(f"{DEVICE_VARIABLE}={os.environ[DEVICE_VARIABLE]!r}: {error}") from None
    return _chosen


def choose_device(requested: str | None) -> torch.device:
    """Fix this process's device to ``requested`` (a command line's --device); None keeps the usual choice."""
    global _chosen
    _chosen = resolve_device(requested) if requested is not None else None
    return default_device()


def model_device(model: nn.Module) -> torch.device:
    """The device a model's parameters are on (the CPU for a model without parameters)."""
    parameter = next(model.parameters(), None)
    return parameter.device if parameter is not None else torch.device("cpu")
