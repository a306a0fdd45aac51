"""A lab's explanation says what to look at; what a run showed is in its findings, filled in from that
run: every variant against the reference, and the letter-frequency loss of the text actually read."""
import dataclasses
import math
import re
from collections import Counter

import pytest

from playground.data import load_corpus
from playground.labs import comparisons, get_lab, list_labs
from playground.labs import lab as lab_module

from .helpers import tiny_result, without_tiny_shakespeare

# Words that report how a run went: an explanation may say what to compare, never how it came out.
OUTCOME_WORDS = {
    "en": re.compile(r"in these runs|in this run|these presets|\bsolves\b|\bstalls?\b|\bcollapses\b|gets there|"
                     r"got there|far earlier|stays? (?:stuck|behind|far)|about 3\.\d|\b3\.[35]\b|more slowly here|"
                     r"gets them all|its gap stays"),
    "zh-CN": re.compile(r"这些运行|停滞|坍缩成|学会了反转|约 3\.\d|3\.3|差距也更小|全部正确|早得多"),
}


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
@pytest.mark.parametrize("lab", list_labs(), ids=lambda lab: lab.id)
def test_no_lab_explanation_states_how_a_run_came_out(lab, lang):
    assert OUTCOME_WORDS[lang].findall(lab.explanation.get(lang)) == []


def test_every_lab_that_compares_losses_has_findings_from_the_run():
    without = [lab.id for lab in list_labs() if lab.findings is None]
    assert without == ["characters-vs-bpe"]          # its per-character check is the comparison


def test_the_letter_frequency_loss_is_the_entropy_of_the_text_read(monkeypatch):
    comparisons.letter_frequency_loss.cache_clear()
    counts = Counter(load_corpus("bundled"))
    total = sum(counts.values())
    by_hand = -sum(c / total * math.log2(c / total) for c in counts.values()) * math.log(2)
    without_tiny_shakespeare(monkeypatch)
    try:
        loss, name = comparisons.letter_frequency_loss("tiny_shakespeare")
        assert name == "bundled" and loss == pytest.approx(by_hand) and loss == pytest.approx(3.03, abs=0.01)
    finally:
        lab_module.corpus_text.cache_clear()
        comparisons.letter_frequency_loss.cache_clear()


@pytest.mark.parametrize("lab_id", ["missing-residual", "attention-scale"])
def test_the_findings_follow_the_run_in_both_languages(lab_id):
    result = tiny_result(lab_id)
    claims = [claim for finding in result.findings for claim in finding.claims]
    assert result.findings and claims and [str(c) for c in claims if not c.holds] == []
    reference, variant = result.variants[0], result.variants[1]
    val = [v for v in variant.history["val_loss"] if v is not None][-1]
    first = result.findings[0].text
    assert f"{val:.3f}" in first.en and f"{val:.3f}" in first.zh and variant.name.zh in first.zh
    if get_lab(lab_id).data.corpus is not None:
        unigram, name = comparisons.letter_frequency_loss(get_lab(lab_id).data.corpus)
        assert f"{unigram:.2f}" in result.findings[-1].text.en and name in result.findings[-1].text.zh


def test_a_finding_that_disagrees_with_its_run_is_caught():
    """The sentence reads the curve; its claim checks it against the final metrics: a curve that ends
    above the reference while the metrics say below is a failed claim."""
    result = tiny_result("attention-scale")
    reference, variant = result.variants[0], result.variants[1]
    variant.history["val_loss"][-1] = reference.history["val_loss"][-1] * 3
    variant.final["val_loss"] = reference.final["val_loss"] / 2
    stated = get_lab("attention-scale").findings(result)[0].claims[0]
    assert stated.stated == "above" and stated.measured == "below" and not stated.holds


def _with_exact_match(result, values: dict):
    """`result` with its length checks' values replaced: values[length] = {variant: share}."""
    checks = tuple(dataclasses.replace(c, values=values[int(c.id.rsplit("_", 1)[1])])
                   if c.id.startswith("exact_match_length_") else c for c in result.checks)
    return dataclasses.replace(result, checks=checks)


def test_the_length_labs_last_sentence_follows_its_result():
    lab = get_lab("length-generalisation")
    result = tiny_result("length-generalisation", steps=4, rounds=1)
    none = {n: {"sinusoidal": 0.5, "learned": 0.0, "rope": 0.98 if n == 10 else 0.0} for n in (10, 12, 14, 16)}
    closing = lab.findings(_with_exact_match(result, none))[-1]
    assert "No encoding reached 99%" in closing.text.en and "没有哪种编码" in closing.text.zh
    stops = {n: {"sinusoidal": 1.0 if n == 10 else 0.1, "learned": 0.0, "rope": 0.0} for n in (10, 12, 14, 16)}
    closing = lab.findings(_with_exact_match(result, stops))[-1]
    assert "copied 10% of 16-letter sources" in closing.text.en and "carried over to 12 to 16 letters: none" in closing.text.en
    carries = {n: {"sinusoidal": 1.0, "learned": 0.0, "rope": 0.0} for n in (10, 12, 14, 16)}
    closing = lab.findings(_with_exact_match(result, carries))[-1]
    assert closing.text.en.endswith("letters: sinusoidal.") and "formula" not in closing.text.en
    assert all(claim.holds for claim in closing.claims)
