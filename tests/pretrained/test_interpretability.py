"""Activation patching and direct logit attribution on the shipped models: the induction model's answer
is carried by its second layer's heads, and every model's logit splits exactly into its parts."""
import numpy as np
import pytest

from playground.analysis.attribution import logit_attribution
from playground.analysis.patching import activation_patching, induction_pair, task_pair
from playground.data import tasks


def test_patching_the_shipped_induction_model_names_its_second_layer_heads(checkpoints):
    checkpoint, _ = checkpoints["induction"]
    view = activation_patching(checkpoint.model, induction_pair(checkpoint.config.vocab_size, seed=0))
    heads = view.heads[0].values                                              # [L, H]
    assert view.clean_metric > 3 and view.corrupted_metric < -3             # the model copies the block
    assert heads[1].sum() > 0.8 and heads[1].min() > 0.2                    # layer 1's heads carry the answer ...
    assert np.abs(view.residual[0].values[-1, :-1]).max() < 1e-6            # ... to the last position alone


@pytest.mark.parametrize("name", ["reverse", "dates"])
def test_patching_a_shipped_seq2seq_model_finds_the_changed_source_character(checkpoints, name):
    checkpoint, meta = checkpoints[name]
    pair = task_pair(tasks.get(meta["task"], **meta["task_knobs"]), checkpoint.tokenizer, seed=0)
    view = activation_patching(checkpoint.model, pair, heads_by_position=False)
    changed = [i for i, (a, b) in enumerate(zip(pair.clean_source, pair.corrupted_source)) if a != b]
    encoder = view.residual[0]
    np.testing.assert_allclose(encoder.values[0, changed], 1.0, atol=1e-5)  # the changed character is everything
    assert view.clean_metric > 3 and view.corrupted_metric < -3


@pytest.mark.parametrize("name", ["induction", "reverse", "shakespeare-char", "masked-char", "dates"])
def test_the_parts_of_a_shipped_model_sum_to_its_logit(checkpoints, name):
    checkpoint, meta = checkpoints[name]
    source = None
    if name == "induction":
        ids = list(induction_pair(checkpoint.config.vocab_size).clean)
    elif meta["task"]:
        pair = task_pair(tasks.get(meta["task"], **meta["task_knobs"]), checkpoint.tokenizer)
        ids, source = list(pair.clean), list(pair.clean_source)
    else:
        ids = checkpoint.tokenizer.encode("Now is the winter of our discontent")
    attribution = logit_attribution(checkpoint.model, ids, source=source)
    assert attribution.total == pytest.approx(attribution.logit, abs=1e-4)
    assert attribution.logit > 3                                              # the top token, confidently
