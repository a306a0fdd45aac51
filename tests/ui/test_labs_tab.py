"""The Labs tab's handlers as plain functions of a Workspace, its form and the language: the lab
list against the registry, a run streaming curves and ending in a kept result, Stop, a second run
refused, views picked, kept results compared and forgotten, bad picks refused, and links."""
import random
from dataclasses import replace

import gradio as gr
import numpy as np
import pytest

from playground.labs import LABS, get_lab
from playground.ui.page.forms import decode_query, encode_query
from playground.ui.page.links import note_text, parse_link
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.labs import LabsForm
from playground.ui.tabs.labs import session as ui_labs
from playground.ui.tabs.labs.handlers import (
    VIEWS,
    check_can_run,
    compare,
    controls,
    draw,
    forget,
    refused,
    run,
    select_view,
    stop,
)
from playground.ui.tabs.labs.views import kind_choices, lab_choices, metric_choices, variant_choices

from ..labs.helpers import tiny
from ..viz.sample_data import figure_json_array

TABS = ("attention", "labs")
FORMS = {"labs": LabsForm}


@pytest.fixture(autouse=True)
def tiny_labs(monkeypatch):
    """Every lab at a few steps, so a run takes about a second."""
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id)))


def form(lab_id="causal-mask", **picks) -> LabsForm:
    """The form of `lab_id` with `picks`, the others the lab's own first (as the page shows them)."""
    return replace(LabsForm(lab=lab_id).fit(None, set())[0], **picks)


def run_to_end(workspace, lab_id="causal-mask", lang="en"):
    return list(run(workspace, form(lab_id), lang))


def picked(update):
    """(choices, value) of a choice control's update."""
    return update.constructor_args["choices"], update.constructor_args["value"]


def test_the_lab_picker_lists_every_lab_of_the_registry_in_both_languages():
    for lang in ("en", "zh-CN"):
        choices = lab_choices(lang)
        assert [lab_id for _, lab_id in choices] == list(LABS) and len(choices) >= 17
        assert all(LABS[lab_id].title.get(lang) in name for name, lab_id in choices)
    assert lab_choices("zh-CN")[0][0].startswith("错误")


def test_the_app_s_lab_picker_offers_exactly_the_registry(demo):
    picker = next(block for block in demo.blocks.values() if getattr(block, "elem_id", None) == "labs-picker")
    assert [value for _, value in picker.choices] == list(LABS) and picker.value == next(iter(LABS))


def test_a_run_streams_the_curves_and_ends_with_every_view_and_a_kept_result():
    workspace = Workspace("a")
    views = run_to_end(workspace)
    assert views[0]["status"].startswith("Building")
    progress = [v for v in views[1:-1] if "curves" in v]
    assert len(progress) >= 2
    final = views[-1]
    assert set(final) == set(VIEWS)
    assert final["status"].startswith("**Finished**")
    names = {trace["name"] for trace in final["curves"].to_dict()["data"]}
    assert names == {"reference (correct) · training loss", "reference (correct) · validation loss",
                     "upper-triangular mask · training loss", "upper-triangular mask · validation loss"}
    reference, compared = final["reference"].to_dict(), final["compared"].to_dict()
    assert reference["layout"]["title"]["text"].startswith("<b>reference (correct)</b><br>after training")
    assert compared["layout"]["title"]["text"].startswith("<b>upper-triangular mask</b><br>after training")
    assert len(reference["data"]) == len(compared["data"]) == 2 * 4                  # 2 layers x 4 heads each
    # The causal reference puts no weight above the diagonal; the upper-triangular mask does.
    above_diagonal = np.triu(np.ones((32, 32), dtype=bool), k=1)                      # block 32
    assert figure_json_array(final["reference"], 0, "z")[above_diagonal].max() == 0
    assert figure_json_array(final["compared"], 0, "z")[above_diagonal].max() > 0
    assert "Largest change of an earlier logit" in final["summary"] or "earlier" in final["summary"]
    session = workspace.labs
    assert list(session.kept) == [1] and session.kept[1].lab_id == "causal-mask"
    choices, ticked = picked(final["kept"])
    assert [number for _, number in choices] == [1] and ticked == [1]
    assert final["compare"].data and session.run is None


def test_views_follow_the_picks_and_refuse_what_the_lab_does_not_offer():
    workspace = Workspace("a")
    run_to_end(workspace, "positional-encodings")
    views = select_view(workspace, form("positional-encodings", metric="accuracy", variant="rope",
                                        kind="decoder.cross_attn", stage="start"), "en")
    assert views["reference"].to_dict()["layout"]["title"]["text"] == "<b>sinusoidal</b><br>before training (step 0)"
    assert views["compared"].to_dict()["layout"]["title"]["text"] == "<b>RoPE</b><br>before training (step 0)"
    assert [t["name"] for t in views["curves"].to_dict()["data"]][0].endswith("· accuracy")
    with pytest.raises(gr.Error, match="Variant cannot be \"reference\""):
        select_view(workspace, form("positional-encodings", metric="losses", variant="reference",
                                    kind="decoder.cross_attn", stage="end"), "en")
    with pytest.raises(gr.Error, match="Curves cannot be"):
        select_view(workspace, form("causal-mask", metric="exact_match", variant="upper_triangular",
                                    kind="decoder.self_attn", stage="end"), "en")
    with pytest.raises(gr.Error, match="Lab cannot be \"no-such-lab\""):
        draw(workspace, LabsForm(lab="no-such-lab"), "en")


def test_a_decoder_only_variant_without_cross_attention_shows_its_own_self_attention():
    workspace = Workspace("a")
    run_to_end(workspace, "decoder-only-vs-encoder-decoder")
    views = select_view(workspace, form("decoder-only-vs-encoder-decoder", metric="losses", variant="decoder_only",
                                        kind="decoder.cross_attn", stage="end"), "en")
    assert "attention" not in views["reference"].to_dict()["layout"]["title"]["text"]      # the kind chosen
    assert views["compared"].to_dict()["layout"]["title"]["text"].endswith("· decoder self-attention (causal)")


def test_stop_ends_the_run_after_its_round_and_keeps_the_partial_result(monkeypatch):
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id), steps=400, rounds=200))
    workspace = Workspace("a")
    stream = run(workspace, form(), "en")
    for views in stream:
        if "curves" in views and views["curves"].data:
            break
    with pytest.raises(gr.Error, match="already running"):
        check_can_run(workspace, form(), "en")
    assert stop(workspace, form(), "en")["status"].startswith("**Stopped** at step")      # once it has stopped
    assert not workspace.labs.running
    final = list(stream)[-1]
    result = workspace.labs.kept[1]
    assert result.steps_done < result.steps_planned
    assert {variant.final["step"] for variant in result.variants} == {result.steps_done}   # stopped between rounds
    assert final["status"].startswith("**Stopped** at step")
    assert check_can_run(workspace, form(), "en")["status"].startswith("Waiting")


def test_kept_results_compare_across_labs_and_can_be_forgotten():
    workspace = Workspace("a")
    run_to_end(workspace, "causal-mask")
    final = run_to_end(workspace, "weight-tying")[-1]
    assert picked(final["kept"])[1] == [1, 2]
    names = {trace["name"] for trace in final["compare"].to_dict()["data"]}
    assert any(name.startswith("Causal mask built upper-triangular · ") for name in names)
    assert any(name.startswith("Weight tying on and off · ") for name in names)
    only_first = compare(workspace, [1], "en")["compare"].to_dict()["data"]
    assert {t["name"].split(" · ")[0] for t in only_first} == {"Causal mask built upper-triangular"}
    with pytest.raises(gr.Error, match="Kept result cannot be \"7\""):
        compare(workspace, [7], "en")
    views = forget(workspace, form(), "en")
    assert picked(views["kept"]) == ([], []) and not views["compare"].data and not views["reference"].data
    assert "Run lab" in views["reference"].layout.annotations[0].text
    assert draw(workspace, form(), "en")["status"].startswith("Press **Run lab**")


def test_views_are_drawn_in_the_session_language():
    workspace = Workspace("a")
    final = run_to_end(workspace, lang="zh-CN")[-1]
    assert final["status"].startswith("**完成**")
    assert final["reference"].to_dict()["layout"]["title"]["text"].startswith("<b>参考（正确）</b><br>训练后")
    assert "这些运行说明了什么" in final["summary"]
    english = draw(workspace, form(), "en")
    assert english["status"].startswith("**Finished**") and picked(english["lab"])[0] == lab_choices("en")


def test_a_forgotten_session_stops_its_lab(monkeypatch):
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id), steps=400, rounds=200))
    workspace = Workspace("a")
    stream = run(workspace, form(), "en")
    next(stream), next(stream)
    workspace.close()
    assert workspace.labs.stop_and_wait(30) and not workspace.labs.running
    stream.close()
    assert workspace.labs.kept == {}


def random_labs_form(rng: random.Random) -> LabsForm:
    lab = LABS[rng.choice(list(LABS))]
    return LabsForm(lab=lab.id, metric=rng.choice([v for _, v in metric_choices(lab, "en")]),
                    variant=rng.choice([v for _, v in variant_choices(lab, "en")]),
                    kind=rng.choice([v for _, v in kind_choices(lab, "en")]), stage=rng.choice(["start", "end"]))


def test_random_labs_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(19)
    for _ in range(200):
        original = random_labs_form(rng)
        back, ignored = LabsForm.from_query(dict(decode_query("?" + encode_query(original.to_query()))))
        assert (back, ignored) == (original, [])
        assert back.fit(None, set(original.params()))[1] == []              # every pick is one its lab offers


def test_a_link_opens_its_lab_with_its_picks(registry):
    page = parse_link("?view=labs&lab=positional-encodings&metric=accuracy&variant=rope&stage=start&lang=zh-CN",
                      TABS, FORMS, registry)
    assert (page.view, page.lang, page.ignored) == ("labs", "zh-CN", [])
    assert page.form == LabsForm(lab="positional-encodings", metric="accuracy", variant="rope",
                                 kind="decoder.cross_attn", stage="start")      # the lab's most telling kind
    workspace = Workspace("a")
    shown = {**controls(workspace, page.form, "zh-CN"), **draw(workspace, page.form, "zh-CN")}
    assert picked(shown["lab"]) == (lab_choices("zh-CN"), "positional-encodings")
    assert picked(shown["metric"])[1] == "accuracy" and picked(shown["variant"])[1] == "rope"
    assert picked(shown["stage"])[1] == "start"
    assert LABS["positional-encodings"].title.get("zh-CN") in shown["card"]
    assert "运行实验" in shown["curves"].layout.annotations[0].text              # before a run: what will appear


def test_a_bad_lab_id_in_a_link_opens_the_default_lab_and_says_so(registry):
    page = parse_link("?view=labs&lab=no-such-lab&stage=middle", TABS, FORMS, registry)
    assert page.form == LabsForm() and sorted(error.param for error in page.ignored) == ["lab", "stage"]
    note = note_text(page.ignored, "en")
    assert "- lab:" in note and "no-such-lab" in note and "causal-mask" in note and "- stage:" in note


def test_a_pick_the_lab_does_not_offer_falls_back_and_is_named(registry):
    page = parse_link("?view=labs&lab=weight-tying&metric=exact_match&variant=rope&kind=decoder.cross_attn",
                      TABS, FORMS, registry)
    assert page.form == LabsForm(lab="weight-tying", metric="losses", variant="tied", kind="decoder.self_attn")
    assert sorted(error.param for error in page.ignored) == ["kind", "metric", "variant"]
    assert "tied" in note_text(page.ignored, "en") and "变体" in note_text(page.ignored, "zh-CN")


def test_a_refused_pick_replaces_the_figures_with_the_reason():
    workspace = Workspace("a")
    run_to_end(workspace)
    shown = refused(workspace, form(variant="rope"), "en")
    assert set(shown) == {"curves", "reference", "compared"}
    for figure in shown.values():
        assert figure.data == () and "Variant cannot be \"rope\"" in figure.layout.annotations[0].text
