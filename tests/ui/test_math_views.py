"""The views of masks, attention by hand, LayerNorm, blanks, embeddings and exposure bias: what they
return for good input, and the message (in the session's language) for bad input."""
import html

import gradio as gr
import numpy as np
import pytest

from playground.analysis.worked_attention import traced_run, work_through
from playground.model import DECODER_SELF
from playground.ui.session.examples import EXPOSURE_EXAMPLES, FILL_EXAMPLES, MASK_EXAMPLES
from playground.zoo import ModelRegistry
from playground.ui.views.embeddings import embedding_view, find_token
from playground.ui.views.exposure import exposure_view
from playground.ui.views.fill_blanks import MAX_BLANKS, fill_view
from playground.ui.views.masks import mask_views
from playground.ui.views.norms import batch_norm_view, layer_norm_view, residual_view
from playground.ui.views.worked_attention import worked_attention_view


def _error(call, *args) -> str:
    """The message `call` refuses its input with, as the page shows it (its references decoded)."""
    with pytest.raises(gr.Error) as excinfo:
        call(*args)
    return html.unescape(excinfo.value.message)


def test_masks_one_figure_per_site_and_a_nan_row_explained(registry):
    figures, nan_figure, explanation = mask_views(registry.get("copy"), "abcdef", "abc", "en")
    assert len(figures) == 3                                                # encoder, decoder, cross
    assert "[2, 1, 1, 6]" in figures[0].layout.annotations[0].text          # the source's key padding
    assert -1 in np.asarray(nan_figure.data[1].z)                           # the shorter input's empty rows
    assert "NaN" in explanation
    figures, _, _ = mask_views(registry.get("tiny-gpt"), "abcdef", "abc", "zh-CN")
    assert len(figures) == 1 and len(figures[0].data) == 6                  # 2 inputs x 3 masks


@pytest.mark.parametrize("lang, fragment", [("en", "shorter"), ("zh-CN", "短")])
def test_masks_need_two_lengths(registry, lang, fragment):
    assert fragment in _error(mask_views, registry.get("copy"), "abc", "cba", lang)


def test_attention_by_hand_draws_the_heads_own_weights(registry):
    entry = registry.get("tiny-gpt")
    vectors, steps, explanation = worked_attention_view(entry, "abcdefg", "decoder", 1, 1, "en")
    worked = work_through(traced_run(entry.model, None, entry.tokenizer.encode("abcd")), DECODER_SELF, 1, 1)
    np.testing.assert_allclose(np.asarray(steps.data[3].z, dtype=float), worked.weights.numpy(), atol=1e-9)
    assert len(vectors.data) == 4 and "W_o" in explanation


@pytest.mark.parametrize("args, fragment", [(("cross", 0, 0), "cross"), (("decoder", 5, 0), "5"),
                                            (("decoder", 0, 2), "2"), (("decoder", 0, 0.5), "whole")])
def test_attention_by_hand_refuses_sites_layers_and_heads_the_model_lacks(registry, args, fragment):
    assert fragment in _error(worked_attention_view, registry.get("tiny-gpt"), "abc", *args, "en")


def test_layer_norm_views_and_their_limits(registry):
    figure, table = layer_norm_view(registry.get("tiny-bert"), "abc", 0, 2, "zh-CN")
    assert len(figure.data) == 3 and table.count("\n|") >= 6
    figure, explanation = batch_norm_view(registry.get("copy"), "abcdef", "en")
    assert np.asarray(figure.data[0].z).shape == (4, 6)
    figure, explanation = residual_view(registry.get("copy"), "abc", "en")
    assert len(figure.data) == 3 and "pre-norm" in explanation            # dots and one mean line per stack
    assert "0" in _error(layer_norm_view, registry.get("tiny-bert"), "abc", 0, 3, "en")


def test_fill_view_fills_each_blank_and_explains_what_to_change(registry):
    figure, explanation = fill_view(registry.get("tiny-bert"), "ab_d_f", "en")
    assert len(figure.data) == 2 and all(len(bar.x) == 5 for bar in figure.data)
    assert "_" in _error(fill_view, registry.get("tiny-bert"), "abcd", "en")
    assert str(MAX_BLANKS) in _error(fill_view, registry.get("tiny-bert"), "_" * (MAX_BLANKS + 1), "en")
    assert "tiny-gpt" in _error(fill_view, registry.get("tiny-gpt"), "a_c", "zh-CN")
    assert "z" in _error(fill_view, registry.get("tiny-bert"), "a_z", "en")     # not in the vocabulary


def test_embedding_view_finds_one_token_by_its_text(registry):
    entry = registry.get("tiny-gpt")
    assert find_token(entry, " ", "en") == find_token(entry, "␣", "en") == entry.tokenizer.encode(" ")[0]
    bars, emb_map, explanation = embedding_view(entry, "a", "en")
    assert len(bars.data[0].x) == 10 and "a" in list(emb_map.data[-1].text)
    assert "2" in _error(embedding_view, entry, "ab", "en")
    assert _error(embedding_view, entry, "", "zh-CN")


def test_exposure_view_and_its_limits(registry):
    figure, explanation = exposure_view(registry.get("tiny-gpt"), "abc", "defgh", "en")
    assert list(figure.data[0].y) == ["target", "teacher-forced", "free-running"]
    figure, _ = exposure_view(registry.get("copy"), "abc", "abc", "zh-CN")
    assert len(figure.data[0].x) == 4                                       # three letters and eos
    assert "tiny-bert" in _error(exposure_view, registry.get("tiny-bert"), "abc", "abc", "en")
    assert "21" in _error(exposure_view, registry.get("tiny-gpt"), "abc", "a" * 30, "en")   # 24 positions, 3 read


def test_the_examples_work_on_the_shipped_models():
    shipped = ModelRegistry()
    for name, (first, second) in MASK_EXAMPLES.items():
        mask_views(shipped.get(name), first, second, "en")
    for name, values in FILL_EXAMPLES.items():
        for value in values:
            fill_view(shipped.get(name), value, "en")
    _, explanation = exposure_view(shipped.get("sort"), *EXPOSURE_EXAMPLES["sort"][0], "en")
    assert "position 2" in explanation
    for name, pairs in EXPOSURE_EXAMPLES.items():
        for prompt, target in pairs:
            exposure_view(shipped.get(name), prompt, target, "en")
