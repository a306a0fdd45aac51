"""The Attention tab's panels that explain an answer: activation patching, direct logit attribution (drawn by
the logit lens's event) and linear probes. Their links, what each handler draws for good input on the
shipped models (checked against the library computed independently), and how each refuses bad input, in
both languages."""
import dataclasses
import re

import gradio as gr
import numpy as np
import pytest
import torch

from playground.analysis import Patch, pair_from_inputs, patched_metrics
from playground.data import CharTokenizer
from playground.model import ModelConfig, build_model
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm, handlers
from playground.viz.labels import number_text, visible_token
from playground.zoo import ModelEntry, freeze

LANGS = ("en", "zh-CN")
REPEAT = "q7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"            # the induction model's example: its last token came before
INDUCTION = AttentionForm(model="induction", text=REPEAT, kind="decoder", score="induction")
REVERSE = AttentionForm(model="reverse", text="abcdefghij")


@pytest.fixture(scope="module")
def workspace(shipped):
    return Workspace("explaining", shipped)


def annotations(figure) -> str:
    return " ".join(a.text for a in figure.layout.annotations)


def refusal(update) -> str:
    """The sentence of a figure that shows why its input was refused."""
    figure = update.constructor_args["value"] if isinstance(update, gr.Plot) else update
    assert figure.data == ()
    return annotations(figure)


# Links ------------------------------------------------------------------------------------------

def test_a_link_keeps_the_panels_fields_and_a_property_the_model_lacks_is_replaced_and_reported(shipped):
    form, ignored = AttentionForm.from_query({"model": "induction", "pt_corrupted": "abc", "dla_token": "q",
                                              "pr_property": "letter"})
    assert ignored == [] and (form.pt_corrupted, form.dla_token) == ("abc", "q")
    fitted, refused = form.fit(shipped, {"model", "pt_corrupted", "dla_token", "pr_property"})
    assert fitted.pr_property == "inside" and [error.param for error in refused] == ["pr_property"]
    assert "offset" in str(refused[0])
    reverse, refused = AttentionForm(model="reverse").fit(shipped, {"model"})
    assert reverse.pr_property == "letter" and refused == []                 # not named: the model's own, silently


# Activation patching ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_induction_models_suggested_corruption_is_patched_layer_by_position_and_head_by_head(workspace, lang):
    drawn = handlers.patching(workspace, INDUCTION, lang)
    corrupted = drawn["pt_corrupted"]
    changed = [i for i, (a, b) in enumerate(zip(REPEAT, corrupted)) if a != b]
    assert len(corrupted) == len(REPEAT) and changed == [13] and corrupted[13] not in REPEAT   # after the first "p"
    residual = drawn["pt_residual"].data[0]
    z = np.asarray(residual.z, dtype=float)                                 # [blocks + 1, T]
    assert z.shape == (3, len(REPEAT)) and list(residual.y) == ["0", "1", "2"]
    assert int(np.argmax(z[0])) == 13 and int(np.argmax(z[-1])) == len(REPEAT) - 1
    assert z[-1, -1] == pytest.approx(1.0, abs=1e-5)                         # the final stream carries all of it
    ticks = drawn["pt_residual"].layout.xaxis.ticktext
    assert list(ticks) == [visible_token(ch) for ch in REPEAT]              # the tokens, "&" written as "&amp;"
    assert np.asarray(residual.customdata)[0, 13] == number_text(z[0, 13], 4)      # the hover, exact
    heads = drawn["pt_heads"].data[0]
    assert list(heads.y) == ["L0", "L1"] and len(heads.x) == 2
    assert np.asarray(drawn["pt_positions"].data[0].z).shape == (4, len(REPEAT))   # 2 layers x 2 heads, each position
    assert drawn["pt_source"].constructor_args["visible"] is False
    assert ("**L1·H" if lang == "en" else "**L1·H") in drawn["pt_summary"]
    assert ("Right answer** “␣”" if lang == "en" else "正确答案** “␣”") in drawn["pt_summary"]


def test_each_head_cell_is_the_library_metric_of_that_head_patched_alone(workspace, shipped):
    """The heads map's rows and columns are where the library's numbers go: each cell against a patched run
    computed here on its own, normalised by the two runs."""
    drawn = handlers.patching(workspace, INDUCTION, "en")
    entry = shipped.get("induction")
    tokenizer = entry.tokenizer
    pair = pair_from_inputs(entry.model, tokenizer.encode(REPEAT), tokenizer.encode(drawn["pt_corrupted"]))
    patches = [Patch(f"decoder.{layer}.self_attn.z", None, head) for layer in range(2) for head in range(2)]
    with torch.no_grad():
        logits = [entry.model(torch.tensor([ids]))[0, pair.position].double()
                  for ids in (pair.clean, pair.corrupted)]
    clean, corrupted = (float(lg[pair.right] - lg[pair.wrong]) for lg in logits)
    expected = (patched_metrics(entry.model, pair, patches) - corrupted) / (clean - corrupted)
    drawn_heads = np.asarray(drawn["pt_heads"].data[0].z, dtype=float).ravel()
    np.testing.assert_allclose(drawn_heads, expected, atol=1e-4)


@pytest.mark.parametrize("lang", LANGS)
def test_suggest_changes_one_source_character_of_a_task_model_and_shows_where_it_enters(workspace, lang):
    drawn = handlers.suggest_patching(workspace, dataclasses.replace(REVERSE, pt_corrupted="zzz"), lang)
    corrupted = drawn["pt_corrupted"]
    assert sum(a != b for a, b in zip(REVERSE.text, corrupted)) == 1 and len(corrupted) == 10
    source = drawn["pt_source"].constructor_args
    assert source["visible"] is True and np.asarray(source["value"].data[0].z).shape == (3, 10)
    rows = list(drawn["pt_heads"].data[0].y)
    assert len(rows) == 6 and rows[0].endswith("L0") and rows[-1].endswith("L1")      # encoder, self, cross x 2
    position = next(i for i, (a, b) in enumerate(zip(REVERSE.text, corrupted)) if a != b)
    right, wrong = REVERSE.text[position], corrupted[position]               # reversed: the changed letter is written
    answer = "Right answer** “{}”, **wrong answer** “{}”" if lang == "en" else "正确答案** “{}”，**错误答案** “{}”"
    assert answer.format(right, wrong) in drawn["pt_summary"]
    changed = "{} (“{}” → “{}”)" if lang == "en" else "{}（“{}” → “{}”）"
    assert changed.format(position, right, wrong) in drawn["pt_summary"]                 # each token in quotes


@pytest.mark.parametrize("lang, form, fragment", [
    ("en", dataclasses.replace(INDUCTION, pt_corrupted="q7#Lm2x"), "7 tokens and the clean one 27"),
    ("zh-CN", dataclasses.replace(INDUCTION, pt_corrupted="q7#Lm2x"), "损坏输入有 7 个词元"),
    ("en", dataclasses.replace(INDUCTION, pt_corrupted=REPEAT), "the same as the clean one"),
    ("zh-CN", dataclasses.replace(INDUCTION, pt_corrupted="r7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"), "相差不到 1"),
    ("en", dataclasses.replace(INDUCTION, pt_corrupted="r7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"), "4.312"),   # vs 4.119 clean
    ("en", dataclasses.replace(REVERSE, pt_corrupted="abcdefghij"), "the same as the clean one"),
    ("zh-CN", dataclasses.replace(REVERSE, pt_corrupted="abcdefghiJ"), "'J'"),
])
def test_bad_corruptions_are_refused_with_what_to_change_and_no_map_is_left(workspace, lang, form, fragment):
    with pytest.raises(gr.Error) as excinfo:
        handlers.patching(workspace, form, lang)
    assert fragment in excinfo.value.message
    shown = handlers.patching_refused(workspace, form, lang)
    assert all(fragment in refusal(shown[name]) for name in ("pt_residual", "pt_heads", "pt_positions"))
    assert shown["pt_source"].constructor_args["visible"] is False and fragment in shown["pt_summary"]


def test_a_new_model_or_text_leaves_the_corrupted_input_to_the_suggestion(workspace):
    stale = dataclasses.replace(INDUCTION, pt_corrupted="stale input")
    assert handlers.change_text(workspace, stale, "en")["pt_corrupted"] == ""
    assert handlers.change_model(workspace, dataclasses.replace(stale, model="reverse"), "en")["pt_corrupted"] == ""


# Direct logit attribution -------------------------------------------------------------------------

def stated_numbers(summary: str) -> tuple[float, float]:
    total, logit = re.findall(r"\*\*(-?\d+\.\d{3})\*\*", summary)[:2]
    return float(total), float(logit)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lens_event_also_splits_the_top_tokens_logit_and_the_parts_sum_to_it(workspace, shipped, lang):
    drawn = handlers.lens(workspace, INDUCTION, lang)
    assert drawn["lens_plot"].data                                          # the lens itself, as before
    bars = drawn["dla_plot"].data[0]
    total, logit = stated_numbers(drawn["dla_summary"])
    entry = shipped.get("induction")
    with torch.no_grad():
        model_logits = entry.model(torch.tensor([entry.tokenizer.encode(REPEAT)]))[0, -1]
    assert logit == pytest.approx(float(model_logits.max()), abs=1e-3) and total == pytest.approx(logit, abs=1e-3)
    assert sum(float(v) for v in bars.y) == pytest.approx(logit, abs=1e-3)
    assert {"L1·H0", "L1·H1", "L0·MLP", "L1·MLP"} <= set(bars.x)
    assert "1/σ" in drawn["dla_summary"] and number_text(logit, 3) in annotations(drawn["dla_plot"])


def test_a_typed_token_is_the_one_split_and_a_seq2seq_model_splits_its_first_output(workspace, shipped):
    drawn = handlers.lens(workspace, dataclasses.replace(INDUCTION, dla_token="Z"), "en")
    entry = shipped.get("induction")
    with torch.no_grad():
        logits = entry.model(torch.tensor([entry.tokenizer.encode(REPEAT)]))[0, -1]          # [V]
    logit = float(logits[entry.tokenizer.encode("Z")[0]])
    assert "“Z”" in drawn["dla_plot"].layout.title.text
    assert stated_numbers(drawn["dla_summary"])[1] == pytest.approx(logit, abs=1e-3)
    reverse = handlers.lens(workspace, REVERSE, "en")
    assert "“j”" in reverse["dla_plot"].layout.title.text and "the output's first token" in reverse["dla_summary"]
    assert any("cross" in name for name in reverse["dla_plot"].data[0].x)


@pytest.mark.parametrize("lang, token, fragment", [("en", "ab", "2 tokens"), ("zh-CN", "ab", "是 2 个词元"),
                                                   ("en", "é", "does not know 1 character")])
def test_a_token_that_is_not_one_of_the_models_is_refused_beside_the_lens_it_leaves_drawn(workspace, lang, token,
                                                                                         fragment):
    form = dataclasses.replace(INDUCTION, dla_token=token)
    shown = handlers.lens(workspace, form, lang)
    assert shown["lens_plot"].data[0].type == "heatmap"                    # the lens does not need the token
    assert fragment in refusal(shown["dla_plot"]) and fragment in shown["dla_summary"]
    bad_input = dataclasses.replace(form, text="é")                       # a bad input is refused for both
    with pytest.raises(gr.Error):
        handlers.lens(workspace, bad_input, lang)
    refused = handlers.lens_refused(workspace, bad_input, lang)
    assert refusal(refused["lens_plot"]) and refusal(refused["dla_plot"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_post_norm_model_gets_the_reason_instead_of_bars(shipped, lang):
    tokenizer = CharTokenizer("abc ")
    config = ModelConfig(arch="decoder_only", vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2,
                         n_decoder_layers=1, d_ff=32, max_len=16, norm="post")
    torch.manual_seed(0)
    workspace = Workspace("post-norm", shipped)
    workspace.add_model(ModelEntry("mine-post", freeze(build_model(config)), tokenizer, config, "", "session"))
    drawn = handlers.lens(workspace, AttentionForm(model="mine-post", text="abc ab", kind="decoder"), lang)
    assert drawn["lens_plot"].data and drawn["dla_plot"].data == ()
    assert ("post-norm" if lang == "en" else "后置归一化") in drawn["dla_summary"]
    assert drawn["dla_summary"][:20] in annotations(drawn["dla_plot"])


# Linear probes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_probes_read_inside_a_repeat_and_the_sentence_is_the_figures(workspace, lang):
    drawn = handlers.probes(workspace, INDUCTION, lang)
    probe, control, chance, position = drawn["pr_plot"].data
    accuracy = [float(v) for v in probe.y]
    best = int(np.argmax(accuracy))
    assert list(probe.x) == ["0", "1", "2"] and accuracy[best] > float(chance.y[0]) + 0.1
    assert all(abs(float(c) - float(chance.y[0])) < 0.05 for c in control.y)          # the control stays near chance
    said = f"**Layer {best}** reads it at **{accuracy[best]:.0%}**" if lang == "en" else \
        f"**第 {best} 层**读出它的准确率为 **{accuracy[best]:.0%}**"
    assert said in drawn["pr_summary"], drawn["pr_summary"]
    above = accuracy[0] - max(float(control.y[0]), float(chance.y[0]))       # the first readable layer is 0 here
    margin = f"by {100 * above:.0f} points" if lang == "en" else f"高出 {100 * above:.0f} 个百分点"
    assert margin in drawn["pr_summary"] and f"{float(position.y[0]):.0%}" in drawn["pr_summary"]


def test_the_offset_inside_a_repeat_is_read_at_no_layer(workspace):
    drawn = handlers.probes(workspace, dataclasses.replace(INDUCTION, pr_property="offset"), "en")
    assert drawn["pr_summary"].startswith("**No layer reads it**")


@pytest.mark.parametrize("model, offered", [("induction", ["inside", "offset"]), ("reverse", ["letter", "index"]),
                                            ("shakespeare-char", ["vowel"]), ("tang-poems-char", ["line_end"]),
                                            ("copy", [])])
def test_the_properties_follow_the_model(workspace, model, offered):
    controls = handlers.controls(workspace, AttentionForm(model=model), "en")
    picker = controls["pr_property"].constructor_args
    assert picker["visible"] is bool(offered)
    assert controls["pr_run"].constructor_args["visible"] is bool(offered)     # no button that can only fail
    if offered:
        assert [value for _, value in picker["choices"]] == offered and picker["value"] == offered[0]
    else:
        assert "No property" in controls["pr_offered"]


@pytest.mark.parametrize("lang, fragment", [("en", "No probe is offered for copy"), ("zh-CN", "copy 没有可用的探针")])
def test_probes_of_a_model_that_offers_none_are_refused(workspace, lang, fragment):
    with pytest.raises(gr.Error, match=fragment):
        handlers.probes(workspace, AttentionForm(model="copy", text="abc"), lang)
