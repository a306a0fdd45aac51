"""Sampling filters and the validated settings."""
import numpy as np
import pytest

from playground.generate import (
    MAX_BEAM_WIDTH, SamplingConfig, apply_temperature, draw, filter_stages, softmax, top_k_filter, top_p_filter,
)

LOGITS = np.array([1.0, 3.0, -2.0, 2.5, 0.0, 3.0])        # the top token (id 1) ties with id 5
PROBS = np.array([0.5, 0.3, 0.15, 0.05])


def entropy(p):
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def test_temperature_sharpens_flattens_and_tends_to_argmax():
    np.testing.assert_allclose(apply_temperature(LOGITS, 1.0), softmax(LOGITS))
    assert entropy(apply_temperature(LOGITS, 0.5)) < entropy(softmax(LOGITS)) < entropy(apply_temperature(LOGITS, 2.0))
    cold = apply_temperature(np.array([1.0, 3.0, 2.9, -1.0]), 1e-6)
    np.testing.assert_array_equal(cold, [0.0, 1.0, 0.0, 0.0])


def test_top_k_keeps_the_k_most_likely_and_breaks_ties_like_argmax():
    probs = softmax(LOGITS)
    one = top_k_filter(probs, 1)
    assert np.argmax(one) == np.argmax(probs) == 1 and one[1] == 1.0
    three = top_k_filter(probs, 3)
    assert set(np.flatnonzero(three)) == {1, 3, 5} and three.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(three[[1, 3, 5]], probs[[1, 3, 5]] / probs[[1, 3, 5]].sum())
    np.testing.assert_allclose(top_k_filter(probs, 100), probs)


@pytest.mark.parametrize("p, kept", [(0.5, [0]), (0.8, [0, 1]), (0.81, [0, 1, 2]), (1e-9, [0]), (1.0, [0, 1, 2, 3])])
def test_top_p_keeps_the_smallest_set_reaching_p(p, kept):
    out = top_p_filter(PROBS, p)
    assert list(np.flatnonzero(out)) == kept
    np.testing.assert_allclose(out[kept], PROBS[kept] / PROBS[kept].sum())


def test_top_p_always_keeps_the_most_likely_token():
    probs = np.array([0.1, 0.2, 0.7])
    assert list(np.flatnonzero(top_p_filter(probs, 0.01))) == [2]


def test_filter_stages_follow_the_settings():
    raw, stages = filter_stages(LOGITS, SamplingConfig(strategy="greedy", top_k=2))
    np.testing.assert_allclose(raw, softmax(LOGITS))
    assert not stages
    _, stages = filter_stages(LOGITS, SamplingConfig(strategy="sample", temperature=0.7, top_p=0.9))
    assert list(stages) == ["temperature", "top-p"]
    _, stages = filter_stages(LOGITS, SamplingConfig(strategy="sample", temperature=0.7, top_k=3, top_p=0.5))
    assert list(stages) == ["temperature", "top-k", "top-p"]
    np.testing.assert_allclose(stages["top-k"], top_k_filter(apply_temperature(LOGITS, 0.7), 3))
    np.testing.assert_allclose(stages["top-p"], top_p_filter(stages["top-k"], 0.5))


def test_draw_follows_the_distribution_and_is_reproducible():
    probs = np.array([0.0, 0.6, 0.0, 0.3, 0.1])
    draws = np.array([draw(probs, seed=7, position=i) for i in range(3000)])
    assert set(draws) <= {1, 3, 4}
    np.testing.assert_allclose(np.bincount(draws, minlength=5) / 3000, probs, atol=0.03)
    assert [draw(probs, 7, i) for i in range(50)] == list(draws[:50])
    assert [draw(probs, 8, i) for i in range(50)] != list(draws[:50])


def test_valid_settings_are_accepted():
    SamplingConfig(strategy="greedy", temperature=0.0)                # temperature only matters when sampling
    SamplingConfig(strategy="sample", temperature=0.01, top_k=1, top_p=1.0, beam_width=MAX_BEAM_WIDTH)
    assert SamplingConfig().replace(seed=3).seed == 3


@pytest.mark.parametrize("fields, message", [
    (dict(strategy="nucleus"), "strategy must be one of"),
    (dict(strategy="sample", temperature=0.0), "temperature must be > 0"),
    (dict(strategy="sample", temperature=-1.0), "temperature must be > 0"),
    (dict(temperature=float("nan")), "finite"),
    (dict(top_k=0), "top_k must be an integer >= 1"),
    (dict(top_k=2.5), "top_k must be an integer >= 1"),
    (dict(top_p=0.0), r"top_p must be in \(0, 1\]"),
    (dict(top_p=1.5), r"top_p must be in \(0, 1\]"),
    (dict(seed=-1), "seed"),
    (dict(beam_width=MAX_BEAM_WIDTH + 1), f"from 1 to {MAX_BEAM_WIDTH}"),
    (dict(beam_width=0), "beam_width"),
    (dict(max_new_tokens=0), "max_new_tokens"),
    (dict(length_penalty=-0.5), "length_penalty"),
])
def test_bad_settings_raise_clear_errors(fields, message):
    with pytest.raises(ValueError, match=message):
        SamplingConfig(**fields)
    with pytest.raises(ValueError, match=message):
        SamplingConfig().replace(**fields)


@pytest.mark.parametrize("call, message", [
    (lambda: apply_temperature(LOGITS, 0.0), "temperature must be > 0"),
    (lambda: top_k_filter(PROBS, 0), "top_k must be >= 1"),
    (lambda: top_p_filter(PROBS, 0.0), r"top_p must be in \(0, 1\]"),
    (lambda: top_p_filter(PROBS, 1.01), r"top_p must be in \(0, 1\]"),
])
def test_filters_reject_bad_parameters(call, message):
    with pytest.raises(ValueError, match=message):
        call()
