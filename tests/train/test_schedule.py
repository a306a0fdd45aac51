import math

import pytest

from playground.train import TrainConfig, Trainer, learning_rate
from playground.train.schedule import SCHEDULES, schedule_curve
from tests.train.helpers import copy_task, model_config as small_model


def config(schedule, **changes):
    return TrainConfig(**{"lr": 1e-3, "min_lr_ratio": 0.1, "warmup_steps": 10, "max_steps": 110,
                          "schedule": schedule, **changes})


@pytest.mark.parametrize("schedule", ["constant", "step", "linear", "cosine"])
def test_every_warmed_schedule_rises_linearly_to_lr(schedule):
    c = config(schedule)
    assert [learning_rate(s, c) for s in (0, 4, 9)] == pytest.approx([1e-4, 5e-4, 1e-3])


def test_constant_stays_at_lr_after_warmup():
    c = config("constant")
    assert [learning_rate(s, c) for s in (10, 60, 109, 500)] == pytest.approx([1e-3] * 4)


def test_step_multiplies_by_the_factor_every_decay_every_steps():
    c = config("step", decay_every=20, decay_factor=0.5)
    for step in (10, 29, 30, 49, 50, 109):
        assert learning_rate(step, c) == pytest.approx(1e-3 * 0.5 ** ((step - 10) // 20))
    assert learning_rate(30, c) == pytest.approx(5e-4)
    assert learning_rate(50, c) == pytest.approx(2.5e-4)


def test_linear_is_a_straight_line_to_the_floor():
    c = config("linear")
    for step in (10, 35, 60, 85, 110):
        progress = (step - 10) / 100
        assert learning_rate(step, c) == pytest.approx(1e-3 - (1e-3 - 1e-4) * progress)
    assert learning_rate(60, c) == pytest.approx(5.5e-4)
    assert learning_rate(400, c) == pytest.approx(1e-4)


def test_cosine_follows_half_a_cosine_to_the_floor():
    c = config("cosine")
    for step in (10, 35, 60, 85, 110):
        progress = (step - 10) / 100
        assert learning_rate(step, c) == pytest.approx(1e-4 + (1e-3 - 1e-4) * (1 + math.cos(math.pi * progress)) / 2)


def test_inverse_sqrt_is_the_papers_formula():
    c = config("inverse_sqrt", warmup_steps=4000, max_steps=20_000)
    for step in (0, 99, 3998, 3999, 4000, 15_999):
        n = step + 1
        assert learning_rate(step, c, d_model=512) == pytest.approx(512 ** -0.5 * min(n ** -0.5, n * 4000 ** -1.5))
    peak = max(range(0, 8000, 50), key=lambda s: learning_rate(s, c, d_model=512))
    assert abs(peak - 3999) <= 50
    assert learning_rate(3999, c, d_model=512) == pytest.approx((512 * 4000) ** -0.5)     # about 7.0e-4
    assert learning_rate(15_999, c, d_model=512) == pytest.approx(learning_rate(3999, c, d_model=512) / 2)


def test_inverse_sqrt_needs_d_model_and_a_warmup():
    with pytest.raises(ValueError, match="needs the model's d_model"):
        learning_rate(0, config("inverse_sqrt"))
    with pytest.raises(ValueError, match="TrainConfig.warmup_steps: must be >= 1 for the inverse_sqrt"):
        config("inverse_sqrt", warmup_steps=0)


@pytest.mark.parametrize("field, value", [
    ("schedule", "exponential"), ("schedule", None), ("decay_every", 0), ("decay_every", 2.5),
    ("decay_factor", 0.0), ("decay_factor", 1.5), ("decay_factor", math.nan),
])
def test_bad_schedule_settings_name_the_field(field, value):
    with pytest.raises(ValueError, match=f"TrainConfig.{field}: must"):
        TrainConfig(**{field: value})


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_curve_lists_the_rate_of_every_drawn_step(schedule):
    c = config(schedule, max_steps=1000)
    steps, rates = schedule_curve(c, d_model=64, points=100)
    assert steps[0] == 1 and steps[-1] == 1000 and len(steps) <= 101
    assert rates == [learning_rate(s - 1, c, d_model=64) for s in steps]


def test_trainer_uses_the_schedule_with_its_model_width():
    task = copy_task()
    model_config = small_model("encoder_decoder", task.tokenizer.vocab_size)
    trainer = Trainer(model_config, TrainConfig(schedule="inverse_sqrt", warmup_steps=3, max_steps=6, batch_size=4,
                                                val_size=4), task)
    trainer.train_step()
    trainer.train_step()
    assert trainer.optimizer.param_groups[0]["lr"] == pytest.approx(model_config.d_model ** -0.5 * 2 * 3 ** -1.5)
    assert trainer.lr == pytest.approx(model_config.d_model ** -0.5 * 2 * 3 ** -1.5)
