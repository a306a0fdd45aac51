"""Linear probes: a planted linear feature is found, shuffled labels stay at chance, held-out sequences are
held out whole, results repeat under a seed, and the task datasets label what they say."""
import numpy as np
import pytest
import torch

from playground.analysis.probes import (
    ProbeData, _split, fit_probes, induction_probe_data, line_end_probe_data, next_vowel_probe_data, residual_layers,
    reverse_probe_data,
)
from playground.data import CharTokenizer, tasks
from playground.model import ModelConfig, build_model
from tests.model.helpers import tiny_model


def planted(n_sequences=120, per_sequence=20, d=16, seed=0) -> ProbeData:
    """Three 'layers': noise, a layer whose label is the sign of one direction, and noise again."""
    g = torch.Generator().manual_seed(seed)
    n = n_sequences * per_sequence
    features = torch.randn(3, n, d, generator=g)
    direction = torch.randn(d, generator=g)
    labels = (features[1] @ direction > 0).long()                             # [N] linear in layer 1 only
    groups = torch.arange(n) // per_sequence
    return ProbeData(["noise", "planted", "noise again"], features, labels, ["below", "above"], groups)


def test_a_planted_linear_feature_is_found_and_shuffled_labels_stay_at_chance():
    result = fit_probes(planted())
    assert result.accuracy[1] > 0.95
    assert abs(result.accuracy[0] - 0.5) < 0.08 and abs(result.accuracy[2] - 0.5) < 0.08
    assert np.all(np.abs(result.control - 0.5) < 0.08)
    assert 0.5 <= result.chance < 0.6 and result.n_train + result.n_test == 2400
    assert result.n_test == pytest.approx(600, abs=20)



def test_probes_train_when_called_under_inference_mode_as_the_app_calls_them():
    data = planted()
    with torch.inference_mode():
        inside = fit_probes(ProbeData(data.layers, data.features.clone(), data.labels.clone(), data.classes,
                                      data.groups.clone()))
    assert inside.accuracy[1] > 0.95 and np.array_equal(inside.accuracy, fit_probes(data).accuracy)


def test_probes_repeat_under_a_seed_and_another_seed_holds_out_other_sequences():
    data = planted()
    first, again, other = fit_probes(data, seed=3), fit_probes(data, seed=3), fit_probes(data, seed=4)
    for field in ("accuracy", "control", "train_accuracy"):
        np.testing.assert_array_equal(getattr(first, field), getattr(again, field))
    assert not np.array_equal(first.control, other.control)


def test_a_sequence_is_held_out_whole():
    groups = torch.arange(400) // 10
    train, test = _split(groups, 0.25, torch.Generator().manual_seed(0))
    assert not set(groups[train].tolist()) & set(groups[test].tolist())
    assert len(set(groups[test].tolist())) == 10 and bool((train ^ test).all())


def test_the_induction_labels_are_the_offset_inside_the_repeat_or_whether_it_is_a_repeat():
    model = tiny_model("decoder_only", max_len=32)
    offset = induction_probe_data(model, "offset", n_sequences=6, periods=(3, 5), seed=1)
    inside = induction_probe_data(model, "inside", n_sequences=6, periods=(3, 5), seed=1)
    assert offset.layers == residual_layers(model) == ["decoder.0.resid_pre", "decoder.1.resid_pre",
                                                       "decoder.1.resid_post"]
    assert offset.features.shape[::2] == (3, 32) and inside.features.shape[1] == 6 * 31
    assert len(offset.classes) == 5 and inside.classes == ["first copy", "repeat"]
    for row in range(6):                                                     # a row's labels follow its period
        first = [i for i, label in enumerate(inside.labels[inside.groups == row].tolist()) if label][0] + 1
        assert first in (3, 5)
        assert offset.labels[offset.groups == row].tolist() == [t % first for t in range(first, 32)]


def test_the_reverse_labels_are_the_source_index_or_the_letter_copied():
    task = tasks.get("reverse", length=6, symbols=6)
    model = build_model(ModelConfig(arch="encoder_decoder", vocab_size=task.tokenizer.vocab_size, d_model=16,
                                    n_heads=2, n_encoder_layers=1, n_decoder_layers=2, d_ff=32, max_len=16)).eval()
    index = reverse_probe_data(model, task, property="index", n_sources=20)
    letter = reverse_probe_data(model, task, property="letter", n_sources=20)
    assert index.features.shape == (3, 20 * 6, 16) and index.labels[:6].tolist() == [5, 4, 3, 2, 1, 0]
    source = task.held_out(20, seed=0)[0][0]
    assert [letter.classes[i] for i in letter.labels[:6].tolist()] == list(source[::-1])
    assert index.layers[0] == "decoder.0.resid_pre"


def char_model(text: str, max_len: int):
    """An untrained one-layer character model of `text`'s alphabet, and its tokenizer."""
    tokenizer = CharTokenizer.from_text(text)
    model = build_model(ModelConfig(arch="decoder_only", vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2,
                                    n_decoder_layers=1, d_ff=32, max_len=max_len)).eval()
    return model, tokenizer


def test_the_vowel_labels_are_the_next_characters_and_the_features_are_the_model_s():
    text = "the cat sat on a mat, and ate. " * 20
    model, tokenizer = char_model(text, max_len=12)
    data = next_vowel_probe_data(model, tokenizer, text, n_windows=8, seed=0)
    letters = [ch for ch in text if ch.isalpha()]
    assert data.features.shape[:2] == (2, data.labels.numel()) and data.classes == ["consonant", "vowel"]
    assert 0 < data.labels.float().mean() < 1
    assert abs(data.labels.float().mean() - np.mean([ch in "aeiou" for ch in letters])) < 0.2


def test_the_line_end_labels_say_whether_the_next_character_ends_the_line():
    text = "白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。\n" * 6
    model, tokenizer = char_model(text, max_len=14)
    data = line_end_probe_data(model, tokenizer, text, n_windows=8, seed=0)
    assert data.features.shape[:2] == (2, data.labels.numel()) and data.classes == ["inside the line", "line ends next"]
    assert abs(data.labels.float().mean() - 0.2) < 0.05          # one line end after every 5 characters of a line

@pytest.mark.parametrize("make, message", [
    (lambda: fit_probes(planted(), test_fraction=1.0), "test_fraction"),
    (lambda: fit_probes(ProbeData(["a"], torch.randn(1, 10, 3), torch.zeros(10, dtype=torch.long), ["x"],
                                  torch.arange(10))), "two classes"),
    (lambda: fit_probes(ProbeData(["a"], torch.randn(1, 10, 3), torch.zeros(10, dtype=torch.long), ["x", "y"],
                                  torch.zeros(10, dtype=torch.long))), "cannot be split"),
    (lambda: fit_probes("data"), "ProbeData"),
    (lambda: induction_probe_data(tiny_model("decoder_only"), "period"), "offset"),
    (lambda: induction_probe_data(tiny_model("decoder_only"), periods=(8, 40)), "periods"),
    (lambda: reverse_probe_data(tiny_model("encoder_decoder"), tasks.get("copy")), "reverse task"),
    (lambda: next_vowel_probe_data(tiny_model("decoder_only"), CharTokenizer("ab"), "ab" * 4), "at least"),
    (lambda: line_end_probe_data(tiny_model("decoder_only"), CharTokenizer("ab，"), "ab，" * 2), "at least"),
])
def test_bad_probe_requests_are_refused_with_the_reason(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def hand_case() -> ProbeData:
    """Five sequences of four positions, one layer whose one feature is +1 or -1. Sequence 4 is held out.

    Where the feature is +1 the training labels are 1 (10 rows) or 0 (1 row); where it is -1 they are 0 (4 rows)
    or 1 (1 row). Any probe of this one feature fits the commonest training label of each of its two values:
    1 on +1, 0 on -1. The held-out sequence disagrees with it at positions 1 and 3."""
    signs = [[1, 1, -1, 1], [1, -1, 1, 1], [1, 1, -1, -1], [1, 1, -1, 1], [1, -1, 1, 1]]
    labels = [[1, 1, 0, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 0, 0], [1, 1, 1, 0]]
    features = torch.tensor(signs, dtype=torch.float).reshape(1, 20, 1)
    groups = torch.arange(20) // 4
    return ProbeData(["only"], features, torch.tensor(labels).flatten(), ["no", "yes"], groups, torch.arange(20) % 4)


def by_sign(features: torch.Tensor, labels: torch.Tensor, rows: torch.Tensor) -> dict[float, int]:
    """A hand-fitted probe of a two-valued feature: the commonest label of each value among `rows` (no ties here)."""
    fitted = {}
    for value in (1.0, -1.0):
        counts = torch.bincount(labels[rows & (features == value)], minlength=2)
        assert counts[0] != counts[1]
        fitted[value] = int(counts.argmax())
    return fitted


def accuracy(fitted: dict[float, int], features: torch.Tensor, labels: torch.Tensor, rows: torch.Tensor) -> float:
    guesses = torch.tensor([fitted[float(v)] for v in features[rows]])
    return float((guesses == labels[rows]).float().mean())


def test_every_score_equals_a_hand_fitted_probe_on_exactly_the_rows_it_is_scored_on():
    data = hand_case()
    result = fit_probes(data, held_out=[4], steps=300)
    features, labels = data.features[0, :, 0], data.labels
    test = torch.from_numpy(result.held_out)
    assert test.tolist() == [False] * 16 + [True] * 4 and (result.n_train, result.n_test) == (16, 4)
    probe = by_sign(features, labels, ~test)
    assert probe == {1.0: 1, -1.0: 0}
    assert result.train_accuracy[0] == pytest.approx(accuracy(probe, features, labels, ~test)) == 14 / 16
    assert result.accuracy[0] == pytest.approx(accuracy(probe, features, labels, test)) == 2 / 4
    control = torch.from_numpy(result.control_labels)
    assert sorted(control.tolist()) == sorted(labels.tolist())                  # the same labels, shuffled
    fitted_control = by_sign(features, control, ~test)
    assert result.control[0] == pytest.approx(accuracy(fitted_control, features, control, test))
    # position alone: the commonest training label at positions 0..3 is 1, 1, 0, 1; held out: 1, 1, 1, 0
    assert result.position_only == pytest.approx(2 / 4)
    assert result.chance == pytest.approx(3 / 4)                               # three of the held-out labels are 1


def test_the_position_only_baseline_reads_a_property_that_is_only_position():
    """Labels that are the position's parity: the position-only baseline gets every held-out row right."""
    n = 40 * 8
    positions = torch.arange(n) % 8
    data = ProbeData(["noise"], torch.randn(1, n, 4, generator=torch.Generator().manual_seed(0)), positions % 2,
                     ["even", "odd"], torch.arange(n) // 8, positions)
    result = fit_probes(data)
    assert result.position_only == 1.0 and result.accuracy[0] < 0.7


def test_probe_data_is_bounded_in_sequences_and_length():
    model = tiny_model("decoder_only", max_len=512)
    assert induction_probe_data(model, "inside", n_sequences=2).features.shape[1] == 2 * 127
    with pytest.raises(ValueError, match="between 1 and 128"):
        induction_probe_data(model, "inside", n_sequences=1000)
    with pytest.raises(ValueError, match="2 to 128 tokens"):
        induction_probe_data(model, "inside", n_sequences=2, length=512)
