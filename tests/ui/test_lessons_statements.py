"""Statements the lessons make about how things behave, checked against the app's own computation:
the comparison of exact match and BLEU in lesson 12's check, lesson 13's check on the missing
1/sqrt(d_k) at initialisation, and lesson 7's note on where the gradient goes."""
import pytest

from playground.labs import get_lab
from playground.train.metrics import bleu
from playground.ui.course import LESSONS
from playground.ui.text.i18n import text

from ..labs.helpers import prepared

BY_ID = {lesson.id: lesson for lesson in LESSONS}


def feedback(lesson_id: str, answer_starts: str, lang: str = "en") -> str:
    choice = next(c for c in BY_ID[lesson_id].check.choices if c.text.en.startswith(answer_starts))
    return choice.feedback.get(lang)


def test_exact_match_does_not_bound_corpus_bleu_from_below():
    """Half the outputs exact and half empty: 50% exact match, corpus BLEU about 37 (the brevity penalty)."""
    references = ["abcdefgh", "hgfedcba", "aabbccdd", "dcbadcba"]
    outputs = [references[0], references[1], "", ""]
    score = bleu(outputs, references)
    assert score == pytest.approx(36.8, abs=0.5) and score < 50
    assert "37" in feedback("measuring", "No: exact match must be higher")
    assert "37" in feedback("measuring", "No: exact match must be higher", "zh-CN")


def test_unscaled_attention_starts_near_uniform_with_the_apps_initialisation():
    """Lesson 13's check says the saturation comes with training, not at initialisation: the attention-
    scale lab's unscaled model, untrained, spreads its attention almost evenly."""
    run = prepared(get_lab("attention-scale"))
    entropy = next(check for check in get_lab("attention-scale").checks if check.stage == "start")
    values = entropy.measure(run.trainers).values
    assert values["unscaled"] > 0.9 and values["reference"] > values["unscaled"]
    assert "one-hot at initialisation" not in BY_ID["bugs"].check.prompt.en
    assert "near uniform" in BY_ID["bugs"].check.choices[0].feedback.en


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_gradient_note_gives_post_norm_no_identity_path(lang):
    note = text(lang, "lesson_gradients_note", pre_low=1, pre_high=1, post_low=1, post_high=1, pre_spread=1,
                post_spread=1, none_low=1, none_high=1, none_spread=1, factor=1, depth=8)
    assert "unchanged" not in note and "原样" not in note
    assert ("Jacobian" in note) if lang == "en" else ("雅可比" in note)
