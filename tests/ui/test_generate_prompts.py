"""A shipped model's prompt is read once and forked for each new generation; a session's own
model is read afresh; the kept prompts are bounded."""
import dataclasses

import numpy as np
import pytest

from playground.generate import SamplingConfig, Stepper
from playground.ui.views import prompts

SAMPLE = SamplingConfig(strategy="sample", seed=7, max_new_tokens=6)


@pytest.fixture
def counted(registry, monkeypatch):
    """The shipped tiny-gpt, its decoder runs counted, with nothing of it kept yet."""
    entry = registry.get("tiny-gpt")
    monkeypatch.setattr(prompts, "_fresh", prompts.OrderedDict())
    calls = []
    decode = entry.model.decode
    monkeypatch.setattr(entry.model, "decode", lambda *a, **k: calls.append(1) or decode(*a, **k))
    return entry, calls


def test_a_shipped_prompt_is_read_once_and_each_generation_steps_on_its_own(counted):
    entry, calls = counted
    first = prompts.started(entry, "abc ab", SAMPLE)
    assert len(calls) == 1
    second = prompts.started(entry, "abc ab", SamplingConfig())
    assert len(calls) == 1                                         # the prompt was not read again
    sampled, greedy = list(first.run()), list(second.run())
    reference = list(Stepper(entry.model, entry.tokenizer, "abc ab", SAMPLE).run())
    assert [s.token_id for s in sampled] == [s.token_id for s in reference]
    for mine, theirs in zip(sampled, reference):
        np.testing.assert_array_equal(mine.raw_probs, theirs.raw_probs)
    assert [s.token_id for s in greedy] == [s.token_id for s in Stepper(entry.model, entry.tokenizer, "abc ab").run()]
    third = prompts.started(entry, "abc ab", SAMPLE)
    assert third.steps == [] and [s.token_id for s in third.run()] == [s.token_id for s in sampled]


def test_a_sessions_own_model_is_read_afresh_and_not_kept(counted):
    entry, calls = counted
    own = dataclasses.replace(entry, name="mine", source="session")
    prompts.started(own, "abc", SAMPLE)
    prompts.started(own, "abc", SAMPLE)
    assert len(calls) == 2 and len(prompts._fresh) == 0


def test_the_kept_prompts_are_bounded(counted, monkeypatch):
    entry, _ = counted
    monkeypatch.setattr(prompts, "FRESH_KEPT", 2)
    for prompt in ("ab", "abc", "abcd"):
        prompts.started(entry, prompt, SAMPLE)
    assert [prompt for _, prompt in prompts._fresh] == ["abc", "abcd"]
