"""TrainConfig: every optimisation and reporting choice of a training run, validated, JSON round trip."""
from __future__ import annotations

import math
from dataclasses import dataclass

from playground.model.config import JsonConfig

SCHEDULES = ("constant", "step", "linear", "cosine", "inverse_sqrt")


@dataclass(frozen=True)
class TrainConfig(JsonConfig):
    """How to train.

    lr: peak learning rate of AdamW, reached after ``warmup_steps`` linear warm-up steps; it then
        follows ``schedule`` (see playground.train.schedule).
    schedule: "constant", "step", "linear", "cosine" (down to ``lr * min_lr_ratio`` at
        ``max_steps``) or "inverse_sqrt" (the original paper's, which sets the rate from d_model
        and warmup_steps alone and ignores lr).
    decay_every / decay_factor: the "step" schedule multiplies the rate by ``decay_factor`` every
        ``decay_every`` steps after warm-up.
    batch_size: examples (seq2seq pairs or text windows) per step.
    max_steps: total optimisation steps; also the length of the cosine schedule.
    max_seconds: total training wall time over every ``run`` call; None = no time limit.
    weight_decay: AdamW decay of matrices and embeddings (biases and norms are never decayed).
    beta1 / beta2: AdamW moment coefficients.
    grad_clip: largest gradient norm (global L2) before an update; None = no clipping.
    seed: model initialisation and data order; same seed, same losses.
    val_size: held-out examples (seq2seq) or windows of text (language models) evaluated.
    eval_every_s: evaluate on the held-out set at most this often (seconds); None = only when a
        run ends.
    event_every_s: yield a progress event at most this often (seconds); 0 = after every step.
    snapshot_every_s: yield an attention snapshot at most this often (seconds); None = only when a
        run ends.
    bf16_autocast: run the training forward pass under bfloat16 autocast on a GPU that supports it
        (CUDA, compute capability 8.0 or higher: about twice as fast); the CPU and older GPUs train
        in float32 whatever this says. Matmuls in float32 on CUDA use TF32 either way.
    """

    lr: float = 1e-3
    min_lr_ratio: float = 0.1
    warmup_steps: int = 100
    schedule: str = "cosine"
    decay_every: int = 500
    decay_factor: float = 0.5
    batch_size: int = 64
    max_steps: int = 2000
    max_seconds: float | None = None
    weight_decay: float = 0.01
    beta1: float = 0.9
    beta2: float = 0.99
    grad_clip: float | None = 1.0
    seed: int = 0
    val_size: int = 500
    eval_every_s: float | None = 2.0
    event_every_s: float = 0.5
    snapshot_every_s: float | None = 5.0
    bf16_autocast: bool = True

    describe = "train config"

    def __post_init__(self) -> None:
        _validate(self)

def _require(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise ValueError(f"TrainConfig.{field}: {message}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _validate(c: TrainConfig) -> None:
    _require(_is_number(c.lr) and 0 < c.lr <= 10, "lr",
             f"must be a finite number in (0, 10] (typical: 1e-4 to 3e-3), got {c.lr!r}")
    _require(_is_number(c.min_lr_ratio) and 0 <= c.min_lr_ratio <= 1, "min_lr_ratio",
             f"must be a number in [0, 1], got {c.min_lr_ratio!r}")
    _require(_is_int(c.warmup_steps) and c.warmup_steps >= 0, "warmup_steps",
             f"must be an integer >= 0, got {c.warmup_steps!r}")
    _require(_is_int(c.batch_size) and 1 <= c.batch_size <= 4096, "batch_size",
             f"must be an integer between 1 and 4096, got {c.batch_size!r}")
    _require(_is_int(c.max_steps) and 1 <= c.max_steps <= 10_000_000, "max_steps",
             f"must be an integer between 1 and 10000000, got {c.max_steps!r}")
    _require(c.warmup_steps <= c.max_steps, "warmup_steps",
             f"{c.warmup_steps} is longer than the whole run (max_steps={c.max_steps}); use fewer warm-up steps")
    _require(c.schedule in SCHEDULES, "schedule", f"must be one of {list(SCHEDULES)}, got {c.schedule!r}")
    _require(c.schedule != "inverse_sqrt" or c.warmup_steps >= 1, "warmup_steps",
             "must be >= 1 for the inverse_sqrt schedule (its rate grows as step * warmup_steps^-1.5)")
    _require(_is_int(c.decay_every) and 1 <= c.decay_every <= 10_000_000, "decay_every",
             f"must be an integer between 1 and 10000000 (steps between two drops of the step schedule), "
             f"got {c.decay_every!r}")
    _require(_is_number(c.decay_factor) and 0 < c.decay_factor <= 1, "decay_factor",
             f"must be a number in (0, 1] (the step schedule's multiplier, typical: 0.1 to 0.5), "
             f"got {c.decay_factor!r}")
    _require(c.max_seconds is None or (_is_number(c.max_seconds) and c.max_seconds > 0), "max_seconds",
             f"must be a number of seconds > 0, or None for no time limit, got {c.max_seconds!r}")
    _require(_is_number(c.weight_decay) and 0 <= c.weight_decay < 1, "weight_decay",
             f"must be a number in [0, 1) (typical: 0 to 0.1), got {c.weight_decay!r}")
    for name in ("beta1", "beta2"):
        value = getattr(c, name)
        _require(_is_number(value) and 0 <= value < 1, name, f"must be a number in [0, 1), got {value!r}")
    _require(c.grad_clip is None or (_is_number(c.grad_clip) and c.grad_clip > 0), "grad_clip",
             f"must be a number > 0 (typical: 1.0), or None for no clipping, got {c.grad_clip!r}")
    _require(_is_int(c.seed) and 0 <= c.seed < 2**63, "seed", f"must be an integer >= 0, got {c.seed!r}")
    _require(_is_int(c.val_size) and 1 <= c.val_size <= 100_000, "val_size",
             f"must be an integer between 1 and 100000, got {c.val_size!r}")
    for name in ("eval_every_s", "snapshot_every_s"):
        value = getattr(c, name)
        _require(value is None or (_is_number(value) and value >= 0), name,
                 f"must be a number of seconds >= 0, or None for only at the end of a run, got {value!r}")
    _require(_is_number(c.event_every_s) and c.event_every_s >= 0, "event_every_s",
             f"must be a number of seconds >= 0 (0 = after every step), got {c.event_every_s!r}")
    _require(isinstance(c.bf16_autocast, bool), "bf16_autocast",
             f"must be True (bfloat16 autocast on a GPU that supports it) or False (float32), got {c.bf16_autocast!r}")
