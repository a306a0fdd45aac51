import io
from types import SimpleNamespace

import pytest
import torch

from playground.checkpoint import load, load_metadata, rewrite_card
from playground.data import bundled_text
from playground.train import PRESETS, TrainEvent
from playground.train.cli import main, progress_line
from playground.train.remeasure import final_bleu

from .helpers import fewer_card_sources


@pytest.fixture(autouse=True)
def fewer_sources(monkeypatch):
    fewer_card_sources(monkeypatch)


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


def _bytes_of(folder):
    """Every file of a checkpoint folder but its card, and the tensor bytes of each .safetensors file."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "card.md":
            data = path.read_bytes()
            header = int.from_bytes(data[:8], "little") if path.suffix == ".safetensors" else -8
            files[str(path.relative_to(folder))] = data[8 + header:]
    return files


def test_remeasure_rewrites_the_measured_sections_and_keeps_every_weight_byte(tmp_path):
    out = tmp_path / "copy"
    assert main(["--preset", "copy", "--steps", "2", "--timeline", "0,1", "--dtype", "float16", "--out", str(out)],
                stream=io.StringIO()) == 0
    trained, weights = load(out).card, _bytes_of(out)
    assert "## Source lengths" in trained and "- BLEU of greedy decodes" in trained.split("## Head scores")[0]

    log = io.StringIO()
    assert main(["--remeasure", str(out)], stream=log) == 0
    after, meta = load(out), load_metadata(out)
    assert _bytes_of(out) == weights                                        # tensors, tokenizer and timeline
    assert after.card == (out / "card.md").read_text(encoding="utf-8")
    # the same stored weights measured again: every section as training wrote it, "Reproduce" names both commands
    kept, reproduce = after.card.split("## Reproduce")
    assert kept == trained.split("## Reproduce")[0]
    assert reproduce.startswith(trained.split("## Reproduce")[1])
    assert f"python -m playground.train --remeasure {out}" in reproduce and meta["command"] in after.card
    assert meta["remeasure_command"] == f"python -m playground.train --remeasure {out}"
    assert [row["length"] for row in meta["lengths"]] == list(range(1, 21))
    assert meta["storage"]["metrics"]["bleu"] is not None and "rewrote the card" in log.getvalue()

    # a card written before these sections existed gets them in their place; measuring again changes nothing
    older = after.card.replace(after.card[after.card.index("## Source lengths"):after.card.index("## Storage")], "")
    older = "\n".join(line for line in older.split("\n") if not line.startswith("- BLEU of greedy decodes"))
    rewrite_card(out, older, {k: v for k, v in meta.items() if k != "lengths"})
    assert main(["--remeasure", str(out)], stream=io.StringIO()) == 0
    assert load(out).card == after.card and _bytes_of(out) == weights


def test_remeasure_measures_a_language_model_and_refuses_what_it_cannot_rebuild(tmp_path):
    out = tmp_path / "tang"
    assert main(["--preset", "tang-poems-char", "--steps", "1", "--dtype", "float16", "--out", str(out)],
                stream=io.StringIO()) == 0
    before = load_metadata(out)
    assert main(["--remeasure", str(out)], stream=io.StringIO()) == 0
    after = load_metadata(out)
    assert after["storage"]["metrics"]["val_loss"] == pytest.approx(before["storage"]["metrics"]["val_loss"], abs=1e-6)
    assert "--remeasure" in load(out).card.split("## Reproduce")[1]

    text_file = tmp_path / "story.txt"
    text_file.write_text(bundled_text(), encoding="utf-8")
    assert main(["--preset", "shakespeare-char", "--steps", "1", "--text", str(text_file), "--out",
                 str(tmp_path / "own")], stream=io.StringIO()) == 0
    log = io.StringIO()
    assert main(["--remeasure", str(tmp_path / "own")], stream=log) == 1
    assert "cannot measure" in log.getvalue() and "--text" in log.getvalue()
    with pytest.raises(SystemExit):
        main(["--remeasure", str(out), "--preset", "copy"], stream=io.StringIO())


def test_the_final_weights_bleu_follows_from_a_perfect_exact_match_and_is_otherwise_not_invented():
    objective = SimpleNamespace(held_out=[("abcdefghij", "jihgfedcba"), ("aaaabbbbcc", "ccbbbbaaaa")])
    value, notes = final_bleu({"task": "reverse", "exact_match": 1.0}, objective)
    assert value == pytest.approx(100.0) and "exact match of 100%" in notes[0]
    value, notes = final_bleu({"task": "reverse", "exact_match": 0.98}, objective)
    assert value is None and "cannot be without them" in notes[0]
    assert final_bleu({"task": "reverse", "exact_match": 0.98, "bleu": 99.1}, objective) == (99.1, ())
    assert final_bleu({"task": None, "exact_match": None}, objective) == (None, ())
