"""The Generate tab's Switch heads off, Logit lens and Exposure bias panels, what it says a model
accepts, and how it follows a model the session adds: their form fields, links and handlers."""
import re
from dataclasses import replace

import gradio as gr
import numpy as np
import pytest

from playground.ui.page.links import link_query, parse_link
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import forward_pass, scores_of
from playground.ui.tabs.generate import GenerateForm, handlers

TABS = ("attention", "generate")
DIAGONAL_HEAD = 0.5          # a cross-attention head whose mean weight on the aligned source token is at least this


@pytest.fixture
def workspace(registry):
    return Workspace("gen", registry)


def opened(query: str, registry):
    return parse_link(query, TABS, {"generate": GenerateForm}, registry)


def notice(update) -> str:
    """The text of a refusal figure."""
    figure = update.constructor_args["value"] if isinstance(update, gr.Plot) else update
    assert figure.data == ()
    return " ".join(a.text for a in figure.layout.annotations)


def test_the_panel_fields_come_after_the_language_so_positional_api_calls_keep_working():
    names = list(GenerateForm.params())
    assert names[:12] == ["model", "prompt", "strategy", "temperature", "top_k", "top_p", "seed", "max_new",
                          "beam_width", "layer", "head", "steps"]
    assert names[12:] == list(GenerateForm.LATE) == ["ho_heads", "ho_how", "xb_target", "dla_token", "gg_guess",
                                                     "gg_step", "repetition_penalty"]


def test_a_link_keeps_the_panels_fields_and_drops_heads_the_model_lacks(registry):
    form = GenerateForm(model="copy", prompt="abcde", ho_heads=("cross.1.0", "decoder.0.1"), ho_how="mean",
                        xb_target="edcba")
    page = opened(link_query(registry, "generate", form, "en"), registry)
    assert page.form == form and page.ignored == []
    page = opened("?view=generate&model=tiny-gpt&ho_heads=decoder.1.0,cross.0.0&ho_how=mean", registry)
    assert page.form.ho_heads == ("decoder.1.0",) and page.form.ho_how == "mean"
    assert [error.param for error in page.ignored] == ["ho_heads"] and "cross.0.0" in str(page.ignored[0])
    assert opened("?view=generate&ho_how=off", registry).ignored[0].param == "ho_how"


def test_a_link_without_a_target_takes_the_models_exposure_example(registry):
    assert opened("?view=generate&model=copy&prompt=abcdefghij", registry).form.xb_target == "abcdefghij"
    assert opened("?view=generate&model=tiny-gpt", registry).form.xb_target      # a text the model can read


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_switching_heads_off_shows_both_distributions_the_kl_and_the_changed_tokens(workspace, lang):
    form = GenerateForm(model="tiny-gpt", prompt="abc ab", ho_heads=("decoder.1.0", "decoder.1.1"), ho_how="mean")
    shown = handlers.heads_off(workspace, form, lang)
    before, after = shown["ho_distribution"].data
    assert abs(sum(before.y) - 1) < 0.2 and len(before.y) == len(after.y)
    assert ("KL(on ‖ off)" if lang == "en" else "KL(开启 ‖ 关闭)") in shown["ho_summary"]
    assert re.search(r"\d+ of \d+ tokens changed" if lang == "en" else r"\*\*", shown["ho_summary"])


@pytest.mark.parametrize("lang, form, fragment", [
    ("en", GenerateForm(model="tiny-gpt", prompt="abc"), "at least one head"),
    ("zh-CN", GenerateForm(model="tiny-gpt", prompt="abc", ho_heads=("cross.0.0",)), "cross.0.0"),
    ("en", GenerateForm(model="tiny-gpt", prompt="xyz!", ho_heads=("decoder.0.0",)), "!"),
    ("en", GenerateForm(model="tiny-bert", prompt="abc", ho_heads=("encoder.0.0",)), "tiny-gpt"),  # writes no text
])
def test_bad_heads_prompt_or_model_are_refused_in_the_panel(workspace, lang, form, fragment):
    with pytest.raises(gr.Error) as excinfo:
        handlers.heads_off(workspace, form, lang)
    assert fragment in excinfo.value.message
    shown = handlers.heads_off_refused(workspace, form, lang)
    assert fragment in notice(shown["ho_distribution"]) and fragment in shown["ho_summary"]


def test_switching_off_the_copy_models_diagonal_heads_in_generate_breaks_its_copying(shipped):
    entry, source = shipped.get("copy"), "abcdefghij"
    diagonal = scores_of(forward_pass(entry, source, "", "en"), "cross")["diagonal"]         # [L, H]
    heads = tuple(f"cross.{layer}.{head}" for layer, head in zip(*np.nonzero(diagonal >= DIAGONAL_HEAD)))
    assert heads
    form = GenerateForm(model="copy", prompt=source, ho_heads=heads)
    summary = handlers.heads_off(Workspace("gen", shipped), form, "en")["ho_summary"]
    changed, total = map(int, re.search(r"(\d+) of (\d+) tokens changed", summary).groups())
    assert changed >= total // 2 > 0
    before, after = map(int, re.search(r"task: (\d+)% with every head on, (\d+)% with the heads off", summary).groups())
    assert before >= 95 and after <= 10


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_logit_lens_of_the_prompt_has_a_row_per_layer_and_a_column_per_token(workspace, lang):
    shown = handlers.lens(workspace, GenerateForm(model="tiny-gpt", prompt="abcab"), lang)
    z = np.asarray(shown["lens_plot"].data[0].z, dtype=float)
    assert z.shape == (2, 5) and np.all((z > 0) & (z <= 1))
    refused = handlers.lens_refused(workspace, GenerateForm(model="tiny-gpt", prompt="a" * 70), lang)
    assert "70" in notice(refused["lens_plot"])


@pytest.mark.parametrize("lang, words", [("en", "Teacher forcing"), ("zh-CN", "教师强制")])
def test_exposure_bias_decodes_the_target_both_ways(workspace, lang, words):
    shown = handlers.exposure(workspace, GenerateForm(model="tiny-gpt", prompt="abc", xb_target="defgh"), lang)
    assert words in shown["xb_explanation"]
    assert [len(trace.x) for trace in shown["xb_plot"].data if trace.type == "heatmap"][0] == 5     # one per token


@pytest.mark.parametrize("target, fragment", [("", "empty"), ("abz", "'z'"), ("a" * 30, "21")])
def test_a_bad_exposure_target_is_refused_with_what_to_change(workspace, target, fragment):
    form = GenerateForm(model="tiny-gpt", prompt="abc", xb_target=target)
    with pytest.raises(gr.Error) as excinfo:
        handlers.exposure(workspace, form, "en")
    assert fragment in excinfo.value.message
    shown = handlers.exposure_refused(workspace, form, "en")
    assert fragment in notice(shown["xb_plot"]) and fragment in shown["xb_explanation"]


def test_the_controls_follow_the_model_and_say_what_it_accepts(workspace, registry):
    changed = handlers.change_model(workspace, GenerateForm(model="copy", prompt="zzz",
                                                            ho_heads=("cross.1.1", "decoder.7.0")), "en")
    picker = changed["ho_heads"].constructor_args
    assert {value.split(".")[0] for _, value in picker["choices"]} == {"encoder", "decoder", "cross"}
    assert picker["value"] == ["cross.1.1"]
    assert changed["xb_target"] == changed["prompt"].value == "abcdefghij"    # the copy model's own example
    assert changed["prompt"].label.key == "lbl_prompt_source"                # a source an encoder reads
    assert "Accepts only these characters" in changed["accepted"]
    gpt = handlers.controls(workspace, GenerateForm(model="tiny-gpt", prompt="abc"), "zh-CN")
    assert [value for _, value in gpt["ho_heads"].constructor_args["choices"]] == \
        [f"decoder.{layer}.{head}" for layer in range(2) for head in range(2)]
    assert "只接受" in gpt["accepted"]


def test_a_prompt_outside_the_shipped_copy_models_training_is_warned_about(shipped):
    restarted = handlers.restart(Workspace("gen", shipped), GenerateForm(model="copy", prompt="abc"), "en")
    assert "exactly 10" in restarted["accepted"] and restarted["steps"] == 0


def test_an_example_brings_its_exposure_target(workspace):
    loaded = handlers.load_example(workspace, GenerateForm(model="copy", prompt="abcdefghij", xb_target="x"), "en")
    assert loaded["xb_target"] == "abcdefghij" and loaded["steps"] == 0


def test_a_model_the_session_adds_is_shown_when_the_tab_is_drawn_again(workspace, registry):
    form = GenerateForm(model="tiny-gpt", prompt="abc")
    handlers.reset(workspace, form, "en")
    handlers.step(workspace, form, "en")
    # a model that writes no text: the tab keeps its model, and its generation goes on
    workspace.add_model(replace(registry.get("tiny-bert"), name="mine-bert", source="session"))
    kept, replaced = replace(form, steps=1).follow(workspace.catalog, workspace.current_model)
    assert kept == replace(form, steps=1) and not replaced
    assert handlers.open_tab(workspace, kept, "en")["steps"] == 1
    # a model that writes: the tab follows it, with the prompt it can read, from the first token
    mine = replace(registry.get("copy"), name="mine-copy", source="uploaded")
    workspace.add_model(mine)
    followed, replaced = replace(form, steps=1).follow(workspace.catalog, workspace.current_model)
    assert followed.model == "mine-copy" and followed.prompt == "abc" and followed.steps == 0 and not replaced
    drawn = handlers.open_tab(workspace, followed, "en")
    assert drawn["steps"] == 0 and workspace.generation.entry is mine
    assert "cross.0.0" in [value for _, value in drawn["ho_heads"].constructor_args["choices"]]
    # a prompt it cannot read: its own first example instead, and the caller is told
    followed, replaced = replace(form, prompt="xyz!").follow(workspace.catalog, workspace.current_model)
    assert replaced and followed.prompt != "xyz!" and not mine.tokenizer.unknown_chars(followed.prompt)
