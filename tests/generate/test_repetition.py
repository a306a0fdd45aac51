"""The repetition penalty: each token already in the context has its probability divided by the
penalty, validated settings, greedy decoding that stops looping; and the measure of how much a
generation repeats itself."""
import numpy as np
import pytest

from playground.analysis.repetition import repetition
from playground.generate import (
    MAX_REPETITION_PENALTY, SamplingConfig, Stepper, apply_repetition_penalty, filter_stages, softmax,
)

from .helpers import TOKENIZER, model

LOGITS = np.array([2.0, 1.0, 0.5, -1.0, 3.0])


def test_the_penalty_divides_the_probability_of_every_seen_token_then_renormalises():
    penalised = softmax(apply_repetition_penalty(LOGITS, [4, 0, 4], 2.0))      # 4 seen twice counts once
    raw = softmax(LOGITS)
    unseen = [1, 2, 3]
    ratio = penalised[unseen] / raw[unseen]                                 # every unseen token gains alike
    np.testing.assert_allclose(ratio, ratio[0])
    np.testing.assert_allclose(penalised[[0, 4]] / raw[[0, 4]], ratio[0] / 2.0)    # seen tokens: half of that
    np.testing.assert_allclose(apply_repetition_penalty(LOGITS, [1, 2], 1.0), LOGITS)
    np.testing.assert_allclose(softmax(apply_repetition_penalty(LOGITS + 7.0, [4], 3.0)),
                               softmax(apply_repetition_penalty(LOGITS, [4], 3.0)))    # whatever the logits' shift


def test_the_penalty_is_a_stage_greedy_picks_after():
    raw, stages = filter_stages(LOGITS, SamplingConfig(repetition_penalty=4.0), seen=[4])
    assert list(stages) == ["repetition"] and np.argmax(raw) == 4 and np.argmax(stages["repetition"]) == 0
    _, stages = filter_stages(LOGITS, SamplingConfig(strategy="sample", repetition_penalty=2.0, top_k=2), seen=[0])
    assert list(stages) == ["repetition", "temperature", "top-k"]


@pytest.mark.parametrize("settings, fragment", [
    (dict(repetition_penalty=0.5), "repetition_penalty must be a number in [1"),
    (dict(repetition_penalty=MAX_REPETITION_PENALTY + 1), "repetition_penalty must be a number in [1"),
    (dict(repetition_penalty=True), "repetition_penalty"),
    (dict(strategy="beam", repetition_penalty=1.5), "beam search ranks whole hypotheses"),
])
def test_bad_penalties_are_refused_with_what_to_change(settings, fragment):
    with pytest.raises(ValueError, match=fragment.replace("[", r"\[")):
        SamplingConfig(**settings)


def test_greedy_with_a_penalty_repeats_less_than_greedy():
    net = model(seed=3)
    plain = Stepper(net, TOKENIZER, "abc", SamplingConfig(max_new_tokens=24), trace_attention=False)
    penalised = Stepper(net, TOKENIZER, "abc", SamplingConfig(max_new_tokens=24, repetition_penalty=10.0),
                        trace_attention=False)
    for stepper in (plain, penalised):
        for _ in stepper.run():
            pass
    assert repetition(penalised.generated_ids, 2).repeated < repetition(plain.generated_ids, 2).repeated
    step = penalised.steps[-1]
    assert step.token_id == int(np.argmax(step.stages["repetition"]))      # greedy chose after the penalty


def test_repetition_counts_repeated_n_grams_and_finds_the_loop_at_the_end():
    looping = [1, 2, 3, 4, 5, 6, 7, 5, 6, 7, 5, 6, 7]
    found = repetition(looping, n=3)
    assert found.n_grams == 11 and found.repeated == pytest.approx(4 / 11)   # 567 675 756 567 seen before
    assert (found.loop, found.loop_tokens) == (3, 9)                        # 567 three times at the end
    fresh = repetition(list(range(10)), n=2)
    assert fresh.repeated == 0.0 and fresh.loop == 0
    assert repetition([], n=4).repeated == 0.0
    with pytest.raises(ValueError, match="n must be an integer"):
        repetition([1, 2], n=0)
