"""Head scores on hand-built attention patterns, plus the ranges on a real model's trace."""
import numpy as np
import pytest
import torch

from playground.analysis import CROSS_SCORES, SELF_SCORES, head_scores
from playground.model import CROSS, DECODER_SELF, Trace
from tests.model.helpers import tiny_model

T = 12


def causal_uniform(n: int) -> np.ndarray:
    """[n, n] each query spread evenly over itself and every earlier key."""
    w = np.tril(np.ones((n, n)))
    return w / w.sum(axis=1, keepdims=True)


def previous_token_pattern(n: int) -> np.ndarray:
    """[n, n] query t puts all its weight on t-1 (query 0 on itself)."""
    w = np.zeros((n, n))
    w[0, 0] = 1
    w[np.arange(1, n), np.arange(n - 1)] = 1
    return w


def stack(*patterns: np.ndarray) -> np.ndarray:
    """Patterns [Tq, Tk] -> [1, len(patterns), Tq, Tk]: one layer, one head per pattern."""
    return np.stack(patterns)[None]


def induction_pattern(ids: np.ndarray) -> np.ndarray:
    """Query t spreads its weight over keys j < t with ids[j-1] == ids[t]; else on itself."""
    n = len(ids)
    w = np.zeros((n, n))
    for t in range(n):
        targets = [j for j in range(1, t) if ids[j - 1] == ids[t]]
        if targets:
            w[t, targets] = 1 / len(targets)
        else:
            w[t, t] = 1
    return w


def test_previous_token_pattern_scores_one_and_uniform_scores_low():
    scores = head_scores(stack(previous_token_pattern(T), causal_uniform(T)), "self")
    assert scores["previous_token"].shape == (1, 2)
    assert scores["previous_token"][0, 0] == pytest.approx(1.0)
    assert scores["previous_token"][0, 1] < 0.35
    assert scores["entropy"][0, 0] == pytest.approx(0.0)
    assert scores["entropy"][0, 1] == pytest.approx(1.0)
    assert "induction" not in scores


def test_sink_pattern_scores_first_token_one():
    sink = np.zeros((T, T))
    sink[:, 0] = 1
    scores = head_scores(stack(sink, previous_token_pattern(T)), "self")
    assert scores["first_token"][0, 0] == pytest.approx(1.0)
    assert scores["first_token"][0, 1] == pytest.approx(1 / (T - 1))     # only query 1 hits key 0
    assert scores["previous_token"][0, 0] == pytest.approx(1 / (T - 1))


def test_entropy_normalised_by_visible_keys_for_bidirectional_heads():
    uniform_all = np.full((T, T), 1 / T)
    one_hot_last = np.zeros((T, T))
    one_hot_last[:, -1] = 1
    scores = head_scores(stack(uniform_all, one_hot_last), "self")
    np.testing.assert_allclose(scores["entropy"][0], [1.0, 0.0], atol=1e-12)
    # read as causal, each query's entropy log(T) exceeds log(p + 1): the score stays clipped to [0, 1]
    forced = head_scores(stack(uniform_all), "self", causal=True)["entropy"][0, 0]
    assert forced == pytest.approx(1.0)


def test_perfect_induction_on_repeated_random_sequence_scores_one():
    rng = np.random.default_rng(0)
    half = rng.permutation(np.arange(5, 40))[:10]
    ids = np.concatenate([half, half])
    scores = head_scores(stack(induction_pattern(ids), previous_token_pattern(20), causal_uniform(20)), "self", ids=ids)
    induction = scores["induction"][0]
    assert induction[0] == pytest.approx(1.0)
    assert induction[1] == pytest.approx(0.0)                             # previous-token head is not induction
    assert 0 < induction[2] < 0.2


def test_induction_is_zero_without_any_repeat():
    ids = np.arange(T)
    scores = head_scores(stack(causal_uniform(T)), "self", ids=ids)
    assert scores["induction"][0, 0] == 0.0
    assert not np.isnan(scores["induction"]).any()


def test_scores_accept_torch_and_partial_query_rows():
    full = stack(previous_token_pattern(T))
    last_rows = torch.tensor(full[:, :, -3:, :])                          # queries at positions T-3 .. T-1
    scores = head_scores(last_rows, "self", ids=list(range(T)))
    assert scores["previous_token"][0, 0] == pytest.approx(1.0)


def test_identity_cross_attention_scores_diagonal_one():
    source, target = 7, 9
    identity = np.zeros((target, source))
    identity[np.arange(source), np.arange(source)] = 1
    identity[source:, -1] = 1
    reverse = np.zeros((target, source))
    reverse[np.arange(source), source - 1 - np.arange(source)] = 1
    reverse[source:, 0] = 1
    scores = head_scores(stack(identity, reverse), "cross")
    assert set(scores) == set(CROSS_SCORES)
    np.testing.assert_allclose(scores["diagonal"][0], [1.0, 1 / source])   # the middle key is on both diagonals
    np.testing.assert_allclose(scores["anti_diagonal"][0], [1 / source, 1.0])
    np.testing.assert_allclose(scores["entropy"][0], [0.0, 0.0])


def test_cross_source_length_ignores_padding_keys():
    source, padded = 4, 6
    w = np.zeros((source, padded))
    w[np.arange(source), source - 1 - np.arange(source)] = 1
    scores = head_scores(stack(w), "cross", source_length=source)
    assert scores["anti_diagonal"][0, 0] == pytest.approx(1.0)
    uniform = np.zeros((3, padded))
    uniform[:, :source] = 1 / source
    assert head_scores(stack(uniform), "cross", source_length=source)["entropy"][0, 0] == pytest.approx(1.0)


def test_scores_of_a_real_trace_are_in_range():
    model = tiny_model("decoder_only", n_decoder_layers=2)
    torch.manual_seed(1)
    half = torch.randint(5, 23, (1, 8))
    ids = torch.cat([half, half], dim=1)
    trace = Trace(("*.weights",))
    with torch.no_grad():
        model(ids, trace=trace)
    weights = trace.attention(DECODER_SELF)[:, 0]                            # [L, H, T, T]
    scores = head_scores(weights, "self", ids=ids[0].tolist())
    assert set(scores) == set(SELF_SCORES)
    for name, values in scores.items():
        assert values.shape == (2, 4), name
        assert ((values >= 0) & (values <= 1)).all(), name


def test_seq2seq_trace_cross_scores_in_range():
    model = tiny_model("encoder_decoder")
    src, tgt = torch.randint(5, 23, (1, 6)), torch.randint(5, 23, (1, 5))
    trace = Trace(("*.weights",))
    with torch.no_grad():
        model(src, tgt, trace=trace)
    scores = head_scores(trace.attention(CROSS)[:, 0], "cross")
    for values in scores.values():
        assert values.shape == (2, 4) and ((values >= 0) & (values <= 1)).all()


@pytest.mark.parametrize("call, message", [
    (lambda: head_scores(np.ones((2, 3, 3)), "self"), r"\[L, H, Tq, Tk\]"),
    (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, "diagonal"), "kind must be one of"),
    (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, "self", ids=[1, 2]), "3 token ids"),
    (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, "self", source_length=3), "kind='cross' only"),
    (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, "cross", ids=[1, 2, 3]), "kind='self' only"),
    (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, "cross", source_length=4), r"in \[1, 3\]"),
    (lambda: head_scores(np.ones((1, 1, 4, 3)) / 3, "self"), "Tq <= Tk"),
    (lambda: head_scores(-np.ones((1, 1, 3, 3)), "self"), "non-negative"),
    (lambda: head_scores([[[[1.0]]]], "self"), "torch.Tensor or numpy"),
])
def test_bad_arguments_raise_clear_errors(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
