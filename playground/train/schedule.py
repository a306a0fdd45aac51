"""Learning-rate schedules: how the rate of each optimisation step is chosen.

    constant      warm-up, then lr
    step          warm-up, then lr * decay_factor ** (steps after warm-up // decay_every)
    linear        warm-up, then a straight line from lr down to lr * min_lr_ratio at max_steps
    cosine        warm-up, then half a cosine from lr down to lr * min_lr_ratio at max_steps
    inverse_sqrt  "Attention Is All You Need" (section 5.3):
                  d_model^-0.5 * min(n^-0.5, n * warmup_steps^-1.5), n = step + 1;
                  it rises linearly for warmup_steps steps, peaks at (d_model * warmup_steps)^-0.5
                  and then falls as 1/sqrt(n). It does not use lr or min_lr_ratio.

Warm-up (all but inverse_sqrt) is linear: lr * (step + 1) / warmup_steps.
"""
from __future__ import annotations

import math

from playground.train.config import SCHEDULES, TrainConfig

__all__ = ["SCHEDULES", "inverse_sqrt_rate", "learning_rate", "schedule_curve"]

CURVE_POINTS = 300          # rates computed for a drawn schedule (every step when there are fewer)


def inverse_sqrt_rate(step_number: int, warmup_steps: int, d_model: int) -> float:
    """The original Transformer's rate at 1-based step ``step_number``."""
    return d_model ** -0.5 * min(step_number ** -0.5, step_number * warmup_steps ** -1.5)


def learning_rate(step: int, config: TrainConfig, d_model: int | None = None) -> float:
    """The learning rate of optimisation step ``step`` (0 = the first step).

    ``d_model`` (the model width) is needed by the inverse_sqrt schedule only. Steps past
    max_steps keep the rate of the last step of linear and cosine.
    """
    if config.schedule == "inverse_sqrt":
        if d_model is None or d_model < 1:
            raise ValueError(f"the inverse_sqrt schedule needs the model's d_model (an integer >= 1), got {d_model!r}")
        return inverse_sqrt_rate(step + 1, config.warmup_steps, d_model)
    if step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    after_warmup = step - config.warmup_steps
    if config.schedule == "constant":
        return config.lr
    if config.schedule == "step":
        return config.lr * config.decay_factor ** (after_warmup // config.decay_every)
    floor = config.lr * config.min_lr_ratio
    decay_steps = config.max_steps - config.warmup_steps
    progress = min(1.0, after_warmup / decay_steps) if decay_steps > 0 else 1.0
    if config.schedule == "linear":
        return config.lr - (config.lr - floor) * progress
    return floor + (config.lr - floor) * 0.5 * (1.0 + math.cos(math.pi * progress))


def schedule_curve(config: TrainConfig, d_model: int | None = None,
                   points: int = CURVE_POINTS) -> tuple[list[int], list[float]]:
    """(steps, rates) of the whole run, 1-based steps, at most about ``points`` of them evenly
    spread (the first and last step always included), for drawing before training starts."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise ValueError(f"points must be an integer >= 2, got {points!r}")
    stride = max(1, math.ceil(config.max_steps / points))
    steps = sorted({*range(0, config.max_steps, stride), config.max_steps - 1})
    return [s + 1 for s in steps], [learning_rate(s, config, d_model) for s in steps]
