"""Held-out data stays out of training, and the held-out-formats metric counts what it says.

Each task is made small enough that the held-out sources are a large share of all sources, so a
training batch drawn without excluding them would contain some within a few batches.
"""
import datetime as dt
from types import SimpleNamespace

import pytest
import torch

from playground.data import BOS_ID, EOS_ID, PAD_ID, tasks
from playground.data.date_formats import HELD_OUT_FORMATS, iso
from playground.train import Trainer
from playground.train.breakdown import held_out_formats_exact_match

from ..data.dates import parse_human_date
from .helpers import model_config, quiet_config

SMALL_TASKS = {
    "copy": dict(length=3, symbols=3),                                       # 27 sources
    "reverse": dict(length=3, symbols=3, min_length=1),                      # 39
    "sort": dict(length=4, symbols=3),                                       # 81
    "addition": dict(digits=1),                                              # 100
    "dates": dict(min_year=2000, max_year=2000),                             # 366 days x 17 formats
}
VAL_SIZE = {"copy": 8, "reverse": 10, "sort": 20, "addition": 25, "dates": 600}


def _sources(objective, inputs):
    """The source strings of one batch's inputs, read back from the token ids."""
    if len(inputs) == 2:                                                     # encoder-decoder: (src, tgt_in)
        rows = [[i for i in row if i != PAD_ID] for row in inputs[0].tolist()]
    else:                                                                    # decoder-only: source <bos> target
        rows = [row[: row.index(BOS_ID)] for row in inputs[0].tolist()]
    return [objective.tokenizer.decode(row) for row in rows]


@pytest.mark.parametrize("arch", ["encoder_decoder", "decoder_only"])
@pytest.mark.parametrize("name", list(SMALL_TASKS))
def test_no_held_out_source_is_ever_trained_on(name, arch):
    task = tasks.get(name, **SMALL_TASKS[name])
    config = quiet_config(batch_size=16, val_size=VAL_SIZE[name])
    objective = Trainer(model_config(arch, task.tokenizer.vocab_size, max_len=64), config, task).objective
    held_out = {source for source, _ in objective.held_out}
    validated = {s for batch in objective.val_batches() for s in _sources(objective, batch.inputs)}
    assert validated == held_out and len(held_out) == VAL_SIZE[name]
    trained = [s for _ in range(150) for s in _sources(objective, objective.next_batch().inputs)]
    assert len(trained) == 150 * 16
    assert not held_out & set(trained)


class _ScriptedDecoder:
    """Stands in for a trainer: 'decodes' each source to the ISO date where `right(date)`, else to a
    wrong date, and records what it was asked."""

    def __init__(self, task, right):
        self.right, self.asked = right, []
        self.tokenizer = task.tokenizer
        self.config = SimpleNamespace(seed=0)
        self.model = torch.nn.Identity()
        self.objective = SimpleNamespace(greedy=self.greedy)

    def greedy(self, model, sources):
        self.asked += sources
        dates = [parse_human_date(source) for source in sources]
        answers = [iso(d) if self.right(d) else iso(d + dt.timedelta(days=1)) for d in dates]
        return [self.tokenizer.encode(answer) + [EOS_ID] for answer in answers]


@pytest.mark.parametrize("right", [
    lambda d: True, lambda d: False, lambda d: d.day % 2 == 1, lambda d: d.month <= 3,
])
def test_held_out_formats_exact_match_is_the_share_of_right_decodes(right):
    trainer = _ScriptedDecoder(tasks.get("dates"), right)
    objective = SimpleNamespace(greedy=trainer.greedy, tokenizer=trainer.tokenizer)
    shares = held_out_formats_exact_match(objective, trainer.model, {"min_year": 1990, "max_year": 2010}, seed=0, n=20)
    assert list(shares) == list(HELD_OUT_FORMATS)
    for i, (name, share) in enumerate(shares.items()):
        sources = trainer.asked[20 * i: 20 * (i + 1)]
        asked = [parse_human_date(source) for source in sources]
        assert all(HELD_OUT_FORMATS[name](d) == source for d, source in zip(asked, sources))   # that format only
        assert share == pytest.approx(sum(map(right, asked)) / 20)
    assert len(trainer.asked) == 20 * len(HELD_OUT_FORMATS)
