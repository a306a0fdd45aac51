"""Learning-rate schedule: linear warm-up, then cosine decay to a floor."""
from __future__ import annotations

import math

from playground.train.config import TrainConfig


def learning_rate(step: int, config: TrainConfig) -> float:
    """The learning rate of optimisation step ``step`` (0 = the first step).

    Warm-up: lr * (step + 1) / warmup_steps. Then, over the remaining steps up to max_steps,
    floor + (lr - floor) * (1 + cos(pi * progress)) / 2 with floor = lr * min_lr_ratio.
    Steps past max_steps stay at the floor.
    """
    if step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    floor = config.lr * config.min_lr_ratio
    decay_steps = config.max_steps - config.warmup_steps
    progress = min(1.0, (step - config.warmup_steps) / decay_steps) if decay_steps > 0 else 1.0
    return floor + (config.lr - floor) * 0.5 * (1.0 + math.cos(math.pi * progress))
