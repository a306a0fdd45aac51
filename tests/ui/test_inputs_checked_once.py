"""Inputs checked once, at the form: the Train form is the recipe's input and one estimate checks it
once; the Generate form yields the library's SamplingConfig; the library's keyed refusals are said in
the session's language by one mapping; the page, its forms and the library share one checker."""
from dataclasses import fields

import gradio as gr
import pytest

from playground.checks import InputError, check_number
from playground.generate import SamplingConfig
from playground.train import recipes
from playground.train.recipes import Recipe
from playground.ui.inputs import validation
from playground.ui.inputs.validation import refusal_text, refused
from playground.ui.page.forms import Integer, Refused
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate.handlers import prepared
from playground.ui.tabs.train import TrainForm
from playground.ui.tabs.train.handlers import on_estimate


def test_the_train_form_is_the_recipes_input_field_for_field():
    params = TrainForm.params()
    assert list(params) == [f.name for f in fields(Recipe)]
    for f in fields(Recipe):
        rule, param = f.metadata["rule"], params[f.name]
        assert param.default == f.default
        assert (getattr(param, "low", None), getattr(param, "high", None)) == \
            (getattr(rule, "low", None), getattr(rule, "high", None))
    form = TrainForm(task="char-lm", data="pasted", pasted="abc", layers=3)
    assert form.recipe() == Recipe(task="char-lm", data="pasted", pasted="abc", layers=3)
    assert type(form.recipe()) is Recipe


def test_one_estimate_checks_the_recipe_once(monkeypatch):
    calls = []
    check_spec = recipes.check_spec

    def counted(*args, **kwargs):
        calls.append(args)
        return check_spec(*args, **kwargs)

    monkeypatch.setattr(recipes, "check_spec", counted)
    updates = on_estimate(Workspace("s"), TrainForm(), "en")
    assert "parameters" in updates["estimate"] and len(calls) == 1


@pytest.mark.parametrize("lang, words", [("en", "multiple of the number of heads"), ("zh-CN", "倍数")])
def test_a_library_refusal_is_said_in_the_sessions_language_naming_the_control(lang, words):
    with pytest.raises(InputError) as library:
        recipes.check_spec(Recipe(d_model=30, n_heads=4))
    error = refused(library.value, lang)
    assert isinstance(error, gr.Error) and words in error.message
    assert error.message == refusal_text(library.value, lang)
    with pytest.raises(gr.Error) as page:
        TrainForm(d_model=30, n_heads=4).spec(lang)
    assert page.value.message == error.message


def test_a_refusal_about_the_whole_recipe_needs_no_control_name():
    error = InputError("too big", "err_train_too_large", params="3,000,000", limit="2,000,000")
    assert "3,000,000" in refused(error, "zh-CN").message


@pytest.mark.parametrize("value", [7, 2.5, "3", True])
def test_the_page_the_form_and_the_library_refuse_a_number_alike(value):
    with pytest.raises(InputError) as library:
        check_number(value, "layer", 0, 6, integer=True)
    with pytest.raises(Refused) as form:
        Integer(0, 0, 6).check("layer", value)
    with pytest.raises(gr.Error) as page:
        validation.check_number(value, "zh-CN", "layer", 0, 6, integer=True)
    assert (form.value.key, form.value.values) == (library.value.key, library.value.values)
    assert page.value.message == refusal_text(library.value, "zh-CN") == refusal_text(form.value, "zh-CN")


@pytest.mark.parametrize("changes, expected", [
    ({}, SamplingConfig(max_new_tokens=40, beam_width=3)),
    (dict(strategy="sample", temperature=0.5, top_k=5, top_p=0.9, seed=7),
     SamplingConfig("sample", 0.5, 5, 0.9, 7, beam_width=3, max_new_tokens=40)),
    (dict(strategy="beam", beam_width=2, max_new=12), SamplingConfig("beam", beam_width=2, max_new_tokens=12)),
])
def test_the_generate_form_yields_the_librarys_sampling_config(registry, changes, expected):
    form = GenerateForm.from_values({"model": "tiny-gpt", "prompt": "abc", **changes})
    entry, prompt, settings = prepared(Workspace("s", registry), form, "en")
    assert settings == expected and form.sampling(entry.tokenizer.vocab_size, "en") == expected


@pytest.mark.parametrize("lang, words", [("en", "Top-k"), ("zh-CN", "Top-k")])
def test_a_top_k_beyond_the_models_vocabulary_is_refused_at_the_form(lang, words):
    with pytest.raises(gr.Error) as page:
        GenerateForm(top_k=60).sampling(50, lang)
    assert words in page.value.message and "50" in page.value.message
