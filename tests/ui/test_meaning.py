"""What a headline number means: a card's held-out results read in either way a card writes BLEU,
a loss beside ln V and the unigram baseline, exact match beside BLEU, in both languages."""
import math

import pytest

from playground.ui.views.meaning import card_number, entry_loss_meaning, exact_and_bleu, loss_meaning, unigram_of
from playground.zoo import ModelRegistry

CARD = """# reverse

## Held-out results

- validation loss: 0.0012 (perplexity 1.001)
- token accuracy: 99.95%
- exact match of greedy decodes: 98.40%
- BLEU of greedy decodes (sacrebleu, characters, corpus-level): 99.1

## Storage

- validation loss: 0.5000
"""


def test_a_card_s_held_out_numbers_are_read_from_its_held_out_section_only():
    assert card_number(CARD, "validation loss") == 0.0012                   # not the Storage section's
    assert card_number(CARD, "token accuracy") == pytest.approx(0.9995)
    assert card_number(CARD, "exact match") == pytest.approx(0.984)
    assert card_number(CARD, "BLEU") == 99.1
    assert card_number("## Held-out results\n\n- BLEU: 87.5\n", "BLEU") == 87.5
    assert card_number(CARD.replace("- BLEU of greedy decodes (sacrebleu, characters, corpus-level): 99.1\n", ""),
                       "BLEU") is None


def test_a_loss_is_said_beside_its_baselines_and_its_perplexity():
    text = loss_meaning(math.log(4.5), 70, 3.31, "en")
    assert "ln 70 = 4.25" in text and "3.31" in text and "among 4.5 tokens" in text
    assert "ln 70 = 4.25" in loss_meaning(1.0, 70, None, "zh-CN") and "只知道" not in loss_meaning(1.0, 70, None, "zh-CN")
    assert exact_and_bleu(0.2, 60.0, "en") == ("exact match 20.0% (whole outputs entirely right) beside BLEU 60.0 of "
                                               "100 (shared character n-grams, partial credit)")
    assert exact_and_bleu(None, None, "en") == "" and "完全匹配率 50.0%" in exact_and_bleu(0.5, None, "zh-CN")


def test_a_shipped_model_s_unigram_baseline_is_below_ln_v_and_a_session_model_has_none():
    registry = ModelRegistry()
    copy = registry.get("copy")
    assert 0 < unigram_of(copy) < math.log(copy.config.target_vocab_size)
    assert "For scale" in entry_loss_meaning(copy, 0.5, "en")
    untrained = next(entry for entry in registry.entries() if entry.source == "untrained")
    assert unigram_of(untrained) is None
