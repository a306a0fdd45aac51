"""Forms, links and the Attention tab's handlers, without a browser."""
import html
import json
import random
from dataclasses import replace
from types import SimpleNamespace

import gradio as gr
import numpy as np
import plotly.graph_objects as go
import pytest

from playground.ui.inputs.validation import refusal_text
from playground.ui.page.forms import Refused, decode_query, encode_query
from playground.ui.page.links import PRIVATE_LINK, copy_message, link_query, note_text, parse_link
from playground.ui.page.widgets import FormRadio
from playground.ui.page.wiring import TabWiring, export_config, file_name, value_of, with_export
from playground.zoo import ModelEntry
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm, handlers
from playground.ui.tabs.attention.form import MAX_HEAD, MAX_LAYER
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate import export_name as generate_export_name
from playground.ui.tabs.generate import handlers as generate
from playground.ui.tabs.inside.form import InsideForm
from tests.viz.test_theme import FIGURES as THEME_FIGURES

TABS = ("attention", "generate")
FORMS = {"attention": AttentionForm}
TEXT_CHARS = "abc xyz&=?#%+/\n中文é"


def random_form(rng: random.Random) -> AttentionForm:
    return AttentionForm(
        model=rng.choice(["copy", "tiny-gpt", "tiny-bert"]),
        text="".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, 30))),
        target="".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, 5))),
        kind=rng.choice(["encoder", "decoder", "cross"]),
        layer=rng.randint(0, MAX_LAYER), head=rng.randint(0, MAX_HEAD), mean=rng.random() < 0.5,
        score=rng.choice(["diagonal", "anti_diagonal", "entropy", "induction"]),
        step=rng.choice([None, 0, 400, 10**9]),
        ho_heads=tuple(rng.sample(["cross.1.0", "cross.0.1", "decoder.1.1", "encoder.0.3"], rng.randint(0, 4))),
        ho_how=rng.choice(["zero", "mean"]))


def test_random_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(16)
    for _ in range(200):
        form = random_form(rng)
        query = encode_query(form.to_query())
        back, ignored = AttentionForm.from_query(dict(decode_query("?" + query)))
        assert (back, ignored) == (form, [])


@pytest.mark.parametrize("name, raw, fragment", [
    ("layer", "1.5", "whole number"),
    ("layer", "x", "whole number"),
    ("head", "-1", "between 0 and"),
    ("kind", "sideways", "encoder, decoder, cross"),
    ("mean", "yes", "1 or 0"),
    ("step", "4e2", "whole number"),
    ("ho_heads", "cross.1.0,a b", "list of names"),
    ("ho_how", "half", "zero, mean"),
])
def test_a_bad_value_in_a_link_is_refused_naming_its_parameter(name, raw, fragment):
    form, ignored = AttentionForm.from_query({name: raw})
    assert getattr(form, name) == AttentionForm.params()[name].default
    assert [error.param for error in ignored] == [name]
    assert fragment in str(ignored[0])


@pytest.mark.parametrize("name, value, fragment", [
    ("layer", 0.5, "whole number"),          # no silent rounding of an API call's fraction
    ("head", "1", "whole number"),           # a string of digits is not an integer control's value
    ("layer", True, "whole number"),
    ("text", 5, "must be text"),
    ("text", "x" * 201, "200"),
    ("score", "nope", "diagonal"),
])
def test_control_values_are_checked_once_for_the_ui_and_the_api(name, value, fragment):
    with pytest.raises(Refused) as excinfo:
        AttentionForm.from_values({name: value})
    assert excinfo.value.param == name and fragment in str(excinfo.value)
    assert AttentionForm.from_values({"layer": 2.0}).layer == 2 and isinstance(AttentionForm.from_values({}).layer, int)


def test_a_refusal_is_translated_with_the_parameters_label():
    error = Refused("layer", "err_out_of_range", value=9, low=0, high=1)
    assert refusal_text(error, "en") == "Layer is 9; choose a value between 0 and 1."
    assert "层" in refusal_text(error, "zh-CN") and "9" in refusal_text(error, "zh-CN")


def test_a_link_opens_its_view_with_its_values(registry):
    page = parse_link("?view=attention&model=tiny-gpt&text=abc&kind=decoder&layer=1&head=1&score=induction"
                      "&lang=zh-CN&present=1", TABS, FORMS, registry)
    assert (page.view, page.lang, page.present, page.ignored) == ("attention", "zh-CN", True, [])
    assert page.form == AttentionForm(model="tiny-gpt", text="abc", kind="decoder", layer=1, head=1,
                                      score="induction")


def test_three_bad_parameters_keep_their_defaults_and_are_named_in_the_note(registry):
    page = parse_link("?view=attention&model=secret&layer=7&colour=red&head=1", TABS, FORMS, registry)
    assert sorted(error.param for error in page.ignored) == ["colour", "layer", "model"]
    assert page.form.model == registry.default() and page.form.layer == 0 and page.form.head == 1
    assert page.form.text == "abcdefghij"                       # the model's own first example
    note = note_text(page.ignored, "en")
    assert "- model:" in note and "secret" in note and "- colour:" in note and "- layer:" in note and "7" in note
    assert "没有" in note_text(page.ignored, "zh-CN")


def test_a_kind_or_score_the_model_lacks_falls_back_to_its_own(registry):
    page = parse_link("?view=attention&model=tiny-bert&kind=cross&score=diagonal", TABS, FORMS, registry)
    assert (page.form.kind, page.form.score) == ("encoder", "previous_token")
    assert sorted(error.param for error in page.ignored) == ["kind", "score"]


def test_an_unknown_view_opens_the_first_tab_and_says_so(registry):
    page = parse_link("?view=nowhere&lang=fr", TABS, FORMS, registry)
    assert page.view == "attention" and page.lang is None
    assert sorted(error.param for error in page.ignored) == ["lang", "view"]
    assert parse_link("", TABS, FORMS, registry).ignored == []


def test_a_sessions_own_model_has_no_link(registry):
    shipped = AttentionForm(model="copy", text="abc")
    query = link_query(registry, "attention", shipped, "en")
    assert query.startswith("view=attention&model=copy&text=abc&") and query.endswith("&lang=en")
    assert link_query(registry, "attention", replace(shipped, model="mine-copy"), "en") == PRIVATE_LINK
    assert "private" in copy_message(PRIVATE_LINK, "http://x/?view=attention", "en")
    assert "http://x/?a=1" in html.unescape(copy_message(query, "http://x/?a=1", "en"))


def test_figures_are_exported_at_twice_the_resolution_under_a_telling_name(registry):
    assert file_name("copy", "attention", "cross", "head_plot", "L1", "H2") == "copy-attention-cross-head_plot-L1-H2"
    assert file_name("my model/1", "x") == "my_model_1-x"
    config = export_config("copy-attention")["toImageButtonOptions"]
    assert config == {"format": "png", "filename": "copy-attention", "scale": 2}
    chinese = export_config("copy-attention", "zh-CN")                         # the toolbar in the page's language
    assert chinese["locale"] == "zh-CN" and chinese["locales"]["zh-CN"]["dictionary"]["Zoom in"] == "放大"
    assert "locale" not in export_config("copy-attention", "en")
    views = handlers.show(Workspace("s", registry), AttentionForm(model="copy", text="abc"), "en")
    sent = json.loads(with_export(views["grid"], "copy-attention-grid").plot)
    assert sent["config"]["toImageButtonOptions"] == {"format": "png", "filename": "copy-attention-grid", "scale": 2}


def test_a_figure_sent_with_its_visibility_is_exported_under_its_name_too(registry):
    tab = TabWiring(SimpleNamespace(views={}), GenerateForm, {name: gr.Textbox() for name in GenerateForm.params()},
                    export_name=generate_export_name)
    form = GenerateForm(model="tiny-gpt", prompt="abc")
    drawn = generate.step(Workspace("s", registry), form, "en")
    assert isinstance(drawn["candidates"], gr.Plot)                 # a figure and its visibility
    sent = tab.outgoing(form, drawn, "en", link=False)["candidates"]
    assert sent["__type__"] == "update" and sent["visible"] is True
    config = json.loads(sent["value"].plot)["config"]["toImageButtonOptions"]
    assert config == {"format": "png", "filename": generate_export_name(tab.after(form, drawn), "candidates"), "scale": 2}
    assert config["filename"].startswith("tiny-gpt-generate-") and "step1" in config["filename"]


def test_a_sent_figure_is_plotlys_own_json_of_it(registry):
    """with_export writes the figure's JSON itself, from the dicts it was made of while nothing has
    read it, else from its property tree: either way the same numbers, typed arrays and layout as
    Plotly's own figure.to_json()."""
    views = handlers.show(Workspace("s", registry), AttentionForm(model="copy", text="abcdefg", kind="cross"), "en")
    for name in ("grid", "head_plot", "scores_plot", "shapes"):
        assert views[name].spec is not None, name                     # not built yet
        unbuilt = json.loads(with_export(views[name], "x").plot)
        expected = json.loads(go.Figure.to_json(views[name]))       # Plotly's own writer, which builds it
        built = json.loads(with_export(views[name], "x").plot)
        assert unbuilt.pop("config") == built.pop("config") == export_config("x")
        assert unbuilt == built == expected, name


@pytest.mark.parametrize("name", sorted(THEME_FIGURES))
def test_every_kind_of_figure_is_sent_as_its_own_json(name):
    figure = THEME_FIGURES[name]()
    sent = json.loads(with_export(figure, "x").plot)             # before anything reads it
    sent.pop("config")
    assert sent == json.loads(go.Figure.to_json(figure))


def test_an_update_says_which_value_it_sets():
    assert value_of(3) == (True, 3)
    assert value_of(gr.Slider(maximum=4, value=2)) == (True, 2)
    assert value_of(gr.Radio(choices=["a"])) == (False, None)


def grid_z(figure) -> np.ndarray:
    return np.array([np.asarray(trace.z, dtype=float) for trace in figure.data])


def test_drawing_fits_the_controls_to_the_model(registry):
    workspace = Workspace("s", registry)
    form = AttentionForm(model="tiny-gpt", text="abcab", kind="cross", layer=1, head=1, score="diagonal")
    updates = handlers.draw(workspace, form, "en")
    assert updates["kind"].value == "decoder" and updates["score"].value == "previous_token"   # what the plot shows
    assert "decoder self-attention" in updates["grid"].layout.title.text
    assert updates["layer"].maximum == 1 and updates["target"].visible is False
    assert grid_z(updates["grid"]).shape == (4, 5, 5)


def test_switching_model_loads_its_own_first_example(registry):
    workspace = Workspace("s", registry)
    updates = handlers.change_model(workspace, AttentionForm(model="tiny-gpt", text="abcdefghij", step=400), "en")
    assert updates["text"] == "abcabcabc" and updates["step"] is None
    assert updates["target"].value == "" and updates["target"].visible is False
    assert grid_z(updates["grid"]).shape[1:] == (9, 9)


def test_a_model_the_session_added_is_shown_when_the_tab_is_drawn_again(registry):
    workspace = Workspace("s", registry)
    shown = AttentionForm(model="tiny-gpt", text="abcab", kind="decoder", score="previous_token")
    assert shown.follow(workspace.catalog, workspace.current_model) == (shown, False)    # nothing added
    copy = registry.get("copy")
    workspace.add_model(replace(copy, name="trained-copy", source="session", held_out_loss=0.5))
    followed, replaced = shown.follow(workspace.catalog, workspace.current_model)
    assert followed.model == "trained-copy" and followed.text == "abcab" and not replaced   # it reads the text
    fitted, _ = followed.fit(workspace.catalog, set())
    updates = handlers.draw(workspace, fitted, "en")
    assert updates["summary"].startswith("**trained-copy**")
    assert updates["kind"].value == "decoder" and "decoder self-attention" in updates["grid"].layout.title.text
    assert [value for _, value in updates["kind"].choices] == ["encoder", "decoder", "cross"]
    assert "perplexity e^loss = **1.649**" in updates["summary"]
    unreadable, replaced = replace(shown, text="xyz").follow(workspace.catalog, workspace.current_model)
    assert replaced and unreadable.text == "abcabcabc"           # its own first example, not the form's text
    assert followed.follow(workspace.catalog, workspace.current_model) == (followed, False)   # drawn: stays


def test_inside_says_it_gave_up_an_input_only_when_it_was_the_learners_own(registry):
    workspace = Workspace("s", registry)
    workspace.add_model(replace(registry.get("copy"), name="trained-copy", source="session"))
    followed, replaced = InsideForm().follow(workspace.catalog, workspace.current_model)   # the layout's inputs
    assert followed.norm_model == "trained-copy" and followed.norm_text != InsideForm().norm_text
    assert not replaced
    own = replace(InsideForm(), norm_text="To be, or not?")                # a text the learner typed
    assert own.follow(workspace.catalog, workspace.current_model)[1]


def test_a_kind_and_score_left_from_the_previous_model_reach_the_handlers_which_fit_them(registry):
    """A pick sends two events; the second carries the previous model's kind after the first narrowed the
    radio's choices. The radio passes it on (gr.Radio would refuse it) and the handler shows the model's own."""
    with gr.Blocks():
        kind = FormRadio([("decoder", "decoder")], value="decoder")
    assert kind.get_block_name() == "radio" and kind.preprocess("cross") == "cross"
    updates = handlers.change_model(Workspace("s", registry), AttentionForm(model="tiny-gpt", kind="cross",
                                                                           score="diagonal"), "en")
    assert updates["kind"].value == "decoder" and updates["score"].value == "previous_token"
    assert "decoder self-attention" in updates["grid"].layout.title.text


def test_the_head_follows_its_controls_and_the_best_head_is_selected(registry):
    workspace = Workspace("s", registry)
    form = AttentionForm(model="copy", text="abcde", target="abc", kind="cross", layer=1, head=1)
    head = handlers.redraw_head(workspace, form, "zh-CN")["head_plot"]
    assert "第 1 层" in head.layout.title.text
    best = handlers.best_head(workspace, replace(form, score="entropy"), "en")
    assert best["mean"] is False
    assert f"layer {best['layer']}, head {best['head']}" in best["head_plot"].layout.title.text
    scores = handlers.redraw_scores(workspace, replace(form, score="anti_diagonal"), "en")
    assert "anti" in scores["scores_plot"].layout.title.text.lower() and scores["best_heads"]


def test_a_refused_input_replaces_every_figure_with_the_reason(registry):
    workspace = Workspace("s", registry)
    form = AttentionForm(model="copy", text="abcz")
    with pytest.raises(gr.Error):
        handlers.draw(workspace, form, "en")
    shown = handlers.refused(workspace, form, "en")
    assert set(shown) == {"grid", "head_plot", "scores_plot", "shapes", "best_heads", "summary"}
    assert all(not figure.data for figure in (shown["grid"], shown["head_plot"], shown["scores_plot"]))
    assert "'z'" in shown["summary"] and "'z'" in shown["grid"].layout.annotations[0].text


def test_an_unknown_model_is_refused_with_the_choices(registry):
    with pytest.raises(gr.Error) as excinfo:
        handlers.draw(Workspace("s", registry), AttentionForm(model="nope"), "en")
    assert "tiny-gpt" in excinfo.value.message


def test_a_tab_wiring_refuses_a_form_field_without_its_component():
    class Context:
        views: dict = {}
    with pytest.raises(ValueError, match="no component"):
        TabWiring(Context(), AttentionForm, {"model": None})


def test_entries_are_not_confused_with_forms(registry):
    assert isinstance(registry.get("copy"), ModelEntry)


def test_the_input_note_lists_the_accepted_characters(registry):
    updates = handlers.controls(Workspace("s", registry), AttentionForm(model="tiny-gpt", text="abc"), "en")
    assert "␣ a b c d e f g h i j" in updates["accepted"]
