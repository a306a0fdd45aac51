"""Lesson 16, from the 2017 Transformer to today's LLMs: its views measure what its text says (the
parameters of the published shapes, what RMSNorm drops, the gate, rotary against learned positions,
the KV cache counted from the caches, Chinese through two byte-level BPEs), and its claims catch a
figure that says otherwise."""
import dataclasses

import numpy as np
import pytest

from playground.analysis.cost import kv_cache_per_token
from playground.data import load_corpus
from playground.model import gpt2_small_config
from playground.ui.course import LESSONS
from playground.ui.views.architecture import LLM_PRESETS
from playground.ui.tabs.lessons import llm_lesson
from playground.ui.tabs.lessons.claims import CLAIMS, lesson_claims
from playground.ui.tabs.lessons.views import VIEWS


@pytest.fixture
def registry(shipped_views):
    return shipped_views


def test_the_lesson_closes_the_course_with_its_views_and_claims():
    lesson = LESSONS[-1]
    assert lesson.id == "llms" and lesson.title("zh-CN").startswith("16 ·")
    for key in (*lesson.views, lesson.experiment.view):
        assert key in VIEWS and key in CLAIMS


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_claim_holds_and_the_figures_name_their_stand_ins(registry, lang):
    claims = lesson_claims(registry, LESSONS[-1], lang)
    assert len(claims) >= 20 and [str(c) for c in claims if not c.holds] == []
    rotary = VIEWS["llm_rotary"](registry, lang)
    assert llm_lesson.STAND_IN in rotary.note and "shakespeare-char" in rotary.note


@pytest.mark.parametrize("config", [gpt2_small_config(), LLM_PRESETS["Qwen2.5-0.5B"], LLM_PRESETS["qwen2-style-small"]],
                         ids=["gpt2", "qwen2.5", "stand-in"])
def test_the_measured_cache_is_two_vectors_of_the_key_value_width_per_layer(config):
    for device in ("meta", "cpu") if config.d_model <= 256 else ("meta",):
        assert llm_lesson.measured_cache_bytes(config, device) == kv_cache_per_token(config)
    full = llm_lesson.measured_cache_bytes(config.replace(n_kv_heads=None), "meta")
    assert full / llm_lesson.measured_cache_bytes(config, "meta") == config.n_heads / config.kv_heads


def test_the_chinese_line_is_held_out_from_the_poems_both_bpes_and_the_model_read(registry):
    shown = VIEWS["llm_chinese"](registry, "en")
    poems = load_corpus("tang_poems")
    line = next(part for part in shown.note.split("“")[1:2]).split("”")[0]
    assert line and line in poems[int(len(poems) * 0.9):] and line not in poems[:int(len(poems) * 0.9)]
    assert shown.facts["english"]["per_char"] > 2 * shown.facts["chinese"]["per_char"]


@pytest.mark.parametrize("key, trace", [("llm_rotary", 1), ("llm_norms", 1), ("llm_kv_cache", 0)])
def test_a_figure_that_contradicts_the_text_fails_its_claims(registry, key, trace):
    shown = VIEWS[key](registry, "en")
    figure = shown.figures[0]
    values = np.asarray(figure.data[trace].y, dtype=float)
    figure.data[trace].y = values + np.linspace(0.0, 1.0, len(values)) * (1 + np.abs(values).max())
    assert any(not claim.holds for claim in CLAIMS[key](dataclasses.replace(shown, figures=[figure]), "en"))


def test_every_formula_of_the_lesson_is_one_the_app_typesets():
    from playground.bench.lessons import texts_of
    from playground.ui.text.math import with_mathml

    for text in texts_of(LESSONS[-1]):
        for value in (text.en, text.zh):
            with_mathml(value)                                   # raises on a command the app cannot typeset
