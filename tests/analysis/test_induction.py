"""The induction-head naming rule, and the measurement it is applied to, on models whose answer is known."""
import numpy as np
import pytest
import torch

from playground.analysis.head_scores import INDUCTION_THRESHOLD, SECOND_COPY_LOSS_RATIO, induction_heads
from playground.analysis.induction import induction_verdict, measure_repeats, random_blocks
from playground.model import ModelConfig, build_model
from playground.train import PRESETS

DECODER_PRESETS = [name for name, preset in PRESETS.items() if preset.model_config.arch == "decoder_only"]


def test_a_head_is_named_only_with_a_high_score_and_a_cheaper_second_copy():
    scores = np.array([[0.05, 0.2], [0.95, INDUCTION_THRESHOLD]])
    assert induction_heads(scores, first_copy_loss=4.0, second_copy_loss=0.3) == [(1, 0), (1, 1)]
    assert induction_heads(scores, 4.0, SECOND_COPY_LOSS_RATIO * 4.0) == [(1, 0), (1, 1)]
    assert induction_heads(scores, 4.0, SECOND_COPY_LOSS_RATIO * 4.0 + 0.01) == []   # the look-up does not help
    assert induction_heads(np.full((2, 2), 0.29), 4.0, 0.1) == []                    # no head scores enough


@pytest.mark.parametrize("args, message", [((np.zeros(3), 1.0, 0.5), r"shape \[L, H\]"),
                                           ((np.zeros((1, 1)), float("nan"), 0.5), "first_copy_loss"),
                                           ((np.zeros((1, 1)), 1.0, -1.0), "second_copy_loss")])
def test_the_rule_refuses_bad_measurements(args, message):
    with pytest.raises(ValueError, match=message):
        induction_heads(*args)


@pytest.mark.parametrize("name", DECODER_PRESETS)
def test_untrained_heads_score_far_below_the_threshold_and_are_not_named(name):
    """The threshold's justification: untrained heads of every decoder preset's model (full and live
    sizes, three seeds) score about 1/(visible keys) on random tokens written twice, below 0.1."""
    for config in (PRESETS[name].model_config, PRESETS[name].quick().model_config):
        for seed in range(3):
            torch.manual_seed(seed)
            verdict = induction_verdict(build_model(config).eval())
            assert verdict.heads == [] and verdict.reason == "low_score"
            assert verdict.measurement.induction.max() < 0.1 < INDUCTION_THRESHOLD
            m = verdict.measurement
            assert abs(m.second_copy_loss - m.first_copy_loss) < 0.1 * m.first_copy_loss   # no copy gain either
            assert m.induction.mean() == pytest.approx(m.uniform_induction, abs=0.02)       # spread-out attention


def test_measure_repeats_splits_the_losses_at_the_copies():
    config = ModelConfig(arch="decoder_only", vocab_size=20, d_model=16, n_heads=2, n_decoder_layers=2, d_ff=32,
                         max_len=16, positional="learned")
    torch.manual_seed(0)
    model = build_model(config).eval()
    blocks = random_blocks(3, 5, config.vocab_size, seed=1)                   # [3, 5]
    m = measure_repeats(model, blocks, 12)
    ids = blocks[:, torch.arange(12) % 5]
    with torch.no_grad():
        logits = model(ids)
    losses = torch.nn.functional.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:], reduction="none")
    assert m.first_copy_loss == pytest.approx(float(losses[:, :4].mean()), rel=1e-5)
    assert m.second_copy_loss == pytest.approx(float(losses[:, 4:9].mean()), rel=1e-5)
    assert m.induction.shape == m.previous_token.shape == (2, 2)
    with pytest.raises(ValueError, match="max_len"):
        measure_repeats(model, blocks, 17)


def test_a_wide_vocabulary_is_measured_in_groups_that_hold_the_logits_budget(monkeypatch):
    """The measurement of a 20,000-token model never holds more than LOGITS_BUDGET_BYTES of logits, and
    gives what one pass over every sequence gives (the scores and both copies' losses)."""
    from playground.analysis import induction
    config = ModelConfig(arch="decoder_only", vocab_size=20_000, d_model=16, n_heads=2, n_decoder_layers=2, d_ff=32,
                         max_len=64)
    torch.manual_seed(0)
    model = build_model(config).eval()
    blocks = random_blocks(32, 24, config.vocab_size, seed=0)
    held = []
    model.head.register_forward_hook(lambda module, inputs, output: held.append(output.numel() * 4))
    grouped = measure_repeats(model, blocks, 48)
    assert max(held) <= induction.LOGITS_BUDGET_BYTES and len(held) > 1
    monkeypatch.setattr(induction, "LOGITS_BUDGET_BYTES", 2**40)               # every sequence in one pass
    held.clear()
    whole = measure_repeats(model, blocks, 48)
    assert len(held) == 1 and held[0] == 32 * 48 * 20_000 * 4
    np.testing.assert_allclose(grouped.induction, whole.induction, atol=1e-6)
    np.testing.assert_allclose(grouped.previous_token, whole.previous_token, atol=1e-6)
    assert grouped.first_copy_loss == pytest.approx(whole.first_copy_loss, abs=1e-5)
    assert grouped.second_copy_loss == pytest.approx(whole.second_copy_loss, abs=1e-5)
