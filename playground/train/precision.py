"""How a training step computes on its device: TF32 matmuls and bfloat16 autocast on CUDA, float32 elsewhere.

TF32 (10-bit mantissa products, float32 sums) roughly doubles a GPU's float32 matmul speed and is
what PyTorch's own examples train with; PyTorch leaves it off by default. Here it is switched on
only while a trainer computes on CUDA (`cuda_tf32`), and only for CUDA: the CPU's matmuls are
never touched (torch.set_float32_matmul_precision would change those too).
"""
from __future__ import annotations

import threading
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Iterator

import torch

from playground.train.config import TrainConfig

_lock = threading.Lock()
_users = 0                  # trainers computing on CUDA right now; the first switches TF32 on, the last restores
_saved: tuple[str, object] | None = None


def _matmul_setting() -> tuple[str, object]:
    """(attribute, value) of CUDA's float32 matmul setting: fp32_precision (torch >= 2.9), else allow_tf32."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        return "fp32_precision", matmul.fp32_precision
    return "allow_tf32", matmul.allow_tf32


@contextmanager
def cuda_tf32() -> Iterator[None]:
    """CUDA matmuls in float32 use TF32 while inside; the setting before is restored when the last user leaves."""
    global _users, _saved
    with _lock:
        if _users == 0:
            _saved = _matmul_setting()
            setattr(torch.backends.cuda.matmul, _saved[0], "tf32" if _saved[0] == "fp32_precision" else True)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                setattr(torch.backends.cuda.matmul, *_saved)


def uses_bfloat16(device: torch.device, config: TrainConfig) -> bool:
    """Whether training on ``device`` runs its forward pass under bfloat16 autocast."""
    return config.bf16_autocast and device.type == "cuda" and torch.cuda.is_bf16_supported(including_emulation=False)


def computing(device: torch.device) -> AbstractContextManager:
    """The numeric setting of any work on ``device``: TF32 matmuls on CUDA, nothing changed elsewhere."""
    return cuda_tf32() if device.type == "cuda" else nullcontext()


def forward(device: torch.device, bfloat16: bool) -> AbstractContextManager:
    """The training forward pass's autocast: bfloat16 when ``bfloat16``, else none."""
    return torch.autocast(device.type, dtype=torch.bfloat16) if bfloat16 else nullcontext()


def describe(device: torch.device, bfloat16: bool) -> str:
    """In words, e.g. "bfloat16 autocast, TF32 matmuls" or "float32"."""
    if device.type != "cuda":
        return "float32"
    return "bfloat16 autocast, TF32 matmuls" if bfloat16 else "float32, TF32 matmuls"
