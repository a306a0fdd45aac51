"""Beam search: width 1 is greedy, the tree is consistent, the best hypothesis is returned and scored right."""
import math

import pytest
import torch

from playground.data import BOS_ID, EOS_ID
from playground.generate import MAX_BEAM_WIDTH, SamplingConfig, Stepper, beam_search

from .helpers import TOKENIZER, eos_model, model


def greedy_ids(net, prompt, budget):
    return [s.token_id for s in Stepper(net, TOKENIZER, prompt, SamplingConfig(max_new_tokens=budget)).run()]


def sequence_logprob(net, prompt_ids, generated, source_ids=None):
    """Sum of log p(token) over `generated`, from one teacher-forced full pass."""
    ids = torch.tensor([prompt_ids + generated])
    with torch.no_grad():
        logits = net(ids) if source_ids is None else net(torch.tensor([source_ids]), ids)
    logprobs = torch.log_softmax(logits[0].double(), -1)                       # [T, V]
    start = len(prompt_ids) - 1
    return sum(float(logprobs[start + i, t]) for i, t in enumerate(generated))


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_width_one_equals_greedy(arch):
    net = model(arch, sharpness=3.0)
    result = beam_search(net, TOKENIZER, "hello", beam_width=1, max_new_tokens=10)
    assert result.best.token_ids == greedy_ids(net, "hello", 10)
    assert len(result.tree) == 11 and result.best.reason == "budget"


def test_width_one_equals_greedy_when_eos_ends_it():
    net = eos_model(length=7)
    result = beam_search(net, TOKENIZER, "abc", beam_width=1, max_new_tokens=20)
    assert result.best.token_ids == greedy_ids(net, "abc", 20) and result.best.token_ids[-1] == EOS_ID
    assert result.best.reason == "eos"


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_tree_scores_are_path_sums_and_the_best_hypothesis_is_returned(arch):
    net = model(arch, sharpness=2.0)
    result = beam_search(net, TOKENIZER, "abcab", beam_width=4, max_new_tokens=6, length_penalty=0.5)
    tree = result.tree
    assert [node.id for node in tree] == list(range(len(tree))) and tree[0].parent is None
    for node in tree[1:]:
        path, at = [], node
        while at.parent is not None:
            path.append(at.logprob)
            at = tree[at.parent]
        assert node.depth == len(path) and node.logprob <= 0
        assert node.score == pytest.approx(sum(path), abs=1e-9)
    assert max(node.depth for node in tree) == 6 and sum(node.depth == 6 for node in tree) == 4
    scores = [h.score for h in result.finished]
    assert scores == sorted(scores, reverse=True) and result.best == result.finished[0]
    for h in result.finished:
        assert tree[h.node_id].finished and tree[h.node_id].score == h.logprob
        assert h.score == pytest.approx(h.logprob / len(h.token_ids) ** 0.5)
    assert result.best_path[0] == 0 and result.best_path[-1] == result.best.node_id
    assert [tree[i].token_id for i in result.best_path[1:]] == result.best.token_ids


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_hypothesis_logprob_matches_a_teacher_forced_pass(arch):
    net = model(arch, sharpness=2.0)
    result = beam_search(net, TOKENIZER, "abcab", beam_width=3, max_new_tokens=5)
    prompt_ids, source = (TOKENIZER.encode("abcab"), None) if arch == "decoder_only" else ([BOS_ID], TOKENIZER.encode("abcab"))
    for h in result.finished:
        assert h.logprob == pytest.approx(sequence_logprob(net, prompt_ids, h.token_ids, source), abs=1e-4)


def test_a_wide_beam_keeps_distinct_hypotheses():
    result = beam_search(model(sharpness=2.0, seed=3), TOKENIZER, "ab", beam_width=8, max_new_tokens=4, length_penalty=0.0)
    assert len({tuple(h.token_ids) for h in result.finished}) == len(result.finished) == 8
    assert all(result.best.logprob >= h.logprob for h in result.finished)


def test_hypotheses_ending_in_eos_finish_early():
    result = beam_search(eos_model(length=5, sharpness=2.0), TOKENIZER, "abc", beam_width=3, max_new_tokens=10)
    assert all(h.reason == "eos" and h.token_ids[-1] == EOS_ID and len(h.token_ids) == 3 for h in result.finished)
    assert max(node.depth for node in result.tree) == 3 and "<eos>" not in result.best.text


def test_encoder_decoder_beam_stops_at_the_context():
    net = model("encoder_decoder", positional="learned", max_len=5)
    result = beam_search(net, TOKENIZER, "abc", beam_width=2, max_new_tokens=20)
    assert {h.reason for h in result.finished} == {"context"} and all(len(h.token_ids) == 4 for h in result.finished)


def test_long_decoder_only_prompt_slides_to_leave_room():
    net = model(positional="learned", max_len=8)
    result = beam_search(net, TOKENIZER, "abcdefghijk", beam_width=2, max_new_tokens=20)
    assert any("slid" in notice for notice in result.notices)
    assert all(h.reason == "context" and len(h.token_ids) == 2 for h in result.finished)
    assert result.tree[0].token_text == "k"


def test_unknown_characters_are_reported():
    result = beam_search(model(), TOKENIZER, "ab€", beam_width=2, max_new_tokens=2)
    assert result.unknown_chars == ["€"]


@pytest.mark.parametrize("kwargs, message", [
    (dict(beam_width=MAX_BEAM_WIDTH + 1), f"beam_width must be an integer from 1 to {MAX_BEAM_WIDTH}"),
    (dict(beam_width=0), "beam_width"),
    (dict(max_new_tokens=0), "max_new_tokens"),
    (dict(length_penalty=math.inf), "length_penalty"),
])
def test_bad_arguments_raise_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        beam_search(model(), TOKENIZER, "abc", **kwargs)


def test_nan_logits_are_reported():
    net = model()
    with torch.no_grad():
        net.head.bias[7] = float("nan")
    with pytest.raises(FloatingPointError, match="NaN"):
        beam_search(net, TOKENIZER, "abc")
