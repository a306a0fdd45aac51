import datetime as dt
import random
import re
from collections import Counter

import pytest
import torch

from playground.data import BOS_ID, EOS_ID, PAD_ID, Seq2SeqBatch, pad_sequences, tasks
from playground.data.date_formats import ALL_FORMATS, HELD_OUT_FORMATS, TRAIN_FORMATS, ordinal

from .dates import parse_human_date


def _draw(task, n=300, seed=0):
    rng = random.Random(seed)
    return [task.sample(rng) for _ in range(n)]


def test_registry_lists_every_task_and_rejects_unknown_names_and_knobs():
    assert tasks.names() == ["copy", "reverse", "sort", "dates", "addition"]
    for name in tasks.names():
        task = tasks.get(name)
        assert task.name == name
        assert tasks.get(name, **task.knobs).knobs == task.knobs
    with pytest.raises(ValueError, match="unknown task 'copyy'"):
        tasks.get("copyy")
    with pytest.raises(ValueError, match="no knob .'digits'.*length"):
        tasks.get("copy", digits=3)


@pytest.mark.parametrize("knobs, message", [
    ({"length": 0}, "length must be between 1 and 256"),
    ({"symbols": 27}, "symbols must be between 2 and 26"),
    ({"length": 5, "min_length": 6}, "min_length must be between 1 and 5"),
])
def test_bad_knobs_say_what_to_change(knobs, message):
    with pytest.raises(ValueError, match=message):
        tasks.get("copy", **knobs)


def test_headline_copy_configuration():
    task = tasks.get("copy", length=10, symbols=10)
    assert task.tokenizer.chars == list("abcdefghij")
    assert task.tokenizer.vocab_size == 15
    pairs = _draw(task)
    assert all(len(s) == 10 and s == t for s, t in pairs)
    assert set("".join(s for s, _ in pairs)) == set("abcdefghij")


def test_reverse_targets_are_reversed():
    for source, target in _draw(tasks.get("reverse", length=7, min_length=1, symbols=5)):
        assert list(target) == list(reversed(source))
        assert 1 <= len(source) <= 7 and set(source) <= set("abcde")


def test_sort_targets_are_sorted_permutations():
    for source, target in _draw(tasks.get("sort", length=12, symbols=26)):
        assert all(a <= b for a, b in zip(target, target[1:]))
        assert Counter(target) == Counter(source)


def test_addition_targets_are_the_sums():
    pairs = _draw(tasks.get("addition", digits=4))
    for source, target in pairs:
        a, b = source.split("+")
        assert int(target) == int(a) + int(b)
        assert len(a) <= 4 and len(b) <= 4 and not (len(a) > 1 and a[0] == "0")
    assert max(len(t) for _, t in pairs) <= tasks.get("addition", digits=4).max_target_len


@pytest.mark.parametrize("held_out", [False, True])
def test_every_date_target_is_the_same_date_in_iso(held_out):
    task = tasks.get("dates", held_out_formats=held_out)
    for source, target in _draw(task, n=2000):
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", target)
        assert parse_human_date(source) == dt.date.fromisoformat(target), source
        assert len(source) <= task.max_source_len and task.tokenizer.unknown_chars(source) == []


def test_each_format_writes_tricky_dates_correctly():
    tricky = [dt.date(2024, 2, 29), dt.date(2000, 2, 29), dt.date(1999, 12, 31), dt.date(2026, 11, 21), dt.date(2013, 1, 1)]
    for name, fmt in ALL_FORMATS.items():
        for date in tricky:
            assert parse_human_date(fmt(date)) == date, (name, fmt(date))
    assert TRAIN_FORMATS["d Mon yyyy"](dt.date(2026, 11, 21)) == "21 Nov 2026"
    assert TRAIN_FORMATS["Month d, yyyy"](dt.date(2026, 11, 21)) == "November 21, 2026"
    assert TRAIN_FORMATS["dd/mm/yyyy"](dt.date(2026, 11, 21)) == "21/11/2026"
    assert TRAIN_FORMATS["Weekday, d Month yyyy"](dt.date(2026, 11, 21)) == "Saturday, 21 November 2026"
    assert [ordinal(d) for d in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"]


def test_held_out_formats_never_appear_in_training_and_share_the_tokenizer():
    train, held = tasks.get("dates"), tasks.get("dates", held_out_formats=True)
    assert train.tokenizer == held.tokenizer
    assert not set(TRAIN_FORMATS) & set(HELD_OUT_FORMATS)
    train_sources = {s for s, _ in _draw(train, n=3000)}
    for date in (dt.date(1960, 5, 3), dt.date(2031, 10, 27)):
        for fmt in HELD_OUT_FORMATS.values():
            assert fmt(date) not in train_sources


def test_dates_cover_leap_days_and_stay_in_the_year_range():
    task = tasks.get("dates", min_year=2000, max_year=2004)
    targets = [dt.date.fromisoformat(t) for _, t in _draw(task, n=4000)]
    assert all(2000 <= d.year <= 2004 for d in targets)
    assert any((d.month, d.day) == (2, 29) for d in targets)
    with pytest.raises(ValueError, match="max_year must be between 2000 and 9999"):
        tasks.get("dates", min_year=2000, max_year=1999)


def test_sampling_is_deterministic_for_a_seed():
    for name in tasks.names():
        task = tasks.get(name)
        assert _draw(task, n=50, seed=7) == _draw(task, n=50, seed=7)
        assert _draw(task, n=50, seed=7) != _draw(task, n=50, seed=8)
        assert task.held_out(20, seed=3) == task.held_out(20, seed=3)


def test_held_out_is_unique_distinct_from_training_and_excluded():
    task = tasks.get("copy", length=3, symbols=3)  # only 27 sources: duplicates are certain
    val = task.held_out(10, seed=0)
    sources = [s for s, _ in val]
    assert len(set(sources)) == 10
    assert val != _draw(task, n=10, seed=0)
    train = task.sample_pairs(500, random.Random(0), exclude=set(sources))
    assert not {s for s, _ in train} & set(sources)


def test_impossible_held_out_sizes_say_what_to_change():
    task = tasks.get("copy", length=2, symbols=2)  # 4 distinct sources
    with pytest.raises(ValueError, match="fewer than 5 distinct sources"):
        task.held_out(5)
    everything = {s for s, _ in task.held_out(4)}
    with pytest.raises(ValueError, match="hold out fewer examples"):
        task.sample_pairs(1, random.Random(0), exclude=everything)


def test_batches_are_padded_with_bos_and_eos_in_place():
    task = tasks.get("reverse", length=6, min_length=1, symbols=4)
    pairs = [("abcd", "dcba"), ("a", "a"), ("bb", "bb")]
    batch = task.batch(pairs)
    assert isinstance(batch, Seq2SeqBatch) and len(batch) == 3
    assert batch.src.shape == (3, 4) and batch.tgt_in.shape == (3, 5) == batch.tgt_out.shape
    assert batch.src.dtype == torch.long
    assert (batch.tgt_in[:, 0] == BOS_ID).all()
    assert batch.tgt_out[1].tolist() == [task.tokenizer.encode("a")[0], EOS_ID, PAD_ID, PAD_ID, PAD_ID]
    assert batch.src[1].tolist()[1:] == [PAD_ID] * 3
    # Teacher forcing: tgt_out is tgt_in shifted left by one.
    for row, (_, target) in enumerate(pairs):
        n = len(target)
        assert batch.tgt_in[row, 1 : n + 1].tolist() == batch.tgt_out[row, :n].tolist()
        assert task.tokenizer.decode(batch.tgt_out[row]) == target
    random_batch = task.sample_batch(16, random.Random(0))
    assert random_batch.src.shape[0] == 16 and random_batch.src.shape[1] <= task.max_source_len


def test_pad_sequences_checks_its_input():
    assert pad_sequences([[5], [6, 7]], length=3).tolist() == [[5, 0, 0], [6, 7, 0]]
    with pytest.raises(ValueError, match="shorter than the longest"):
        pad_sequences([[1, 2, 3]], length=2)
    with pytest.raises(ValueError, match="at least one"):
        pad_sequences([])


def test_check_source_explains_bad_user_input():
    task = tasks.get("sort", length=5, symbols=3)
    task.check_source("cab")
    with pytest.raises(ValueError, match="no characters \\['z'\\]; use only 'abc'"):
        task.check_source("caz")
    with pytest.raises(ValueError, match="at most 5"):
        task.check_source("abcabc")
    with pytest.raises(ValueError, match="empty"):
        task.check_source("")
