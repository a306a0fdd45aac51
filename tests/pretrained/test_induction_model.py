"""pretrained/induction: its card's numbers reproduce, its timeline crosses the phase change, and the
naming rule calls its layer-1 heads induction heads and no head of shakespeare-char one.

Tolerances: the card is measured on the stored float16 weights, so a re-measurement differs only by
float rounding across thread counts; scores are compared within 0.005 and losses within 0.01 nats.
"""
import pytest
import torch

from playground.analysis.induction import induction_verdict
from playground.train import PRESETS, TrainConfig
from playground.train.card import LONGER_PERIODS, SHORTER_PERIODS, repeat_report, verdict_summary
from playground.ui.views.induction import induction_text
from playground.zoo import ModelRegistry

SCORE_TOLERANCE = 0.005
LOSS_TOLERANCE = 0.01
REPLAYED_STEPS = 10


def test_re_running_the_first_steps_of_the_preset_gives_the_losses_its_card_records(checkpoints):
    checkpoint, meta = checkpoints["induction"]
    recorded = meta["first_step_losses"][:REPLAYED_STEPS]
    assert len(recorded) == REPLAYED_STEPS
    threads = torch.get_num_threads()
    torch.set_num_threads(meta["threads"])
    try:
        trainer = PRESETS["induction"].trainer()
        assert trainer.model_config == checkpoint.config
        assert trainer.config == TrainConfig.from_dict(meta["train_config"])
        losses = [trainer.train_step() for _ in range(REPLAYED_STEPS)]
    finally:
        torch.set_num_threads(threads)
    assert losses == pytest.approx(recorded, abs=1e-5)


def test_the_cards_induction_numbers_reproduce_from_the_shipped_weights(checkpoints):
    checkpoint, meta = checkpoints["induction"]
    measured = repeat_report(checkpoint.model, checkpoint.tokenizer, PRESETS["induction"].repeats["block_size"])
    assert len(measured) == len(meta["repeat_report"]) == 15
    for row, card_row in zip(measured, meta["repeat_report"]):
        assert (row["source"], row["period"], row["layer"], row["head"]) == \
               (card_row["source"], card_row["period"], card_row["layer"], card_row["head"])
        assert row["induction"] == pytest.approx(card_row["induction"], abs=SCORE_TOLERANCE)
        for loss in ("first_copy_loss", "second_copy_loss"):
            assert row[loss] == pytest.approx(card_row[loss], abs=LOSS_TOLERANCE)
        assert f"| {row['source']} | {row['period']} |" in checkpoint.card
    verdict = verdict_summary(checkpoint.model)
    assert verdict["heads"] == meta["induction_verdict"]["heads"]
    assert verdict["best_score"] == pytest.approx(meta["induction_verdict"]["best_score"], abs=SCORE_TOLERANCE)


def test_the_induction_head_works_on_periods_and_text_it_never_trained_on(checkpoints):
    _, meta = checkpoints["induction"]
    unseen = [row for row in meta["repeat_report"] if row["period"] in (*SHORTER_PERIODS, *LONGER_PERIODS)]
    assert len(unseen) == 12
    for row in unseen:
        assert row["induction"] >= 0.5, row                                   # far above chance (by chance <= 0.26)
        assert row["second_copy_loss"] < 0.6 * row["first_copy_loss"], row


def test_the_naming_rule_accepts_the_induction_models_layer_1_heads_and_refuses_shakespeare_char(checkpoints):
    induction = induction_verdict(checkpoints["induction"][0].model)
    assert induction.heads == [(1, 0), (1, 1)] and induction.reason == "named"
    char = induction_verdict(checkpoints["shakespeare-char"][0].model)
    assert char.heads == [] and char.reason == "low_score"
    assert char.best_score < 0.1


def test_the_timeline_has_most_of_its_checkpoints_inside_the_phase_change(checkpoints):
    _, meta = checkpoints["induction"]
    timeline = meta["timeline"]
    assert len(timeline) >= 8 and timeline[0]["step"] == 0 and timeline[-1]["step"] == meta["steps"]
    first, last = timeline[0]["val_loss"], timeline[-1]["val_loss"]
    margin = 0.1 * (first - last)
    inside = [t["step"] for t in timeline if last + margin < t["val_loss"] < first - margin]
    assert len(inside) > len(timeline) / 2, inside
    registry = ModelRegistry()
    final = registry.get("induction")
    assert induction_verdict(registry.timeline_entry("induction", 0).model).heads == []
    assert induction_verdict(final.model).heads == [(1, 0), (1, 1)]


def test_the_attention_tab_names_induction_heads_only_where_the_rule_does():
    registry = ModelRegistry()
    named = induction_text(registry.get("induction"), "en")
    assert named.startswith("**Induction heads:** L1 H0 (0.8") and "L1 H1" in named
    for name in ("shakespeare-char", "shakespeare-bpe"):
        refused = induction_text(registry.get(name), "en")
        assert refused.startswith("**No induction head.**") and "not trained long enough" in refused
    assert "只有仅解码器" in induction_text(registry.get("copy"), "zh-CN")
