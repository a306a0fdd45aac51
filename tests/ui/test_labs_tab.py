"""The Labs tab's handlers as plain functions of a Workspace: the lab list against the registry, a
run streaming curves and ending in a kept result, Stop, a second run refused, views picked, kept
results compared and forgotten, and bad picks refused."""
import gradio as gr
import numpy as np
import pytest

from playground.labs import LABS, get_lab
from playground.ui import create_app
from playground.ui import labs as ui_labs
from playground.ui.labs_views import lab_choices
from playground.ui.tabs.labs import (
    VIEWS,
    check_can_run,
    compare,
    forget,
    run,
    select_view,
    show,
    stop,
)
from playground.ui.workspace import Workspace

from ..labs.helpers import tiny
from ..viz.sample_data import figure_json_array

PICKS = dict(metric=None, variant=None, kind=None, stage=None)


@pytest.fixture(autouse=True)
def tiny_labs(monkeypatch):
    """Every lab at a few steps, so a run takes about a second."""
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id)))


def run_to_end(workspace, lab_id="causal-mask", lang="en", **picks):
    return list(run(workspace, lab_id, *{**PICKS, **picks}.values(), lang))


def test_the_lab_picker_lists_every_lab_of_the_registry_in_both_languages():
    for lang in ("en", "zh-CN"):
        choices = lab_choices(lang)
        assert [lab_id for _, lab_id in choices] == list(LABS)
        assert all(LABS[lab_id].title.get(lang) in name for name, lab_id in choices)
    assert lab_choices("zh-CN")[0][0].startswith("错误")


def test_the_app_s_lab_picker_offers_exactly_the_registry(pretrained_dir):
    demo = create_app(pretrained_dir)
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
    choices, ticked = final["kept"]
    assert [number for _, number in choices] == [1] and ticked == [1]
    assert final["compare"].data and session.run is None


def test_views_follow_the_picks_and_refuse_what_the_lab_does_not_offer():
    workspace = Workspace("a")
    run_to_end(workspace, "positional-encodings")
    views = select_view(workspace, "positional-encodings", "accuracy", "rope", "decoder.cross_attn", "start", "en")
    assert views["reference"].to_dict()["layout"]["title"]["text"] == "<b>sinusoidal</b><br>before training (step 0)"
    assert views["compared"].to_dict()["layout"]["title"]["text"] == "<b>RoPE</b><br>before training (step 0)"
    assert [t["name"] for t in views["curves"].to_dict()["data"]][0].endswith("· accuracy")
    with pytest.raises(gr.Error, match="Variant cannot be \"reference\""):
        select_view(workspace, "positional-encodings", "losses", "reference", "decoder.cross_attn", "end", "en")
    with pytest.raises(gr.Error, match="Curves cannot be"):
        select_view(workspace, "causal-mask", "exact_match", "upper_triangular", None, "end", "en")
    with pytest.raises(gr.Error, match="Lab cannot be \"no-such-lab\""):
        show(workspace, "no-such-lab", *PICKS.values(), [], "en")


def test_a_decoder_only_variant_without_cross_attention_shows_its_own_self_attention():
    workspace = Workspace("a")
    run_to_end(workspace, "decoder-only-vs-encoder-decoder")
    views = select_view(workspace, "decoder-only-vs-encoder-decoder", "losses", "decoder_only", "decoder.cross_attn",
                        "end", "en")
    assert "attention" not in views["reference"].to_dict()["layout"]["title"]["text"]      # the kind chosen
    assert views["compared"].to_dict()["layout"]["title"]["text"].endswith("· decoder self-attention (causal)")


def test_stop_ends_the_run_after_its_round_and_keeps_the_partial_result(monkeypatch):
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id), steps=400, rounds=200))
    workspace = Workspace("a")
    stream = run(workspace, "causal-mask", *PICKS.values(), "en")
    for views in stream:
        if "curves" in views and views["curves"].data:
            break
    with pytest.raises(gr.Error, match="already running"):
        check_can_run(workspace, "causal-mask", "en")
    assert stop(workspace, "causal-mask", "en")["status"].startswith("**Stopping**")
    final = list(stream)[-1]
    result = workspace.labs.kept[1]
    assert result.steps_done < result.steps_planned
    assert {variant.final["step"] for variant in result.variants} == {result.steps_done}   # stopped between rounds
    assert final["status"].startswith("**Stopped** at step")
    assert check_can_run(workspace, "causal-mask", "en").startswith("Waiting")


def test_kept_results_compare_across_labs_and_can_be_forgotten():
    workspace = Workspace("a")
    run_to_end(workspace, "causal-mask")
    final = run_to_end(workspace, "weight-tying")[-1]
    assert final["kept"][1] == [1, 2]
    names = {trace["name"] for trace in final["compare"].to_dict()["data"]}
    assert any(name.startswith("Causal mask built upper-triangular · ") for name in names)
    assert any(name.startswith("Weight tying on and off · ") for name in names)
    only_first = compare(workspace, [1], "en")["compare"].to_dict()["data"]
    assert {t["name"].split(" · ")[0] for t in only_first} == {"Causal mask built upper-triangular"}
    with pytest.raises(gr.Error, match="Kept result cannot be \"7\""):
        compare(workspace, [7], "en")
    views = forget(workspace, "causal-mask", "en")
    assert views["kept"] == ([], []) and not views["compare"].data and not views["reference"].data
    assert "Run lab" in views["reference"].layout.annotations[0].text
    assert show(workspace, "causal-mask", *PICKS.values(), [1], "en")["status"].startswith("Press **Run lab**")


def test_views_are_drawn_in_the_session_language():
    workspace = Workspace("a")
    final = run_to_end(workspace, lang="zh-CN")[-1]
    assert final["status"].startswith("**完成**")
    assert final["reference"].to_dict()["layout"]["title"]["text"].startswith("<b>参考（正确）</b><br>训练后")
    assert "这些运行说明了什么" in final["summary"]
    english = show(workspace, "causal-mask", *PICKS.values(), [1], "en")
    assert english["status"].startswith("**Finished**") and english["lab"][0] == lab_choices("en")


def test_a_forgotten_session_stops_its_lab(monkeypatch):
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id), steps=400, rounds=200))
    workspace = Workspace("a")
    stream = run(workspace, "causal-mask", *PICKS.values(), "en")
    next(stream), next(stream)
    workspace.close()
    assert workspace.labs.stop_and_wait(30) and not workspace.labs.running
    stream.close()
    assert workspace.labs.kept == {}
