"""The training CLI's options for shipped models: timeline, float16 storage, the card's extra measurements."""
import argparse
import io
import re

import numpy as np
import pytest
import torch

from playground.checkpoint import load, load_metadata
from playground.model import ModelConfig, build_model
from playground.train import PRESETS
from playground.data.date_formats import HELD_OUT_FORMATS
from playground.train.breakdown import held_out_format_pairs, held_out_formats_exact_match
from playground.train.card import repeated_sequence_scores
from playground.train.cli import fractions, main, timeline_steps

from ..train.helpers import fewer_card_sources


@pytest.fixture(autouse=True)
def fewer_sources(monkeypatch):
    fewer_card_sources(monkeypatch)


def test_timeline_checkpoints_are_complete_models_at_fractions_of_the_run(tmp_path):
    out = tmp_path / "copy"
    log = io.StringIO()
    assert main(["--preset", "copy", "--steps", "4", "--timeline", "0,0.5,1", "--dtype", "float16",
                 "--out", str(out)], stream=log) == 0
    files = sorted(p.name for p in (out / "timeline").iterdir())
    assert files == ["step_000000.safetensors", "step_000002.safetensors", "step_000004.safetensors"]
    start, end = load(out / "timeline" / files[0]), load(out / "timeline" / files[-1])
    final = load(out)
    for name, weight in final.model.state_dict().items():
        assert torch.equal(end.model.state_dict()[name], weight)           # the last step is the saved model
    assert any(not torch.equal(start.model.state_dict()[name], weight) for name, weight in final.model.state_dict().items())
    assert load_metadata(out / "timeline" / files[1])["step"] == 2

    meta = load_metadata(out)
    assert [t["step"] for t in meta["timeline"]] == [0, 2, 4]
    assert len(meta["first_step_losses"]) == 4 and meta["storage"]["dtype"] == "float16"
    assert meta["wall_seconds"] > 0 and meta["threads"] >= 1
    assert "## Training timeline" in final.card and "Weights stored as float16" in final.card
    weight = next(final.model.parameters())
    assert weight.dtype == torch.float32 and torch.equal(weight, weight.half().float())   # float16 values, loaded back


def test_a_new_run_into_the_same_folder_leaves_no_checkpoint_of_the_old_timeline(tmp_path):
    out = tmp_path / "copy"
    (out / "timeline").mkdir(parents=True)
    (out / "timeline" / "step_000003.safetensors").write_bytes(b"from an earlier run")
    assert main(["--preset", "copy", "--steps", "2", "--timeline", "0,1", "--out", str(out)], stream=io.StringIO()) == 0
    assert sorted(p.name for p in (out / "timeline").iterdir()) == ["step_000000.safetensors", "step_000002.safetensors"]


def test_timeline_fractions_are_checked():
    assert fractions("1, 0,0.05") == [0.0, 0.05, 1.0]
    assert timeline_steps([0.0, 0.01, 0.05, 1.0], 50) == [0, 2, 50]         # 0.5 and 2.5 round to 0 and 2
    for bad in ("a,b", "0,1.5", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="e.g. 0,0.01"):
            fractions(bad)
    with pytest.raises(SystemExit):
        main(["--preset", "copy", "--timeline", "0,2", "--out", "unused"], stream=io.StringIO())


def test_repeated_sequence_scores_find_a_hand_made_induction_head():
    config = ModelConfig(arch="decoder_only", vocab_size=20, d_model=16, n_heads=2, n_decoder_layers=2, d_ff=32,
                         max_len=64, positional="learned")
    torch.manual_seed(0)
    scores = repeated_sequence_scores(build_model(config).eval(), config.vocab_size, length=12)
    assert set(scores) == {"previous_token", "induction"}
    assert scores["induction"].shape == (2, 2) and np.all((0 <= scores["induction"]) & (scores["induction"] <= 1))
    assert scores["induction"].max() < 0.5                                   # random weights: no induction head


def test_dates_are_also_measured_on_each_format_kept_out_of_training():
    trainer = PRESETS["dates"].trainer(max_steps=1, val_size=8, batch_size=8)
    shares = held_out_formats_exact_match(trainer.objective, trainer.model, {}, seed=0, n=6)
    assert list(shares) == list(HELD_OUT_FORMATS)
    assert set(shares.values()) == {0.0}                                     # an untrained model gets none right
    pairs = held_out_format_pairs("dd-mm-yyyy", {}, 6, seed=0)
    assert len({source for source, _ in pairs}) == 6
    assert all(re.fullmatch(r"\d\d-\d\d-\d{4}", source) and target == f"{source[6:]}-{source[3:5]}-{source[:2]}"
               for source, target in pairs)


def test_recard_rewrites_the_held_out_formats_of_a_dates_checkpoint_and_records_its_command(tmp_path):
    out = tmp_path / "dates"
    assert main(["--preset", "dates", "--steps", "2", "--out", str(out)], stream=io.StringIO()) == 0
    before = load(out)
    assert main(["--recard", str(out)], stream=io.StringIO()) == 0
    after, meta = load(out), load_metadata(out)
    assert set(meta["held_out_formats"]) == set(HELD_OUT_FORMATS)
    assert f"Measured on the stored weights by `python -m playground.train --recard {out}`" in after.card
    assert after.card.count("## Date formats never seen in training") == 1
    assert after.card.split("## Date formats")[0] == before.card.split("## Date formats")[0]   # the rest is kept
    for name, share in meta["held_out_formats"].items():
        assert f"| {name} | " in after.card and f" | {share:.2%} |" in after.card
    assert all(torch.equal(a, b) for a, b in zip(before.model.state_dict().values(), after.model.state_dict().values()))
    with pytest.raises(SystemExit):
        main(["--recard", str(out), "--preset", "dates"], stream=io.StringIO())
