"""Seq2seq results by source length and by date format count what they say: the decodes of the
right sources, scored by exact match and by sacrebleu's character BLEU."""
import datetime as dt

import pytest
import sacrebleu
import torch

from playground.data import EOS_ID, pad_sequences, tasks
from playground.data.date_formats import TRAIN_FORMATS, iso
from playground.generate.batch import bos, greedy
from playground.train import PRESETS
from playground.train.breakdown import (
    decode_scores, format_of, length_rows, longest_source, seen_format_rows,
)

from ..data.dates import parse_human_date


class _Scripted:
    """Stands in for an objective: 'decodes' each source to ``answer(source)`` and records what it was asked."""

    def __init__(self, task, answer, held_out=()):
        self.task, self.tokenizer, self.answer, self.held_out = task, task.tokenizer, answer, list(held_out)
        self.asked = []

    def greedy(self, model, sources):
        self.asked += sources
        return [self.tokenizer.encode(self.answer(source)) + [EOS_ID] for source in sources]


def test_exact_match_and_bleu_score_the_decodes_as_sacrebleu_does():
    task = tasks.get("reverse", length=6, symbols=6)
    pairs = task.held_out(40, seed=3)

    def answer(source):                                     # right when it starts before "d", else one letter wrong
        reversed_ = source[::-1]
        return reversed_ if source[0] < "d" else ("a" if reversed_[0] != "a" else "b") + reversed_[1:]

    scripted = _Scripted(task, answer)
    scores = decode_scores(scripted, torch.nn.Identity(), pairs)
    outputs = [scripted.answer(source) for source, _ in pairs]
    assert scripted.asked == [source for source, _ in pairs]
    assert scores["sources"] == 40
    assert scores["exact_match"] == pytest.approx(sum(source[0] < "d" for source, _ in pairs) / 40)
    assert 0 < scores["exact_match"] < 1
    expected = sacrebleu.corpus_bleu(outputs, [[target for _, target in pairs]], tokenize="char").score
    assert scores["bleu"] == pytest.approx(expected) and 0 < scores["bleu"] < 100


def test_bleu_is_left_out_for_targets_shorter_than_its_longest_n_gram():
    task = tasks.get("copy", length=3, symbols=4)
    scores = decode_scores(_Scripted(task, lambda s: s), torch.nn.Identity(), task.held_out(10, seed=0))
    assert scores == {"sources": 10, "exact_match": 1.0, "bleu": None}


def test_lengths_run_from_one_to_twice_the_trained_length_on_unseen_sources_and_match_plain_greedy_decoding():
    trainer = PRESETS["copy"].trainer(max_steps=1, val_size=30)
    objective, model = trainer.objective, trainer.model.eval()
    rows = length_rows(objective, model, per_length=12)
    assert [row["length"] for row in rows] == list(range(1, 21))
    assert [row["length"] for row in rows if row["trained"]] == [10]
    assert [row["sources"] for row in rows] == [10] + [12] * 8 + [30] + [12] * 10     # 10 one-letter sources exist
    for row in rows:
        length = row["length"]
        if row["trained"]:
            pairs = objective.held_out
        else:
            pairs = tasks.get("copy", length=length, symbols=10, min_length=length).held_out(row["sources"], seed=0)
        assert all(len(source) == length for source, _ in pairs)
        src = pad_sequences([objective.tokenizer.encode(source) for source, _ in pairs])       # [B, S]
        texts = [objective.tokenizer.decode(ids) for ids in greedy(model, bos(len(pairs)), length + 1, src)]
        exact = sum(text == target for text, (_, target) in zip(texts, pairs)) / len(pairs)
        assert row["exact_match"] == pytest.approx(exact)
        if length >= 4:
            reference = sacrebleu.corpus_bleu(texts, [[target for _, target in pairs]], tokenize="char").score
            assert row["bleu"] == pytest.approx(reference)
        else:
            assert row["bleu"] is None


def test_a_task_of_several_lengths_measures_each_trained_length_on_its_held_out_sources():
    preset = PRESETS["reverse"]
    task = tasks.get("reverse", length=6, symbols=10, min_length=3)
    trainer = preset.trainer(max_steps=1, val_size=60)
    objective = type(trainer.objective)(task, trainer.model_config, trainer.config.replace(val_size=60))
    rows = length_rows(objective, trainer.model, per_length=5)
    assert [row["length"] for row in rows if row["trained"]] == [3, 4, 5, 6]
    assert sum(row["sources"] for row in rows if row["trained"]) == 60
    assert [row["sources"] for row in rows if not row["trained"]] == [5] * 8              # 1, 2 and 7 to 12
    assert longest_source(objective) == trainer.model_config.max_len - 1


def test_a_held_out_date_counts_for_the_first_training_format_that_writes_it():
    may = dt.date(2047, 5, 12)
    assert format_of("12 May 2047", iso(may), TRAIN_FORMATS) == "d Mon yyyy"              # also "d Month yyyy"
    assert format_of("12 May 2047", iso(may), {"d Month yyyy": TRAIN_FORMATS["d Month yyyy"]}) == "d Month yyyy"
    assert format_of("2047/05/12", iso(may), TRAIN_FORMATS) == "yyyy/mm/dd"


def test_seen_formats_split_the_held_out_sources_by_format_and_score_each_group():
    task = tasks.get("dates")
    held_out = task.held_out(300, seed=0)

    def right(source):
        return parse_human_date(source).month <= 6

    scripted = _Scripted(task, lambda s: iso(parse_human_date(s) + dt.timedelta(days=0 if right(s) else 1)), held_out)
    rows = seen_format_rows(scripted, torch.nn.Identity())
    assert set(rows) <= set(TRAIN_FORMATS) and len(rows) >= 15
    assert sum(row["sources"] for row in rows.values()) == 300
    for name, row in rows.items():
        sources = [source for source, target in held_out if format_of(source, target, TRAIN_FORMATS) == name]
        assert all(TRAIN_FORMATS[name](parse_human_date(source)) == source for source in sources)
        assert row["sources"] == len(sources)
        assert row["exact_match"] == pytest.approx(sum(map(right, sources)) / len(sources))
        assert row["bleu"] is not None and row["bleu"] <= 100
