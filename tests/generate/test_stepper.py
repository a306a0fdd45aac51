"""Stepper: cached steps equal full passes, decoding identities, back(), stop conditions, sliding, errors."""
import numpy as np
import pytest
import torch

from playground.data import BOS_ID, UNK_ID
from playground.generate import GenerationFinished, SamplingConfig, Stepper, window_after_slide
from playground.model import CROSS, DECODER_SELF, ENCODER_SELF, Trace, build_model

from .helpers import TOKENIZER, config, eos_model, model

GREEDY = SamplingConfig(max_new_tokens=12)


def full_pass(net, ids, source_ids=None):
    """(next-token probabilities at the last position, traced full-pass weights) of ids."""
    trace = Trace(("*.weights",))
    with torch.no_grad():
        if source_ids is None:
            logits = net(torch.tensor([ids]), trace=trace)
        else:
            logits = net(torch.tensor([source_ids]), torch.tensor([ids]), trace=trace)
    return torch.softmax(logits[0, -1].double(), -1).numpy(), trace


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
@pytest.mark.parametrize("positional", ["sinusoidal", "rope", "learned"])
def test_cached_steps_equal_full_forward_passes(arch, positional):
    net = model(arch, positional)
    stepper = Stepper(net, TOKENIZER, "abc fed", SamplingConfig(strategy="sample", seed=3, max_new_tokens=6))
    for step in stepper.run():
        history = stepper.ids[:step.position]
        expected, _ = full_pass(net, history, stepper.source_ids)
        np.testing.assert_allclose(step.raw_probs, expected, atol=1e-5)
    _, trace = full_pass(net, stepper.ids, stepper.source_ids)
    np.testing.assert_allclose(stepper.attention_matrix(DECODER_SELF), trace.attention(DECODER_SELF)[:, 0].numpy(), atol=1e-5)
    np.testing.assert_allclose(step.attention[DECODER_SELF], trace.attention(DECODER_SELF)[:, 0, :, -1].numpy(), atol=1e-5)
    if arch == "encoder_decoder":
        cross = trace.attention(CROSS)[:, 0].numpy()                  # [L, H, T, S]
        np.testing.assert_allclose(stepper.attention_matrix(CROSS), cross, atol=1e-5)
        np.testing.assert_allclose(stepper.attention_matrix(ENCODER_SELF), trace.attention(ENCODER_SELF)[:, 0].numpy(), atol=1e-5)


def test_step_reports_its_token_distribution_and_trace():
    stepper = Stepper(model(), TOKENIZER, "abc", SamplingConfig(strategy="sample", top_k=5, top_p=0.8, seed=1))
    step = stepper.step()
    assert list(step.stages) == ["temperature", "top-k", "top-p"]
    assert step.raw_probs.dtype == np.float32 and step.raw_probs.shape == (TOKENIZER.vocab_size,)
    assert step.raw_probs.sum() == pytest.approx(1.0, abs=1e-5)
    assert np.count_nonzero(step.stages["top-k"]) == 5
    assert step.probs[step.chosen] > 0 and step.chosen == step.token_id
    assert step.token_text == TOKENIZER.id_to_piece(step.token_id)
    assert step.attention[DECODER_SELF].shape == (2, 4, 4) and step.cache_length == 4
    np.testing.assert_allclose(step.attention[DECODER_SELF].sum(-1), 1.0, atol=1e-5)
    assert stepper.tokens == ["a", "b", "c", step.token_text]
    assert stepper.generated_ids == [step.token_id]


def test_greedy_picks_the_argmax_and_has_no_stages():
    stepper = Stepper(model(), TOKENIZER, "abc", GREEDY)
    for step in stepper.run(5):
        assert step.token_id == int(np.argmax(step.raw_probs)) and not step.stages


def generated(net, prompt, settings):
    return [step.token_id for step in Stepper(net, TOKENIZER, prompt, settings).run()]


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_near_zero_temperature_and_top_k_one_equal_greedy(arch):
    net = model(arch, sharpness=3.0)
    greedy = generated(net, "hello", GREEDY)
    assert generated(net, "hello", GREEDY.replace(strategy="sample", temperature=1e-6, seed=5)) == greedy
    assert generated(net, "hello", GREEDY.replace(strategy="sample", top_k=1, temperature=2.0, seed=9)) == greedy
    assert generated(net, "hello", GREEDY.replace(strategy="sample", top_p=1e-9, seed=2)) == greedy


def test_sampling_is_reproducible_from_its_seed():
    net = model(sharpness=3.0)
    settings = SamplingConfig(strategy="sample", seed=11, max_new_tokens=20)
    first = generated(net, "ab", settings)
    assert generated(net, "ab", settings) == first
    assert generated(net, "ab", settings.replace(seed=12)) != first


def test_back_undoes_a_step_exactly():
    stepper = Stepper(model(), TOKENIZER, "abc", SamplingConfig(strategy="sample", seed=4, max_new_tokens=30))
    before = [stepper.step() for _ in range(5)]
    matrix = stepper.attention_matrix()
    undone = [stepper.back(), stepper.back()]
    assert [s.token_id for s in undone] == [before[4].token_id, before[3].token_id]
    assert stepper.cache_length == 6 and len(stepper.ids) == 6 and stepper.attention_matrix().shape[2] == 6
    again = [stepper.step(), stepper.step()]
    for old, new in zip(before[3:], again):
        assert new.token_id == old.token_id
        np.testing.assert_array_equal(new.raw_probs, old.raw_probs)
        np.testing.assert_array_equal(new.attention[DECODER_SELF], old.attention[DECODER_SELF])
    np.testing.assert_array_equal(stepper.attention_matrix(), matrix)


def test_back_without_a_step_is_an_error():
    with pytest.raises(RuntimeError, match="nothing to undo"):
        Stepper(model(), TOKENIZER, "abc").back()


def test_budget_stops_generation_and_further_steps_are_refused():
    stepper = Stepper(model(), TOKENIZER, "abc", SamplingConfig(max_new_tokens=4))
    steps = list(stepper.run())
    assert len(steps) == 4 and steps[-1].finished and steps[-1].reason == "budget" and stepper.reason == "budget"
    assert not any(s.finished for s in steps[:-1])
    with pytest.raises(GenerationFinished, match="budget"):
        stepper.step()
    stepper.back()
    assert not stepper.finished and stepper.step().reason == "budget"


def test_eos_stops_generation():
    stepper = Stepper(eos_model(length=6), TOKENIZER, "abc", SamplingConfig(max_new_tokens=20))
    steps = list(stepper.run())
    assert [s.reason for s in steps] == [None, None, None, "eos"]          # the 6th token predicts eos
    assert stepper.ids[-1] == TOKENIZER.eos_id and "<eos>" not in stepper.generated_text


def test_run_takes_at_most_max_steps():
    stepper = Stepper(model(), TOKENIZER, "abc", GREEDY)
    assert len(list(stepper.run(3))) == 3 and len(list(stepper.run(2))) == 2 and len(stepper.steps) == 5


@pytest.mark.parametrize("positional", ["learned", "rope"])
def test_generation_past_the_context_slides_the_window(positional):
    net = model(positional=positional, max_len=8)
    stepper = Stepper(net, TOKENIZER, "abc", SamplingConfig(max_new_tokens=30))
    steps = list(stepper.run(20))
    slid = [s for s in steps if s.slid]
    assert len(slid) >= 2 and all("slid" in s.message for s in slid)
    assert not any(s.message for s in steps if not s.slid)
    assert all(s.cache_length <= 8 for s in steps)
    assert slid[0].position == 8 and slid[0].cache_length == window_after_slide(8)
    window = stepper.ids[stepper.window_start:]
    assert len(window) == stepper.cache_length and stepper.window_tokens == stepper.tokens[stepper.window_start:]
    expected, trace = full_pass(net, window)                 # the window reads like a fresh sequence
    np.testing.assert_allclose(stepper.attention_matrix(), trace.attention(DECODER_SELF)[:, 0].numpy(), atol=1e-5)
    np.testing.assert_allclose(stepper.step().raw_probs, expected, atol=1e-5)


def test_back_across_a_slide_restores_the_window():
    net = model(positional="learned", max_len=8)
    stepper = Stepper(net, TOKENIZER, "abcdefgh", GREEDY)
    before = stepper.attention_matrix()
    step = stepper.step()
    assert step.slid and stepper.window_start == 9 - window_after_slide(8)
    stepper.back()
    assert stepper.window_start == 0 and stepper.cache_length == 8
    np.testing.assert_array_equal(stepper.attention_matrix(), before)
    again = stepper.step()
    assert again.token_id == step.token_id
    np.testing.assert_array_equal(again.attention[DECODER_SELF], step.attention[DECODER_SELF])


def test_prompt_longer_than_the_context_is_windowed_and_reported():
    net = model(positional="learned", max_len=8)
    stepper = Stepper(net, TOKENIZER, "abcdefghijklm", GREEDY)
    assert stepper.window_start == 13 - window_after_slide(8)
    assert any("slid" in notice for notice in stepper.notices)
    assert stepper.tokens[:3] == ["a", "b", "c"] and stepper.window_tokens[0] == stepper.tokens[stepper.window_start]
    expected, _ = full_pass(net, stepper.ids[stepper.window_start:])
    np.testing.assert_allclose(stepper.step().raw_probs, expected, atol=1e-5)


def test_encoder_decoder_stops_at_a_full_context_and_truncates_a_long_source():
    net = model("encoder_decoder", positional="learned", max_len=6)
    stepper = Stepper(net, TOKENIZER, "abcdefghij", SamplingConfig(max_new_tokens=50))
    assert stepper.source_ids == TOKENIZER.encode("abcdef") and any("first 6" in n for n in stepper.notices)
    assert stepper.tokens == ["<bos>"] and stepper.source_tokens == list("abcdef")
    steps = list(stepper.run())
    assert len(steps) == 5 and steps[-1].reason == "context" and steps[-1].cache_length == 6
    assert stepper.attention_matrix(CROSS).shape == (2, 4, 6, 6)


def test_empty_prompt_starts_from_bos():
    stepper = Stepper(model(), TOKENIZER, "")
    assert stepper.ids == [BOS_ID] and stepper.tokens == ["<bos>"] and stepper.cache_length == 1
    assert stepper.step().attention[DECODER_SELF].shape == (2, 4, 2)


def test_unknown_characters_are_reported_and_become_unk():
    stepper = Stepper(model(), TOKENIZER, "ab€zc€")
    assert stepper.unknown_chars == ["€", "z"]
    assert stepper.ids == [TOKENIZER.encode("a")[0], TOKENIZER.encode("b")[0], UNK_ID, UNK_ID,
                           TOKENIZER.encode("c")[0], UNK_ID]
    assert any("€z" in notice for notice in stepper.notices)
    stepper.step()


def test_without_tracing_steps_have_no_attention():
    stepper = Stepper(model(), TOKENIZER, "abc", trace_attention=False)
    traced = Stepper(model(), TOKENIZER, "abc")
    step = stepper.step()
    assert step.attention == {}
    np.testing.assert_allclose(step.raw_probs, traced.step().raw_probs, atol=1e-5)
    with pytest.raises(ValueError, match="trace_attention=True"):
        stepper.attention_matrix()


def test_non_finite_logits_are_reported():
    net = model()
    with torch.no_grad():
        net.head.weight[0, 0] = float("nan")
    with pytest.raises(FloatingPointError, match="NaN"):
        Stepper(net, TOKENIZER, "abc").step()


@pytest.mark.parametrize("make, message, error", [
    (lambda: Stepper(model(), TOKENIZER, "abc", SamplingConfig(strategy="beam")), "beam_search", ValueError),
    (lambda: Stepper(model(), TOKENIZER, "abc", {"strategy": "greedy"}), "SamplingConfig", TypeError),
    (lambda: Stepper(model(), TOKENIZER, 42), "prompt must be a str", TypeError),
    (lambda: Stepper(model("encoder_decoder"), TOKENIZER, ""), "source text is empty", ValueError),
    (lambda: Stepper(build_model(config("encoder_only", n_encoder_layers=1, n_decoder_layers=0)), TOKENIZER, "a"),
     "does not generate", ValueError),
    (lambda: Stepper(model(vocab_size=30), TOKENIZER, "abc"), "tokenizer has 23 ids", ValueError),
    (lambda: Stepper(torch.nn.Linear(2, 2), TOKENIZER, "abc"), "playground model", TypeError),
    (lambda: Stepper(model(), TOKENIZER, "abc").run(0), "max_steps", ValueError),
    (lambda: Stepper(model(), TOKENIZER, "abc").attention_matrix(CROSS), "has no decoder.cross_attn", ValueError),
    (lambda: Stepper(model(), TOKENIZER, "abc").attention_matrix("cross"), "must be an AttentionSite", TypeError),
])
def test_bad_arguments_raise_clear_errors(make, message, error):
    with pytest.raises(error, match=message):
        make()


def _same_steps(a: list, b: list) -> None:
    assert [s.token_id for s in a] == [s.token_id for s in b]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.raw_probs, y.raw_probs)
        assert x.attention.keys() == y.attention.keys()
        for site in x.attention:
            np.testing.assert_array_equal(x.attention[site], y.attention[site])


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_a_fork_steps_as_a_fresh_stepper_and_leaves_its_original_as_it_was(arch):
    net = model(arch)
    settings = SamplingConfig(strategy="sample", seed=5, max_new_tokens=8)
    original = Stepper(net, TOKENIZER, "abc fed", SamplingConfig())
    fork = original.fork(settings)
    _same_steps(list(fork.run()), list(Stepper(net, TOKENIZER, "abc fed", settings).run()))
    assert original.steps == [] and original.cache_length == len(original.ids)         # untouched by the fork
    greedy = list(original.run(4))
    _same_steps(greedy, list(Stepper(net, TOKENIZER, "abc fed", SamplingConfig()).run(4)))
    again = original.fork()                                        # a fork after steps: the same steps so far
    again.back()
    assert len(original.steps) == 4 and len(again.steps) == 3
    _same_steps([again.step()], greedy[3:])
    np.testing.assert_array_equal(again.attention_matrix(), original.attention_matrix())


def test_a_fork_across_a_slide_keeps_its_own_windows():
    net = model(positional="learned", max_len=8)
    original = Stepper(net, TOKENIZER, "abcdefgh", GREEDY)
    before = original.attention_matrix()
    slid = original.step()
    fork = original.fork()
    fork.back()                                                     # the fork goes back across the slide
    assert fork.window_start == 0 and original.window_start == 9 - window_after_slide(8)
    np.testing.assert_array_equal(fork.attention_matrix(), before)
    _same_steps([fork.step()], [slid])
    original.back()
    np.testing.assert_array_equal(original.attention_matrix(), before)


def test_a_fork_refuses_beam_search():
    with pytest.raises(ValueError, match="beam_search"):
        Stepper(model(), TOKENIZER, "ab", GREEDY).fork(SamplingConfig(strategy="beam"))
