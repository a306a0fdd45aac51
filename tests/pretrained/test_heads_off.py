"""Switching heads off in the shipped copy model: its diagonal cross-attention heads do the copying."""
import numpy as np
import pytest

from playground.data import tasks
from playground.analysis.interventions import exact_match_change
from playground.model import CROSS
from playground.model.interventions import Head

from .test_alignment_and_reproducibility import cross_attention_scores

HELD_OUT = 30
DIAGONAL_HEAD = 0.5          # a cross-attention head whose mean weight on the aligned source token is at least this


@pytest.fixture(scope="module")
def copy_model(checkpoints):
    checkpoint, meta = checkpoints["copy"]
    task = tasks.get(meta["task"], **meta["task_knobs"])
    pairs = [task.encode_pair(s, t) for s, t in task.held_out(HELD_OUT, seed=meta["train_config"]["seed"] + 1)]
    diagonal = cross_attention_scores(checkpoint, meta)["diagonal"]            # [L, H]
    return checkpoint.model, pairs, diagonal


@pytest.mark.parametrize("how", ["zero", "mean"])
def test_switching_off_the_diagonal_heads_breaks_copying_and_other_heads_matter_less(copy_model, how):
    model, pairs, diagonal = copy_model
    layers, heads = np.nonzero(diagonal >= DIAGONAL_HEAD)
    rest_layers, rest_heads = np.nonzero(diagonal < DIAGONAL_HEAD)
    assert 0 < len(rest_layers) < len(layers)
    diagonal_off = exact_match_change(model, [Head(CROSS, int(l), int(h)) for l, h in zip(layers, heads)], pairs, how)
    # every head that does not follow the diagonal
    others = [Head(CROSS, int(l), int(h)) for l, h in zip(rest_layers, rest_heads)]
    others_off = exact_match_change(model, others, pairs, how)
    assert diagonal_off.before >= 0.95
    assert diagonal_off.after <= 0.1
    assert others_off.after >= 0.9
