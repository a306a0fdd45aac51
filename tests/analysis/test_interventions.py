"""What switching heads off changes, measured: KL of the next-token distribution, generations, exact match."""
import numpy as np
import pytest
import torch

from playground.analysis.interventions import (
    exact_match_change, generation_change, kl_divergence, next_token_change,
)
from playground.model import CROSS, DECODER_SELF
from playground.model.interventions import Head
from tests.model.helpers import tiny_model

IDS, SRC = [1, 5, 6, 7, 8], [5, 6, 7, 9]


def test_kl_divergence_is_the_textbook_sum():
    p, q = torch.tensor([0.5, 0.25, 0.25]), torch.tensor([0.25, 0.25, 0.5])
    expected = 0.5 * np.log(2) + 0.25 * np.log(0.5)
    assert kl_divergence(p.log(), q.log()) == pytest.approx(expected)
    assert kl_divergence(p.log(), p.log()) == pytest.approx(0.0)


def test_no_heads_off_changes_nothing_and_all_heads_off_moves_the_prediction():
    model = tiny_model("decoder_only", seed=3)
    same = next_token_change(model, [], IDS)
    np.testing.assert_allclose(same.before, same.after)
    assert same.kl == pytest.approx(0.0, abs=1e-9) and same.before.sum() == pytest.approx(1.0, abs=1e-5)
    moved = next_token_change(model, [Head(DECODER_SELF, layer, h) for layer in range(2) for h in range(4)], IDS)
    assert moved.kl > 1e-7
    np.testing.assert_allclose(moved.before, same.before)


def test_a_seq2seq_prediction_reads_the_source():
    model = tiny_model("encoder_decoder", seed=1)
    change = next_token_change(model, [Head(CROSS, 1, h) for h in range(4)], [1, 5], SRC, how="mean")
    assert change.kl > 0
    with pytest.raises(ValueError, match="encode"):
        next_token_change(model, [], [1, 5])
    with pytest.raises(ValueError, match="outside"):
        next_token_change(model, [], [1, 5], SRC, position=2)


def test_changed_tokens_of_a_generation_are_marked():
    model = tiny_model("decoder_only", seed=2)
    change = generation_change(model, [Head(DECODER_SELF, layer, h) for layer in range(2) for h in range(4)], IDS, 8)
    assert len(change.before) == 8 or change.before[-1] == 2
    assert change.changed == [i >= min(len(change.before), len(change.after)) or change.before[i] != change.after[i]
                              for i in range(max(len(change.before), len(change.after)))]
    assert generation_change(model, [], IDS, 8).changed == [False] * len(change.before)


def test_exact_match_needs_a_seq2seq_model():
    with pytest.raises(ValueError, match="sequence-to-sequence"):
        exact_match_change(tiny_model("decoder_only"), [], [([5, 6], [5, 6])])
    with pytest.raises(ValueError, match="at least one"):
        exact_match_change(tiny_model("encoder_decoder"), [], [])
