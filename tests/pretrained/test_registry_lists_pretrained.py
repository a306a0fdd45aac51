"""The app offers exactly the shipped models, the timelines the Attention tab scrubs through, and
each model's held-out loss and perplexity as its card reports them."""
import math
import re

import pytest

from playground.checkpoint import load_metadata
from playground.zoo import ModelRegistry
from playground.ui.tabs.attention import attention_views, kinds_of

from .conftest import PRETRAINED, SHIPPED

TIMELINE_MODELS = ("copy", "shakespeare-char")


def test_the_apps_pretrained_list_equals_the_folders_present():
    registry = ModelRegistry()
    assert registry.problems == []
    pretrained = [e.name for e in registry.entries() if e.source == "pretrained"]
    assert pretrained == SHIPPED


def test_copy_and_shakespeare_char_have_a_timeline_from_initialisation_to_the_end():
    registry = ModelRegistry()
    for name in TIMELINE_MODELS:
        steps = registry.timeline_steps(name)
        meta = load_metadata(PRETRAINED / name)
        assert len(steps) >= 5 and steps[0] == 0 and steps[-1] == meta["steps"], name
        assert [t["step"] for t in meta["timeline"]] == steps
        first = registry.timeline_entry(name, 0)
        assert first is registry.timeline_entry(name, 0)                   # loaded once, shared
        assert first.config == registry.get(name).config
        assert not any(p.requires_grad for p in first.model.parameters())


def card_validation_loss(card: str) -> float:
    """The validation loss the card's held-out results report (4 decimals)."""
    held_out = card[card.index("## Held-out results"):]
    return float(re.search(r"- validation loss: ([0-9.]+)", held_out).group(1))


def shown_loss_and_perplexity(summary: str) -> tuple[float, float]:
    numbers = re.findall(r"\*\*([0-9.]+)\*\*", summary.split("\n\n")[-1])
    return float(numbers[0]), float(numbers[1])


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_attention_summary_shows_each_shipped_models_card_loss_and_its_exponential(lang):
    registry = ModelRegistry()
    for name in SHIPPED:
        entry = registry.get(name)
        card_loss = card_validation_loss((PRETRAINED / name / "card.md").read_text(encoding="utf-8"))
        assert entry.held_out_loss == load_metadata(PRETRAINED / name)["val_loss"]
        assert abs(entry.held_out_loss - card_loss) <= 5e-5, name
        loss, ppl = shown_loss_and_perplexity(attention_summary(entry, lang))
        assert loss == pytest.approx(card_loss, abs=1e-4), name
        assert f"{ppl:.3f}" == f"{math.exp(entry.held_out_loss):.3f}", name
        # the card's loss is rounded to 4 decimals (exp moves by up to e^loss x 5e-5), the perplexity shown to 3
        assert abs(ppl - math.exp(card_loss)) <= math.exp(card_loss) * 5e-5 + 5e-4, name


def test_a_timeline_step_shows_the_loss_the_card_records_for_that_step():
    registry = ModelRegistry()
    for name in TIMELINE_MODELS:
        for row in load_metadata(PRETRAINED / name)["timeline"][:-1]:
            entry = registry.timeline_entry(name, row["step"])
            assert entry.held_out_loss == row["val_loss"]
            assert shown_loss_and_perplexity(attention_summary(entry, "en"))[1] == pytest.approx(
                math.exp(row["val_loss"]), abs=5e-4)


def attention_summary(entry, lang: str) -> str:
    example = ("abc" if entry.name in ("copy", "reverse", "sort") else "12/03/2021" if entry.name == "dates"
               else "春风" if entry.name == "tang-poems-char" else "to be")
    return attention_views(entry, example, "", kinds_of(entry)[-1], 0, 0, False, "first_token", lang).summary
