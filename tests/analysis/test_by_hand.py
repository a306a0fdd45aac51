"""LayerNorm and softmax worked by hand: each step against arithmetic done here, and against torch."""
import math

import pytest

from playground.analysis.by_hand import MAX_VALUES, layer_norm_steps, softmax_steps


def test_the_tutorials_layer_norm_example_has_variance_6_16_not_5_76():
    steps = layer_norm_steps([2, 5, 8, 1, 3], eps=0.0)
    assert steps.mean == pytest.approx(3.8)
    assert steps.squares == pytest.approx([3.24, 1.44, 17.64, 7.84, 0.64])          # (x - 3.8)^2, by hand
    assert steps.variance == pytest.approx(30.8 / 5) == 6.16
    assert steps.std == pytest.approx(math.sqrt(6.16))                                # 2.482, not the tutorial's 2.4
    assert steps.normalised == pytest.approx([-1.8 / math.sqrt(6.16), 1.2 / math.sqrt(6.16), 4.2 / math.sqrt(6.16),
                                              -2.8 / math.sqrt(6.16), -0.8 / math.sqrt(6.16)])
    assert steps.torch_normalised == pytest.approx(steps.normalised, abs=1e-12)


def test_layer_norm_keeps_eps_inside_the_root_as_torch_does():
    steps = layer_norm_steps([1.0, 1.0, 1.0])
    assert steps.variance == 0 and steps.std == pytest.approx(math.sqrt(1e-5))
    assert steps.normalised == [0.0, 0.0, 0.0] == steps.torch_normalised


def test_the_tutorials_softmax_example_scaled_by_sqrt_64():
    steps = softmax_steps([100, 45.3, -20.1, 12.5], d_k=64)
    assert steps.scaled == pytest.approx([12.5, 5.6625, -2.5125, 1.5625])
    assert steps.largest == 12.5 and steps.shifted[0] == 0
    by_hand = [math.exp(s) for s in (12.5, 5.6625, -2.5125, 1.5625)]
    assert steps.probabilities == pytest.approx([e / sum(by_hand) for e in by_hand], rel=1e-12)
    assert steps.probabilities[0] == pytest.approx(0.99891, abs=1e-5)
    assert steps.torch_probabilities == pytest.approx(steps.probabilities, rel=1e-12)
    assert steps.raw_exps[0] == pytest.approx(268337.29, rel=1e-6)                    # the tutorial's "≈ 270000"


def test_softmax_of_huge_scores_does_not_overflow():
    steps = softmax_steps([1000.0, 999.0])
    assert steps.probabilities == pytest.approx([1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))])
    assert steps.raw_exps == [None, None]


@pytest.mark.parametrize("call", [
    lambda: layer_norm_steps([1.0]),                                 # one number has no spread
    lambda: layer_norm_steps([1.0] * (MAX_VALUES + 1)),
    lambda: layer_norm_steps([1.0, float("nan")]),
    lambda: softmax_steps([]),
    lambda: softmax_steps([1.0, 2.0], d_k=0),
    lambda: softmax_steps([1.0, 2.0], d_k=2.5),
    lambda: softmax_steps([1e7]),
])
def test_bad_input_is_refused_with_a_message(call):
    with pytest.raises(ValueError, match=r"\w+"):
        call()
