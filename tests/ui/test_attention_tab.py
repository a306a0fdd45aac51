import copy
import dataclasses
import gc
import math
import weakref

import gradio as gr
import numpy as np
import pytest
import torch

from playground.checkpoint import to_bytes
from playground.generate import SamplingConfig, Stepper
from playground.ui.header.own_models import load_own_model
from playground.zoo import held_out_loss, recorded_examples
from playground.ui.tabs.attention import (
    MAX_ATTENTION_TOKENS,
    attention_views,
    forward_pass,
    kinds_of,
    scores_of,
    weights_of,
)
from playground.ui.views import attention as attention_tab


def grid_values(figure) -> np.ndarray:
    """The grid's heatmaps as stored (whole percents), [cells, Tq, Tk]."""
    return np.array([np.asarray(trace.z, dtype=float) for trace in figure.data])


def test_a_decoder_shows_causal_rows_that_sum_to_one(registry):
    entry = registry.get("tiny-gpt")
    views = attention_views(entry, "abc abc", "", "decoder", 1, 1, False, "induction", "en")
    assert (views.n_layers, views.n_heads) == (2, 2)
    cells = grid_values(views.grid)                                           # [L*H, 7, 7]
    assert cells.shape == (4, 7, 7)
    assert np.all(cells[:, np.triu_indices(7, k=1)[0], np.triu_indices(7, k=1)[1]] == 0)
    head = np.asarray(views.head.data[0].z, dtype=float)
    np.testing.assert_allclose(head.sum(axis=1), 1.0, atol=1e-5)
    assert list(views.head.layout.xaxis.ticktext) == ["a", "b", "c", "␣", "a", "b", "c"]
    assert "layer 1, head 1" in views.head.layout.title.text


def test_a_seq2seq_model_has_three_kinds_with_the_right_axes(registry):
    entry = registry.get("copy")
    assert kinds_of(entry) == ("encoder", "decoder", "cross")
    attention = forward_pass(entry, "abcde", "abc", "en")
    weights, queries, keys, _ = weights_of(attention, "cross")
    assert weights.shape == (2, 2, 4, 5)                                      # bos + 3 target queries, 5 source keys
    assert queries == ["<bos>", "a", "b", "c"] and keys == list("abcde")
    encoder, _, _, _ = weights_of(attention, "encoder")
    assert encoder.shape == (1, 2, 5, 5)
    assert set(scores_of(attention, "cross")) == {"diagonal", "anti_diagonal", "first_token", "entropy"}


def test_an_empty_target_is_written_by_the_model(registry):
    entry = registry.get("copy")
    attention = forward_pass(entry, "abc", "", "en")
    assert attention.generated and attention.target_ids[0] == 1               # bos, then the greedy output
    views = attention_views(entry, "abc", "", "cross", 0, 0, True, "diagonal", "zh-CN")
    assert "目标由模型自己写出" in views.summary
    assert "各头平均" in views.head.layout.title.text


def test_the_written_target_is_the_greedy_output_kept_per_model_until_the_model_goes(registry):
    entry = registry.get("copy")
    entry = dataclasses.replace(entry, model=copy.deepcopy(entry.model))         # a model of this test only
    source = entry.tokenizer.encode("abcd")
    with torch.inference_mode():
        written = attention_tab._greedy_target(entry, source)
        budget = attention_tab.GREEDY_TOKENS_PER_SOURCE_TOKEN * len(source) + attention_tab.GREEDY_EXTRA
        assert budget < entry.config.max_len - 1                                  # the length cap is what binds
        stepper = Stepper(entry.model, entry.tokenizer, "abcd", SamplingConfig(max_new_tokens=budget))
        for _ in stepper.run():
            pass
    assert written == [i for i in stepper.generated_ids if i != 2]                # the Stepper's greedy output, no eos
    assert 0 < len(written) <= budget
    kept = attention_tab._greedy_targets[entry.model]
    assert list(kept) == [tuple(source)] and attention_tab._greedy_target(entry, source) == written
    before, model = len(attention_tab._greedy_targets), weakref.ref(entry.model)
    del entry, kept, stepper
    gc.collect()
    assert model() is None and len(attention_tab._greedy_targets) == before - 1     # gone with its model


def test_head_scores_find_a_previous_token_head(registry):
    entry = registry.get("tiny-gpt")
    attention = forward_pass(entry, "abcabc", "", "en")
    scores = scores_of(attention, "decoder")
    assert set(scores) == {"previous_token", "first_token", "entropy", "induction"}
    assert all(values.shape == (2, 2) and np.all((0 <= values) & (values <= 1)) for values in scores.values())


def test_the_shape_table_lists_every_recorded_tensor(registry):
    entry = registry.get("tiny-bert")
    views = attention_views(entry, "abc", "", "encoder", 0, 0, False, "entropy", "zh-CN")
    names = list(views.shapes.data[0].cells.values[1])
    assert names[0] == "encoder.tok_embed" and names[-1] == "logits"
    assert "encoder.0.self_attn.weights" in names
    notes = views.shapes.data[0].cells.values[3]
    assert any("softmax" in note and "每行之和为 1" in note for note in notes)


@pytest.mark.parametrize("name, kind, value, target, fragment", [
    ("copy", "cross", "", "", "empty"),
    ("copy", "cross", "x" * 201, "", "200"),
    ("copy", "cross", "abcz", "", "'z'"),
    ("copy", "cross", "abc", "abq", "'q'"),
    ("copy", "cross", "abcdefghij" * 2, "", "at most 16"),                   # the model's context
    ("untrained-gpt", "decoder", "a" * (MAX_ATTENTION_TOKENS + 1), "", f"at most {MAX_ATTENTION_TOKENS}"),
])
def test_bad_input_is_refused_with_what_to_change(registry, name, kind, value, target, fragment):
    with pytest.raises(gr.Error) as excinfo:
        attention_views(registry.get(name), value, target, kind, 0, 0, False, "entropy", "en")
    assert fragment in excinfo.value.message


def test_a_kind_the_model_lacks_is_refused(registry):
    with pytest.raises(gr.Error) as excinfo:
        attention_views(registry.get("tiny-gpt"), "abc", "", "cross", 0, 0, False, "diagonal", "en")
    assert "decoder" in excinfo.value.message


def test_the_summary_shows_the_held_out_loss_and_its_perplexity_or_that_none_is_known(registry):
    entry = registry.get("tiny-gpt")
    assert entry.held_out_loss is None                                        # saved without training metadata
    assert "No held-out loss is known" in attention_views(entry, "abc", "", "decoder", 0, 0, False, "induction",
                                                          "en").summary
    trained = dataclasses.replace(entry, name="trained-lm", source="session", held_out_loss=math.log(2.5))
    english = attention_views(trained, "abc", "", "decoder", 0, 0, False, "induction", "en").summary
    assert "Held-out loss **0.9163** nats per token, perplexity e^loss = **2.500**" in english
    chinese = attention_views(trained, "abc", "", "decoder", 0, 0, False, "induction", "zh-CN").summary
    assert "留出集损失 **0.9163**" in chinese and "困惑度 e^损失 = **2.500**" in chinese
    assert "没有已知的留出集损失" in attention_views(entry, "abc", "", "decoder", 0, 0, False, "induction",
                                                  "zh-CN").summary


@pytest.mark.parametrize("metadata, expected", [
    ({"val_loss": 1.25}, 1.25), ({"val_loss": 0}, 0.0), ({}, None), ({"val_loss": None}, None),
    ({"val_loss": "1.25"}, None), ({"val_loss": float("nan")}, None), ({"val_loss": float("inf")}, None),
    ({"val_loss": True}, None),
])
def test_only_a_finite_number_in_a_checkpoints_metadata_is_a_held_out_loss(metadata, expected):
    assert held_out_loss(metadata) == expected


@pytest.mark.parametrize("metadata, expected", [
    ({"examples": ["abc", "cab"]}, ("abc", "cab")), ({}, ()), ({"examples": "abc"}, ()),
    ({"examples": ["abc", 7, "x" * 401, "x" * 400, ""]}, ("abc", "x" * 400)),
    ({"examples": [str(n) for n in range(9)]}, ("0", "1", "2", "3", "4")),
])
def test_only_a_few_short_texts_in_a_checkpoints_metadata_are_its_examples(metadata, expected):
    assert recorded_examples(metadata) == expected


def test_an_uploaded_model_has_no_known_held_out_loss_whatever_its_file_claims(registry, tmp_path):
    entry = registry.get("tiny-gpt")
    path = tmp_path / "claims.safetensors"
    path.write_bytes(to_bytes(entry.model, entry.tokenizer, metadata={"val_loss": 0.01}))
    assert load_own_model(path, "en").held_out_loss is None


@pytest.mark.parametrize("name, kind, english, chinese", [
    ("tiny-gpt", "decoder", "heads, 2 decoder layers,", "个头，2 层解码器，"),
    ("tiny-bert", "encoder", "heads, 1 encoder layers,", "个头，1 层编码器，"),
    ("copy", "cross", "1 encoder and 2 decoder layers", "1 层编码器和 2 层解码器"),
])
def test_the_summary_names_only_the_stacks_the_model_has(registry, name, kind, english, chinese):
    entry = registry.get(name)
    for lang, expected in (("en", english), ("zh-CN", chinese)):
        summary = attention_views(entry, "abc", "", kind, 0, 0, False, "first_token", lang).summary
        assert expected in summary
        if name != "copy":
            assert "0 encoder" not in summary and "0 decoder" not in summary and "0 层" not in summary
