"""Every shipped model loads, and held-out data reproduces the metrics its card reports.

Seq2seq models decode 100 of the card's 500 held-out sources (exact match within 5 points);
language models are measured on the card's own validation windows (and, for the masked model,
the same masks), so their loss must match to within float rounding.
"""
import re

import numpy as np
import pytest

from playground.checkpoint import CARD_FILE, MODEL_FILE, TOKENIZER_FILE
from playground.data import LMData, MLMData, RepeatedSequences, load_corpus, tasks
from playground.train import PRESETS
from playground.data.date_formats import HELD_OUT_FORMATS
from playground.train.card import held_out_formats_exact_match, repeated_sequence_scores
from playground.train.config import TrainConfig
from playground.train.objectives import build_objective

from .conftest import PRETRAINED, SHIPPED

EXPECTED = ["copy", "dates", "induction", "masked-char", "reverse", "shakespeare-bpe", "shakespeare-char", "sort"]
SEQ2SEQ_SAMPLE = 100          # held-out sources decoded per seq2seq model
EXACT_TOLERANCE = 0.05        # |sample exact match - card| for 100 of the card's 500 held-out sources
LOSS_TOLERANCE = 0.005        # |loss - card| in nats on the card's own validation windows (and masks)
MB = 2**20


def test_every_model_of_the_issue_is_shipped_with_its_files():
    assert SHIPPED == EXPECTED
    for name in SHIPPED:
        for file in (MODEL_FILE, TOKENIZER_FILE, CARD_FILE):
            assert (PRETRAINED / name / file).is_file(), f"pretrained/{name}/{file} is missing"


def test_pretrained_fits_the_size_budget():
    files = [f for f in PRETRAINED.rglob("*") if f.is_file()]
    assert sum(f.stat().st_size for f in files) <= 40 * MB
    assert max(f.stat().st_size for f in files) <= 10 * MB


def sample_objective(checkpoint, meta, size):
    """The objective the model was measured with, over a smaller held-out sample."""
    preset = PRESETS[meta["preset"]]
    train = TrainConfig.from_dict(meta["train_config"])
    if preset.task is not None:
        data = tasks.get(preset.task, **meta["task_knobs"])
    elif preset.repeats is not None:
        data = RepeatedSequences(**preset.repeats)
    else:
        data_class = MLMData if preset.masked else LMData
        data = data_class(load_corpus(preset.corpus, allow_download=False), checkpoint.tokenizer, meta["block_size"])
    return build_objective(data, checkpoint.config, train.replace(val_size=size))


@pytest.mark.parametrize("name", ["copy", "reverse", "sort", "dates"])
def test_a_seq2seq_sample_reproduces_the_cards_exact_match(name, checkpoints):
    checkpoint, meta = checkpoints[name]
    stored = meta["storage"]["metrics"]
    objective = sample_objective(checkpoint, meta, SEQ2SEQ_SAMPLE)
    metrics = objective.evaluate(checkpoint.model)
    assert abs(metrics.exact_match - stored["exact_match"]) <= EXACT_TOLERANCE
    decoded = objective.greedy(checkpoint.model, [source for source, _ in objective.held_out])
    greedy_exact = np.mean([checkpoint.tokenizer.decode(out) == target
                            for out, (_, target) in zip(decoded, objective.held_out)])
    assert greedy_exact == pytest.approx(metrics.exact_match)               # real greedy decodes agree
    assert greedy_exact >= 0.99
    assert f"exact match of greedy decodes: {stored['exact_match']:.2%}" in checkpoint.card


@pytest.mark.parametrize("name", ["shakespeare-char", "shakespeare-bpe", "masked-char", "induction"])
def test_a_language_model_sample_reproduces_the_cards_validation_loss(name, checkpoints):
    checkpoint, meta = checkpoints[name]
    stored = meta["storage"]["metrics"]
    metrics = sample_objective(checkpoint, meta, meta["train_config"]["val_size"]).evaluate(checkpoint.model)
    assert abs(metrics.val_loss - stored["val_loss"]) <= LOSS_TOLERANCE
    assert f"validation loss: {stored['val_loss']:.4f}" in checkpoint.card


def test_float16_storage_keeps_the_metrics_of_the_trained_weights(checkpoints):
    for name, (_, meta) in checkpoints.items():
        assert meta["storage"]["dtype"] == "float16"
        assert abs(meta["storage"]["metrics"]["val_loss"] - meta["val_loss"]) <= 0.01, name


def test_every_card_says_how_it_was_made(checkpoints):
    for name, (checkpoint, meta) in checkpoints.items():
        assert meta["command"].startswith(f"python -m playground.train --preset {name} ")
        assert meta["command"] in checkpoint.card and f"--out pretrained/{name}" in meta["command"]
        assert re.search(r"\d+ s on this machine", checkpoint.card), name
        assert "## Head scores" in checkpoint.card


def test_the_language_model_cards_report_previous_token_and_induction_heads(checkpoints):
    checkpoint, meta = checkpoints["shakespeare-char"]
    scores = meta["repeated_sequence_scores"]
    assert set(scores) == {"previous_token", "induction"}
    config = checkpoint.config
    assert len(scores["induction"]) == config.n_decoder_layers and len(scores["induction"][0]) == config.n_heads
    assert "| induction |" in checkpoint.card and "| previous_token |" in checkpoint.card
    measured = repeated_sequence_scores(checkpoint.model, checkpoint.tokenizer.vocab_size)
    for name, values in measured.items():
        assert np.allclose(values, scores[name], atol=0.01), name           # the stored weights give the card's scores
    assert measured["previous_token"].max() >= 0.4                          # a clear previous-token head


def test_the_dates_card_reports_each_held_out_format_and_the_stored_weights_reproduce_it(checkpoints):
    checkpoint, meta = checkpoints["dates"]
    assert set(meta["held_out_formats"]) == set(HELD_OUT_FORMATS)
    assert f"{meta['held_out_formats_exact_match']:.2%} overall" in checkpoint.card
    objective = sample_objective(checkpoint, meta, 1)
    measured = held_out_formats_exact_match(objective, checkpoint.model, meta["task_knobs"], meta["train_config"]["seed"],
                                            meta["held_out_formats_size"])
    assert measured == meta["held_out_formats"]
    for name, share in measured.items():
        assert re.search(rf"\| {re.escape(name)} \| [^|]+ \| {share:.2%} \|", checkpoint.card), name
