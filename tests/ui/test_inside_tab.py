import html
import random

import gradio as gr
import numpy as np
import pytest

from playground.ui.page.forms import decode_query, encode_query
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.inside import InsideForm, handlers

LETTERS = "abcdefghij "


@pytest.fixture
def workspace(registry):
    return Workspace("inside", registry)


def random_inside_form(rng):
    def letters(n):
        return "".join(rng.choice("abc &=?_中") for _ in range(n))
    return InsideForm(
        emb_model=rng.choice(["copy", "tiny-gpt"]), emb_token=letters(rng.randint(0, 40)),
        worked_model=rng.choice(["copy", "tiny-bert"]), worked_text=letters(rng.randint(0, 200)),
        worked_site=rng.choice(["encoder", "decoder", "cross"]), worked_layer=rng.randint(0, 47),
        worked_head=rng.randint(0, 63), mask_model="tiny-gpt", mask_first=letters(rng.randint(0, 30)),
        mask_second=letters(rng.randint(0, 30)), norm_model=rng.choice(["copy", "tiny-bert"]),
        norm_text=letters(rng.randint(0, 200)), norm_layer=rng.randint(0, 47), norm_position=rng.randint(0, 200),
        fill_model="tiny-bert", fill_text=letters(rng.randint(0, 200)))


def test_random_inside_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(19)
    for _ in range(200):
        form = random_inside_form(rng)
        back, ignored = InsideForm.from_query(dict(decode_query("?" + encode_query(form.to_query()))))
        assert (back, ignored) == (form, [])


@pytest.mark.parametrize("name, raw, fragment", [
    ("worked_site", "sideways", "encoder, decoder, cross"),
    ("worked_layer", "1.5", "whole number"),
    ("worked_head", "-1", "0"),
    ("norm_position", "201", "200"),
    ("emb_token", "x" * 41, "40"),
])
def test_a_bad_inside_link_value_keeps_its_default_and_is_named(name, raw, fragment):
    form, ignored = InsideForm.from_query({name: raw})
    assert getattr(form, name) == InsideForm.params()[name].default
    assert [error.param for error in ignored] == [name] and fragment in str(ignored[0])


def test_a_link_fits_the_worked_site_and_layers_to_the_models(registry):
    form, _ = InsideForm.from_query({"worked_model": "tiny-bert", "worked_site": "cross", "worked_layer": "3",
                                     "norm_model": "copy", "norm_layer": "1"})
    fitted, refused = form.fit(registry, {"worked_model", "worked_site", "worked_layer", "norm_model", "norm_layer"})
    assert (fitted.worked_site, fitted.worked_layer, fitted.norm_layer) == ("encoder", 0, 0)   # copy: 1 encoder layer
    assert [error.param for error in refused] == ["worked_site", "worked_layer", "norm_layer"]


def good_form():
    return InsideForm(emb_model="tiny-gpt", emb_token="a", worked_model="copy", worked_text="abcd",
                      worked_site="cross", worked_layer=1, worked_head=1, mask_model="copy", mask_first="abcdefg",
                      mask_second="abc", norm_model="tiny-gpt", norm_text="abc ab", norm_layer=1, norm_position=2,
                      fill_model="tiny-bert", fill_text="ab_d_f")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_section_draws_on_shipped_models(workspace, lang):
    drawn = handlers.draw(workspace, good_form(), lang)
    assert set(handlers.EVERYTHING) <= set(drawn)
    for name in ("emb_neighbours", "emb_map", "worked_vectors", "worked_steps", "mask_padding", "norm_vector",
                 "norm_batch", "norm_residual", "fill_plot"):
        figure = drawn[name]
        assert figure.data, name                                              # a drawing, not a notice
    assert len(drawn["emb_neighbours"].data[0].x) == 10                       # ten neighbours
    shown_sites = [drawn[name].constructor_args["visible"] for name in handlers.MASK_SITES]
    assert shown_sites == [True, True, True]                                  # copy: encoder, decoder, cross
    site = drawn["worked_site"].constructor_args
    assert [value for _, value in site["choices"]] == ["encoder", "decoder", "cross"] and site["value"] == "cross"
    assert drawn["worked_layer"].constructor_args["maximum"] == 1             # copy: two decoder layers
    assert ("Checked against the model" if lang == "en" else "") in drawn["worked_note"]
    assert drawn["fill_note"] and drawn["norm_note"].count("|") > 10          # the table of LayerNorm steps


def test_a_decoder_only_model_has_one_mask_site_and_the_others_hide(workspace):
    shown = handlers.masks(workspace, InsideForm(mask_model="tiny-gpt", mask_first="abcdef", mask_second="ab"), "en")
    assert [shown[name].constructor_args["visible"] for name in handlers.MASK_SITES] == [True, False, False]
    z = np.asarray(shown["mask_site_0"].constructor_args["value"].data[0].z, dtype=float)
    assert z.shape[-1] == 6                                                   # keys: the longer input's length


@pytest.mark.parametrize("lang, refused, fragment", [
    ("en", {"emb_token": "abc"}, "not one token"),
    ("zh-CN", {"emb_model": "nobody"}, "nobody"),
    ("en", {"worked_text": "xyz!"}, "!"),
    ("zh-CN", {"worked_text": "ab!"}, "!"),
    ("en", {"mask_second": "abcdefg"}, "7"),
    ("zh-CN", {"norm_position": 50}, "50"),
    ("en", {"fill_model": "tiny-gpt"}, "tiny-gpt"),
    ("zh-CN", {"fill_text": "abc"}, "_"),
])
def test_a_refused_section_shows_why_and_the_others_still_draw(workspace, lang, refused, fragment):
    form = InsideForm(**{**good_form().__dict__, **refused})
    drawn = handlers.draw(workspace, form, lang)
    notes = [value for name, value in drawn.items() if isinstance(value, str) and fragment in value]
    assert notes, drawn
    reasons = [name for name in handlers.EVERYTHING if hasattr(drawn[name], "layout")
               and drawn[name].layout.annotations and fragment in html.unescape(drawn[name].layout.annotations[0].text)]
    assert len(reasons) >= 1
    section = {"emb": handlers.EMBEDDINGS, "wor": handlers.WORKED, "mas": handlers.MASKS, "nor": handlers.NORMS,
               "fil": handlers.FILL}[next(iter(refused))[:3]]
    assert set(reasons) <= set(section)                                       # only that section is replaced
    others = [name for name in ("emb_map", "worked_steps", "mask_padding", "norm_residual", "fill_plot")
              if name not in section]
    assert all(drawn[name].data for name in others)


def test_a_section_handler_refuses_bad_input_with_a_gr_error(workspace):
    with pytest.raises(gr.Error) as excinfo:
        handlers.fill(workspace, InsideForm(fill_model="tiny-bert", fill_text="no blank here"), "en")
    assert "no blank" in excinfo.value.message
    with pytest.raises(gr.Error) as excinfo:
        handlers.worked(workspace, InsideForm(worked_model="copy", worked_site="encoder", worked_layer=1), "zh-CN")
    assert "1" in excinfo.value.message                                       # copy has one encoder layer
    shown = handlers.worked_refused(workspace, InsideForm(worked_model="copy", worked_site="encoder",
                                                          worked_layer=1), "en")
    assert shown["worked_vectors"].data == () and "0" in shown["worked_vectors"].layout.annotations[0].text


def test_a_new_model_brings_its_own_examples_and_ranges(workspace):
    changed = handlers.change_worked_model(workspace, InsideForm(worked_model="tiny-bert", worked_text="abc",
                                                                 worked_site="cross", worked_head=3), "en")
    assert changed["worked_site"].constructor_args["value"] == "encoder"
    assert changed["worked_head"].constructor_args["maximum"] == 3            # tiny-bert: four heads
    assert changed["worked_vectors"].data
    masks = handlers.change_mask_model(workspace, InsideForm(mask_model="copy", mask_first="zz"), "en")
    assert (masks["mask_first"], masks["mask_second"]) == ("abcdefghij", "abcd")


def test_the_chinese_interface_shows_the_chinese_model_in_the_language_model_sections(shipped, registry):
    workspace = Workspace("inside", shipped)
    assert handlers.initial_form(workspace) is None                          # no language yet: the layout's form
    workspace.language = "zh-CN"
    form = handlers.initial_form(workspace)
    assert (form.emb_model, form.emb_token, form.norm_model, form.norm_text) == (
        "tang-poems-char", "春", "tang-poems-char", "春眠不觉晓")
    layout = InsideForm()
    assert (form.worked_model, form.mask_model, form.fill_model) == (layout.worked_model, layout.mask_model,
                                                                      layout.fill_model)   # the task models stay
    drawn = handlers.draw(workspace, form, "zh-CN")
    neighbours = [label.split(": ")[1].strip() for label in drawn["emb_neighbours"].data[0].y]
    assert "春" not in neighbours and all("\u4e00" <= ch <= "\u9fff" for ch in neighbours)   # other characters
    assert "**春**" in drawn["emb_note"] and "词元 春" in drawn["norm_note"]
    elsewhere = Workspace("tiny", registry)
    elsewhere.language = "zh-CN"
    assert handlers.initial_form(elsewhere) is None                          # not shipped here
