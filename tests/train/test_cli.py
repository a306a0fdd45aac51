import io

import pytest
import torch

from playground.checkpoint import load, load_metadata
from playground.data import bundled_text
from playground.train import PRESETS, TrainEvent
from playground.train.cli import main, progress_line


def test_cli_trains_a_preset_and_saves_a_loadable_checkpoint_with_a_card(tmp_path):
    out = tmp_path / "copy"
    log = io.StringIO()
    assert main(["--preset", "copy", "--steps", "3", "--seed", "4", "--out", str(out)], stream=log) == 0

    model, tokenizer, config, card = load(out)
    assert config == PRESETS["copy"].model_config
    assert tokenizer == PRESETS["copy"].build_data().tokenizer
    assert "python -m playground.train --preset copy --steps 3 --seed 4 --out " + str(out) in card
    for heading in ("## Data", "## Model", "## Training", "## Held-out results", "## Head scores"):
        assert heading in card
    assert "exact match of greedy decodes" in card and "decoder.cross_attn.diagonal" in card

    meta = load_metadata(out)
    assert meta["preset"] == "copy" and meta["steps"] == 3 and meta["status"] == "finished"
    assert meta["train_config"]["seed"] == 4 and 0 <= meta["exact_match"] <= 1
    assert "step 3/3" in log.getvalue() and f"saved copy after 3 steps to {out}" in log.getvalue()
    src = torch.tensor([tokenizer.encode("abcdefghij")])
    assert model(src, torch.tensor([[1]])).shape == (1, 1, config.vocab_size)


def test_cli_trains_a_language_model_preset_on_a_given_text(tmp_path):
    text_file = tmp_path / "story.txt"
    text_file.write_text(bundled_text(), encoding="utf-8")
    out = tmp_path / "lm"
    code = main(["--preset", "shakespeare-char", "--steps", "2", "--text", str(text_file), "--out", str(out)],
                stream=io.StringIO())
    assert code == 0
    _, tokenizer, config, card = load(out)
    assert config.vocab_size == tokenizer.vocab_size == len(set(bundled_text())) + 5
    assert "as validation, the last" in card and "Corpus `tiny_shakespeare`" in card


def test_cli_refuses_an_empty_text_and_an_unknown_preset(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(SystemExit, match="the corpus is empty"):
        main(["--preset", "shakespeare-char", "--text", str(empty), "--out", str(tmp_path / "x")], stream=io.StringIO())
    with pytest.raises(SystemExit):
        main(["--preset", "nope", "--out", str(tmp_path / "y")], stream=io.StringIO())
    assert not (tmp_path / "x").exists()


def test_progress_line_shows_what_was_measured():
    event = TrainEvent(step=120, loss=1.23456, val_loss=1.3, perplexity=3.67, accuracy=0.61, exact_match=0.5,
                       lr=3e-3, grad_norm=0.5, tokens_per_s=9876.4, elapsed=62.0)
    assert progress_line(event, 2000) == (
        "step 120/2000  loss 1.2346  val 1.3000  acc 61.0%  exact 50.0%  lr 3.0e-03  9,876 tok/s  1:02")
    quiet = TrainEvent(step=5, loss=2.0, val_loss=None, perplexity=None, accuracy=None, exact_match=None,
                       lr=1e-3, grad_norm=0.5, tokens_per_s=10.0, elapsed=3.0)
    assert progress_line(quiet, 10) == "step 5/10  loss 2.0000  lr 1.0e-03  10 tok/s  0:03"
