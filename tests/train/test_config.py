import json
import math

import pytest

from playground.train import TrainConfig, learning_rate


def test_json_round_trip_keeps_every_field():
    config = TrainConfig(lr=5e-4, batch_size=3, warmup_steps=7, max_steps=77, max_seconds=12.5, grad_clip=None, seed=9,
                         eval_every_s=None, snapshot_every_s=0.0)
    assert TrainConfig.from_json(config.to_json()) == config
    assert json.loads(config.to_json())["lr"] == 5e-4


def test_unknown_field_and_bad_json_are_refused():
    with pytest.raises(ValueError, match="unknown train config field.*'learning_rate'"):
        TrainConfig.from_dict({"learning_rate": 0.1})
    with pytest.raises(ValueError, match="not valid JSON"):
        TrainConfig.from_json("{lr: 1}")


@pytest.mark.parametrize("field, value", [
    ("lr", 0.0), ("lr", -1e-3), ("lr", math.nan), ("lr", math.inf), ("lr", "0.001"), ("lr", True),
    ("batch_size", 0), ("batch_size", 2.5), ("max_steps", 0), ("warmup_steps", -1),
    ("weight_decay", -0.1), ("beta2", 1.0), ("grad_clip", 0.0), ("max_seconds", 0), ("seed", -1),
    ("val_size", 0), ("event_every_s", -1.0), ("eval_every_s", math.nan), ("snapshot_every_s", -2),
    ("min_lr_ratio", 1.5),
])
def test_invalid_values_name_the_field(field, value):
    with pytest.raises(ValueError, match=f"TrainConfig.{field}: must"):
        TrainConfig(**{field: value})


def test_warmup_longer_than_the_run_is_refused():
    with pytest.raises(ValueError, match="TrainConfig.warmup_steps: 50 is longer than the whole run"):
        TrainConfig(warmup_steps=50, max_steps=20)


def test_schedule_warms_up_linearly_then_decays_along_a_cosine_to_the_floor():
    config = TrainConfig(lr=1e-3, min_lr_ratio=0.1, warmup_steps=10, max_steps=110)
    assert learning_rate(0, config) == pytest.approx(1e-4)
    assert learning_rate(4, config) == pytest.approx(5e-4)
    assert learning_rate(9, config) == pytest.approx(1e-3)
    assert learning_rate(10, config) == pytest.approx(1e-3)
    assert learning_rate(60, config) == pytest.approx((1e-3 + 1e-4) / 2)
    assert learning_rate(110, config) == pytest.approx(1e-4)
    assert learning_rate(500, config) == pytest.approx(1e-4)
    decay = [learning_rate(s, config) for s in range(10, 111)]
    assert all(a >= b for a, b in zip(decay, decay[1:]))


def test_schedule_without_warmup_starts_at_the_peak():
    config = TrainConfig(lr=2e-3, warmup_steps=0, max_steps=100, min_lr_ratio=0.0)
    assert learning_rate(0, config) == pytest.approx(2e-3)
    assert learning_rate(100, config) == pytest.approx(0.0)
