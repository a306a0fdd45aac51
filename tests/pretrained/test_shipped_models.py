"""Every shipped model loads, and held-out data reproduces the metrics its card reports.

Seq2seq models decode 100 of the card's 500 held-out sources (exact match within 5 points);
language models are measured on the card's own validation windows (and, for the masked model,
the same masks), so their loss must match to within float rounding.
"""
import re

import numpy as np
import pytest

from playground.checkpoint import CARD_FILE, MODEL_FILE, TOKENIZER_FILE, load
from playground.data import LMData, MLMData, RepeatedSequences, load_corpus, tasks
from playground.train import PRESETS
from playground.data.date_formats import HELD_OUT_FORMATS, TRAIN_FORMATS
from playground.train.breakdown import held_out_formats_exact_match, length_rows, seen_format_rows
from playground.train.card import BLEU_LINE, repeated_sequence_scores, written_sample
from playground.train.config import TrainConfig
from playground.train.objectives import build_objective

from .conftest import PRETRAINED, SHIPPED

EXPECTED = ["copy", "dates", "induction", "masked-char", "reverse", "shakespeare-bpe", "shakespeare-char", "sort",
            "tang-poems-char"]
SEQ2SEQ_SAMPLE = 100          # held-out sources decoded per seq2seq model
EXACT_TOLERANCE = 0.05        # |sample exact match - card| for 100 of the card's 500 held-out sources
BLEU_TOLERANCE = 5.0          # |sample BLEU - card| for the same 100
SAMPLE_LENGTHS = [3, 8, 10, 14]   # source lengths re-measured: too short for BLEU, shorter, trained, longer
COUPLET_SHARE = 0.5           # of the lines the Tang-poem model writes, at least this share are couplets
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
    assert abs(metrics.bleu - stored["bleu"]) <= BLEU_TOLERANCE


@pytest.mark.parametrize("name", ["shakespeare-char", "shakespeare-bpe", "masked-char", "induction", "tang-poems-char"])
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


def section(card: str, heading: str) -> str:
    """The text of one "## " section of a card, without its heading."""
    start = card.index(f"\n{heading}\n") + len(heading) + 2
    end = card.find("\n## ", start)
    return card[start:] if end < 0 else card[start:end]


def bleu_line(value: float) -> str:
    return f"- {BLEU_LINE}: {value:.1f}"


@pytest.mark.parametrize("name", ["copy", "reverse", "sort", "dates"])
def test_every_seq2seq_card_gives_bleu_beside_exact_match_for_the_final_and_the_stored_weights(name, checkpoints):
    checkpoint, meta = checkpoints[name]
    held_out, storage = section(checkpoint.card, "## Held-out results"), section(checkpoint.card, "## Storage")
    for lines in (held_out, storage):
        exact_at = lines.index("- exact match of greedy decodes:")
        assert lines.index(f"- {BLEU_LINE}: ") > exact_at
    assert bleu_line(meta["storage"]["metrics"]["bleu"]) in storage
    assert meta["exact_match"] == 1.0 and bleu_line(100.0) in held_out          # every final decode is its target
    assert f"python -m playground.train --remeasure pretrained/{name}" in section(checkpoint.card, "## Reproduce")
    assert checkpoint.card == (PRETRAINED / name / CARD_FILE).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["copy", "reverse", "sort"])
def test_the_letter_task_cards_report_every_source_length_and_the_stored_weights_reproduce_a_sample(name, checkpoints):
    checkpoint, meta = checkpoints[name]
    lengths = section(checkpoint.card, "## Source lengths")
    assert "one fixed length: every source in training and in the held-out set has 10 letters" in lengths
    rows = {row["length"]: row for row in meta["lengths"]}
    assert list(rows) == list(range(1, 21)) and [n for n, row in rows.items() if row["trained"]] == [10]
    for n, row in rows.items():
        bleu = "n/a" if row["bleu"] is None else f"{row['bleu']:.1f}"
        trained = "yes" if row["trained"] else "no"
        assert f"| {n} | {trained} | {row['sources']} | {row['exact_match']:.2%} | {bleu} |" in lengths
    assert rows[10]["exact_match"] == 1.0 and rows[10]["sources"] == meta["train_config"]["val_size"]
    objective = sample_objective(checkpoint, meta, meta["train_config"]["val_size"])
    for row in length_rows(objective, checkpoint.model, lengths=SAMPLE_LENGTHS):
        card_row = rows[row["length"]]
        assert (row["sources"], row["exact_match"]) == (card_row["sources"], card_row["exact_match"])
        assert row["bleu"] == card_row["bleu"] or row["bleu"] == pytest.approx(card_row["bleu"], abs=0.05)


def test_the_dates_card_reports_each_seen_format_with_bleu_and_the_stored_weights_reproduce_it(checkpoints):
    checkpoint, meta = checkpoints["dates"]
    seen, never = section(checkpoint.card, "## Date formats seen in training"), section(
        checkpoint.card, "## Date formats never seen in training")
    objective = sample_objective(checkpoint, meta, meta["train_config"]["val_size"])
    measured = seen_format_rows(objective, checkpoint.model)
    assert list(measured) == list(TRAIN_FORMATS) and set(meta["seen_formats"]) == set(TRAIN_FORMATS)
    assert sum(row["sources"] for row in measured.values()) == meta["train_config"]["val_size"]
    for name, row in measured.items():
        card_row = meta["seen_formats"][name]
        assert (row["sources"], row["exact_match"]) == (card_row["sources"], card_row["exact_match"])
        assert row["bleu"] == pytest.approx(card_row["bleu"], abs=0.05)
        assert re.search(rf"\| {re.escape(name)} \| [^|]+ \| {row['sources']} \| {row['exact_match']:.2%} \| "
                         rf"{row['bleu']:.1f} \|", seen), name
    overall = meta["held_out_formats_exact_match"], meta["held_out_formats_overall_bleu"]
    assert f"against {overall[0]:.2%} and BLEU {overall[1]:.1f} on the formats never seen in training" in seen
    assert f"{overall[0]:.2%} overall (BLEU {overall[1]:.1f})" in never
    for name in HELD_OUT_FORMATS:
        share, bleu = meta["held_out_formats"][name], meta["held_out_formats_bleu"][name]
        assert re.search(rf"\| {re.escape(name)} \| [^|]+ \| {share:.2%} \| {bleu:.1f} \|", never), name
    assert overall[0] < meta["seen_formats_overall"]["exact_match"] == 1.0            # unseen formats are harder


COUPLET = re.compile(r"[^，。\n]{5}，[^，。\n]{5}。|[^，。\n]{7}，[^，。\n]{7}。")
COUPLET_PROMPTS = ["春风", "明月", "白日", "秋夜", "山中", "故人", "江上", "孤城"]


def couplet_share(model, tokenizer, samples: int = 4) -> float:
    """The share of the whole lines written after COUPLET_PROMPTS (`samples` each) that are a couplet
    of 5 + 5 or 7 + 7 characters (0 when no line is complete); the prompt's own line is not counted."""
    lines = []
    for prompt in COUPLET_PROMPTS:
        for seed in range(samples):
            written = written_sample(model, tokenizer, prompt, seed=seed)["text"]
            lines += [line for line in written.split("\n")[1:-1] if "，" in line or line.endswith("。")]
    return sum(bool(COUPLET.fullmatch(line)) for line in lines) / max(len(lines), 1)


def test_the_tang_poem_card_names_its_source_and_licence_and_its_sample_is_reproduced(checkpoints):
    checkpoint, meta = checkpoints["tang-poems-char"]
    data = section(checkpoint.card, "## Data")
    for words in ("public domain", "MIT licence", "chinese-poetry 2.0.1", "OpenCC's t2s", "tang_poems.md"):
        assert words in data, words
    sample = meta["sample"]
    assert sample == written_sample(checkpoint.model, checkpoint.tokenizer, sample["prompt"])
    assert f"```\n{sample['prompt']}{sample['text']}\n```" in section(checkpoint.card, "## Sample")


def test_the_tang_poem_model_writes_couplets_which_its_first_checkpoint_does_not(checkpoints):
    checkpoint, meta = checkpoints["tang-poems-char"]
    first = load(PRETRAINED / "tang-poems-char" / meta["timeline"][0]["file"])
    assert meta["timeline"][0]["step"] == 0
    assert couplet_share(checkpoint.model, checkpoint.tokenizer) >= COUPLET_SHARE
    assert couplet_share(first.model, first.tokenizer, samples=1) <= 0.1        # random weights: one sample a prompt
