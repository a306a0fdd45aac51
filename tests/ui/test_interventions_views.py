"""The views of switched-off heads and of the logit lens, built without a browser."""
import dataclasses
import re

import gradio as gr
import numpy as np
import pytest
import torch

from playground.analysis import exact_match_change, generation_change, next_token_change
from playground.checkpoint import load, load_metadata
from playground.data import tasks
from playground.model import CROSS, DECODER_SELF, Head
from playground.zoo import DEFAULT_PRETRAINED_DIR, ModelEntry
from playground.zoo import checkpoint_task as _task
from playground.ui.views.interventions import (
    MAX_VIEW_TOKENS,
    HeadsOffSettings,
    head_choices,
    heads_off_views,
    logit_lens_figure,
)


def test_the_head_picker_lists_every_head_of_every_site_in_the_page_language(registry):
    choices = head_choices(registry.get("copy"), "zh-CN")           # 1 encoder layer, 2 decoder layers, 2 heads
    values = [value for _, value in choices]
    assert values[:2] == ["encoder.0.0", "encoder.0.1"] and values[-1] == "cross.1.1" and len(values) == 2 + 4 + 4
    assert choices[-1][0] == "交叉注意力（目标 → 源） · 第1层·第1头"
    assert [v for _, v in head_choices(registry.get("tiny-bert"), "en")] == [f"encoder.0.{h}" for h in range(4)]


def test_a_decoder_shows_the_distribution_before_and_after_with_their_kl(registry):
    entry = registry.get("tiny-gpt")
    views = heads_off_views(entry, "abc ab", HeadsOffSettings(["decoder.1.0", "decoder.1.1"], "zero"), "en")
    ids = entry.tokenizer.encode("abc ab")
    expected = next_token_change(entry.model, [Head(DECODER_SELF, 1, 0), Head(DECODER_SELF, 1, 1)], ids)
    before, after = views.distribution.data
    assert (before.name, after.name) == ("every head on", "heads off")
    top = int(np.argmax(expected.before))
    assert max(before.y) == pytest.approx(float(expected.before[top]), abs=1e-4)
    assert f"{expected.kl:.4f} nats" in views.summary and "output set to zero" in views.summary
    assert "tokens changed" in views.generation and views.exact_match is None


def bold_tokens(line: str) -> int:
    """The tokens in bold after a line's bold heading (each token follows a space)."""
    return len(re.findall(r"(?<= )\*\*[^*]+\*\*", line))


def test_changed_tokens_are_bold_and_counted():
    model, tokenizer, config, card = load(DEFAULT_PRETRAINED_DIR / "shakespeare-char")
    entry = ModelEntry("shakespeare-char", model, tokenizer, config, card, "pretrained")
    views = heads_off_views(entry, "ROMEO: ", HeadsOffSettings(["decoder.0.0", "decoder.0.1"], "mean"), "zh-CN")
    change = generation_change(model, [Head(DECODER_SELF, 0, 0), Head(DECODER_SELF, 0, 1)],
                               tokenizer.encode("ROMEO: "), 20, how="mean")
    on, off = views.generation.split("\n\n")[:2]
    assert bold_tokens(on) == sum(c for c, _ in zip(change.changed, change.before))          # each changed token
    n_changed = sum(change.changed)
    assert n_changed > 0 and f"{len(change.changed)} 个词元中有 {n_changed} 个改变" in views.generation
    assert bold_tokens(off) == sum(c for c, _ in zip(change.changed, change.after))


def test_a_seq2seq_model_with_a_known_task_reports_exact_match(registry):
    entry = dataclasses.replace(registry.get("copy"), task=tasks.get("copy"))
    settings = HeadsOffSettings(["cross.0.0", "cross.1.1"], "zero")
    views = heads_off_views(entry, "abcde", settings, "en")
    pairs = [entry.task.encode_pair(s, t) for s, t in entry.task.held_out(32)]
    match = exact_match_change(entry.model, [Head(CROSS, 0, 0), Head(CROSS, 1, 1)], pairs)
    assert f"{match.before:.0%} with every head on, {match.after:.0%} with the heads off" in views.exact_match
    assert "32 held-out examples of the copy task" in views.exact_match
    assert heads_off_views(registry.get("copy"), "abcde", settings, "en").exact_match is None


def test_shipped_seq2seq_models_know_their_task():
    assert _task(load_metadata(DEFAULT_PRETRAINED_DIR / "copy")).name == "copy"
    assert _task(load_metadata(DEFAULT_PRETRAINED_DIR / "shakespeare-char")) is None


def test_an_encoder_only_model_shows_its_last_position_and_no_generation(registry):
    views = heads_off_views(registry.get("tiny-bert"), "abc", HeadsOffSettings(["encoder.0.3"], "mean"), "en")
    assert "last position" in views.distribution.layout.title.text
    assert views.generation is None and views.exact_match is None


@pytest.mark.parametrize("heads, how, value, fragment", [
    ([], "zero", "abc", "at least one head"),
    ("decoder.0.0", "zero", "abc", "at least one head"),
    (["cross.0.0"], "zero", "abc", "no head \"cross.0.0\""),
    (["decoder.2.0"], "zero", "abc", "no head"),
    (["decoder.0.0"], "half", "abc", "zero, mean"),
    (["decoder.0.0"], "zero", "", "empty"),
    (["decoder.0.0"], "zero", "abcz", "'z'"),
    (["decoder.0.0"], "zero", "a" * 30, "at most 24"),
])
def test_bad_settings_and_input_are_refused_with_what_to_change(registry, heads, how, value, fragment):
    with pytest.raises(gr.Error) as excinfo:
        heads_off_views(registry.get("tiny-gpt"), value, HeadsOffSettings(heads, how), "en")
    assert fragment in excinfo.value.message


def test_the_logit_lens_of_a_decoder_ends_in_the_models_prediction(registry):
    entry = registry.get("tiny-gpt")
    figure = logit_lens_figure(entry, "abca", "zh-CN")
    trace = figure.data[0]
    assert np.asarray(trace.z).shape == (2, 4) and list(trace.y) == ["解码器层 0", "解码器层 1"]
    with torch.no_grad():
        logits = entry.model(torch.tensor([entry.tokenizer.encode("abca")]))[0]   # [T, V]
    top = [entry.tokenizer.id_to_piece(int(i)) for i in logits.argmax(-1)]
    assert [t.replace("␣", " ") for t in np.asarray(trace.customdata)[-1]] == top


def test_the_logit_lens_of_a_seq2seq_model_reads_its_own_output(registry):
    entry = registry.get("copy")
    figure = logit_lens_figure(entry, "abc", "en")
    lens_input = list(figure.data[0].x)
    assert lens_input[0] == "0: &lt;bos&gt;" and "decoder layer 1" in list(figure.data[0].y)
    with pytest.raises(gr.Error):
        logit_lens_figure(entry, "x" * (MAX_VIEW_TOKENS + 1), "en")
