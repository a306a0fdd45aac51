"""A recipe is checked once, by check_spec: every field by the rule it declares, the fields together, and
the config the model accepts; each refusal an InputError naming the field and its message key."""
from dataclasses import fields

import pytest

from playground.checks import InputError
from playground.limits import TRAIN_LIMITS
from playground.train.recipes import (
    PRESET_FIELDS,
    STABILITY_FIELDS,
    TASK_PRESETS,
    Recipe,
    check_spec,
    form_defaults,
)


@pytest.mark.parametrize("task", list(TASK_PRESETS))
def test_every_tasks_preset_is_a_recipe_check_spec_accepts(task):
    recipe = Recipe.of(task)
    spec = check_spec(recipe)
    model, train = spec.preset.model_config, spec.preset.train_config
    assert spec.task == task and model.n_heads == recipe.n_heads and model.d_model == recipe.d_model
    assert (train.lr, train.max_steps, train.batch_size) == (recipe.lr, recipe.steps, recipe.batch_size)
    assert spec.data == ("task" if spec.synthetic else "bundled")


def test_every_field_declares_one_rule_and_the_groups_cover_the_presets_settings():
    assert all("rule" in f.metadata for f in fields(Recipe))
    assert set(PRESET_FIELDS) == set(form_defaults("copy"))
    assert set(STABILITY_FIELDS) == {"block_size", "schedule", "decay_every", "decay_factor", "clip", "grad_clip"}
    rules = {f.name: f.metadata["rule"] for f in fields(Recipe)}
    assert (rules["layers"].low, rules["layers"].high) == TRAIN_LIMITS["layers"]


@pytest.mark.parametrize("changes, key, field", [
    (dict(layers=0), "err_out_of_range", "layers"),
    (dict(batch_size=2.5), "err_not_integer", "batch_size"),
    (dict(positional="alibi"), "err_bad_choice", "positional"),
    (dict(tie_weights=1), "err_form_not_flag", "tie_weights"),
    (dict(task="translate"), "err_bad_choice", "task"),
    (dict(d_model=30, n_heads=4), "err_heads_divide", "n_heads"),
    (dict(n_heads=4, n_kv_heads=3), "err_kv_heads_divide", "n_kv_heads"),
    (dict(warmup=50, steps=20), "err_warmup_steps", "warmup"),
    (dict(schedule="inverse_sqrt", warmup=0), "err_inverse_sqrt_warmup", "warmup"),
])
def test_a_refused_recipe_names_the_field_and_the_message_key(changes, key, field):
    with pytest.raises(InputError) as refused:
        check_spec(Recipe(**{**dict(n_heads=4, d_model=64), **changes}))
    assert (refused.value.key, refused.value.field) == (key, field)


def test_the_recipe_settings_reach_the_model_and_the_optimiser():
    spec = check_spec(Recipe.of("char-lm", layers=1, d_model=32, n_heads=2, n_kv_heads=1, norm_type="rmsnorm",
                                gated_ffn=True, block_size=24, schedule="step", clip=False))
    model, train = spec.preset.model_config, spec.preset.train_config
    assert (model.n_decoder_layers, model.kv_heads, model.norm_type, model.gated_ffn) == (1, 1, "rmsnorm", True)
    assert (spec.preset.block_size, train.schedule, train.grad_clip) == (24, "step", None)
