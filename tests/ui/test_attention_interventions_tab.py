"""The Attention tab's Switch heads off and Logit lens panels: their form fields, links and handlers."""
import dataclasses

import gradio as gr
import numpy as np
import pytest

from playground.data import tasks
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm, handlers


@pytest.fixture
def workspace(registry):
    return Workspace("ho", registry)


def test_the_new_fields_come_last_so_the_attention_api_keeps_its_order():
    assert list(AttentionForm.params())[:9] == ["model", "text", "target", "kind", "layer", "head", "mean", "score",
                                                "step"]
    assert list(AttentionForm.params())[9:] == ["ho_heads", "ho_how", "dla_token", "pt_corrupted", "pr_property"]
    assert AttentionForm.LATE == tuple(AttentionForm.params())[9:]


def test_a_link_drops_heads_the_model_lacks_and_says_so(registry):
    form, ignored = AttentionForm.from_query({"model": "tiny-gpt", "ho_heads": "decoder.1.0,cross.0.0"})
    assert ignored == []
    fitted, refused = form.fit(registry, {"model", "ho_heads"})
    assert fitted.ho_heads == ("decoder.1.0",)
    assert [error.param for error in refused] == ["ho_heads"] and "cross.0.0" in str(refused[0])


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_switching_heads_off_shows_both_distributions_and_the_kl(workspace, lang):
    form = AttentionForm(model="tiny-gpt", text="abc ab", ho_heads=("decoder.1.0", "decoder.1.1"), ho_how="mean")
    shown = handlers.heads_off(workspace, form, lang)
    before, after = shown["ho_distribution"].data
    assert sum(before.y) <= 1 + 1e-6 and len(before.y) == len(after.y)
    assert ("KL(on ‖ off)" if lang == "en" else "KL") in shown["ho_summary"]
    assert "**" in shown["ho_summary"]                                        # the greedy output before and after


def test_a_seq2seq_task_model_reports_exact_match(registry):
    workspace = Workspace("ho", registry)
    entry = dataclasses.replace(registry.get("copy"), task=tasks.get("copy"))
    workspace.model = lambda name: entry if name == "copy" else None
    shown = handlers.heads_off(workspace, AttentionForm(model="copy", text="abcde", ho_heads=("cross.0.0",)), "en")
    assert "held-out examples of the copy task" in shown["ho_summary"]


@pytest.mark.parametrize("lang, form, fragment", [
    ("en", AttentionForm(model="tiny-gpt", text="abc"), "at least one head"),
    ("zh-CN", AttentionForm(model="tiny-gpt", text="abc", ho_heads=("cross.0.0",)), "cross.0.0"),
    ("en", AttentionForm(model="tiny-gpt", text="xyz!", ho_heads=("decoder.0.0",)), "!"),
])
def test_bad_heads_or_input_are_refused_in_the_panel(workspace, lang, form, fragment):
    with pytest.raises(gr.Error) as excinfo:
        handlers.heads_off(workspace, form, lang)
    assert fragment in excinfo.value.message
    shown = handlers.heads_off_refused(workspace, form, lang)
    assert shown["ho_distribution"].data == () and fragment in shown["ho_distribution"].layout.annotations[0].text
    assert fragment in shown["ho_summary"]


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_logit_lens_has_a_row_per_layer_and_a_column_per_token(workspace, lang):
    shown = handlers.lens(workspace, AttentionForm(model="tiny-gpt", text="abcab"), lang)
    z = np.asarray(shown["lens_plot"].data[0].z, dtype=float)
    assert z.shape[1] == 5 and z.shape[0] >= 2 and np.all((z > 0) & (z <= 1))
    refused = handlers.lens_refused(workspace, AttentionForm(model="tiny-gpt", text=""), lang)
    assert refused["lens_plot"].data == ()


def test_the_head_picker_follows_the_model(workspace):
    controls = handlers.controls(workspace, AttentionForm(model="tiny-bert", ho_heads=("encoder.0.3", "cross.0.0")),
                                 "en")
    picker = controls["ho_heads"].constructor_args
    assert [value for _, value in picker["choices"]] == [f"encoder.0.{h}" for h in range(4)]
    assert picker["value"] == ["encoder.0.3"]
