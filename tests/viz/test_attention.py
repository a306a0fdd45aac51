import numpy as np
import pytest

from playground.viz import attention_filling, attention_grid, attention_head, attention_mean, attention_snapshots
from playground.viz.attention import GRID_PRECISION, GRID_SCALE, block_max
from tests.viz.sample_data import figure_json_array, softmax_weights

TOKENS = list("a cat a")  # duplicate "a" and " " tokens must stay separate rows


def test_grid_holds_every_head_within_the_stated_precision():
    weights = softmax_weights((2, 3, 7, 7), causal=True)
    fig = attention_grid(weights, TOKENS, TOKENS)
    assert len(fig.data) == 6
    for layer in range(2):
        for head in range(3):
            stored = figure_json_array(fig, layer * 3 + head, "z")  # what the browser receives
            assert stored.dtype == np.uint8
            np.testing.assert_allclose(stored / GRID_SCALE, weights[layer, head], atol=GRID_PRECISION + 1e-7)
    assert fig.layout.coloraxis.cmin == 0 and fig.layout.coloraxis.cmax == GRID_SCALE


def test_grid_builds_at_classroom_size_with_every_subplot_inside_the_figure():
    fig = attention_grid(softmax_weights((6, 8, 3, 3)), list("abc"), list("abc"))
    assert len(fig.data) == 48
    domains = [fig.layout[f"yaxis{k if k > 1 else ''}"].domain for k in range(1, 49)]
    assert all(0.0 <= lo < hi <= 1.0 for lo, hi in domains)


def test_a_grid_too_small_on_screen_for_each_token_shows_the_largest_weight_of_each_block():
    tokens = [f"t{i}" for i in range(128)]
    weights = softmax_weights((6, 8, 128, 128), causal=True)
    weights[2, 5] = np.eye(128)                              # a diagonal head: one bright pair per row
    fig = attention_grid(weights, tokens, tokens, weight_label="权重", block_label="{block} × {block} 中的最大值")
    stored = figure_json_array(fig, 2 * 8 + 5, "z")
    assert stored.shape == (43, 43)                          # 128 tokens in blocks of 3 (the last of 2)
    np.testing.assert_array_equal(np.diag(stored), np.full(43, GRID_SCALE))      # the diagonal stays bright
    assert stored[1, 0] == 0
    exact = np.rint(weights[0, 0] * GRID_SCALE)
    np.testing.assert_array_equal(figure_json_array(fig, 0, "z")[4, :3], [exact[12:15, 3 * k:3 * k + 3].max()
                                                                         for k in range(3)])
    trace = fig.data[0]
    assert trace.y[0] == "0: t0 … 2: t2" and trace.y[-1] == "126: t126 … 127: t127" and len(set(trace.y)) == 43
    assert "权重 (3 × 3 中的最大值)" in trace.hovertemplate


def test_a_grid_with_room_for_every_token_keeps_them_all():
    tokens = [str(i) for i in range(80)]
    fig = attention_grid(softmax_weights((4, 4, 80, 80)), tokens, tokens)
    assert figure_json_array(fig, 0, "z").shape == (80, 80) and "largest" not in fig.data[0].hovertemplate


def test_block_max_pads_the_last_block():
    values = np.arange(20, dtype=np.uint8).reshape(4, 5)
    np.testing.assert_array_equal(block_max(values, 2), [[6, 8, 9], [16, 18, 19]])
    assert block_max(values, 1) is values


def test_grid_axes_are_the_tokens_and_hover_names_layer_and_head():
    query = ["x", "y"]
    keys = ["p", "q", "p"]
    fig = attention_grid(softmax_weights((2, 2, 2, 3)), query, keys, layer_label="层", head_label="头")
    trace = fig.data[3]  # layer 1, head 1
    assert list(trace.y) == ["0: x", "1: y"]
    assert list(trace.x) == ["0: p", "1: q", "2: p"]
    assert "层 1 · 头 1" in trace.hovertemplate
    assert {a.text for a in fig.layout.annotations} == {"层 0", "层 1", "头 0", "头 1"}


def test_head_keeps_exact_float32_weights_and_token_ticks():
    weights = softmax_weights((7, 7), causal=True)
    fig = attention_head(weights, TOKENS, TOKENS, title="Encoder self-attention")
    assert figure_json_array(fig, 0, "z").dtype == np.float32
    np.testing.assert_array_equal(fig.data[0].z, weights)
    assert list(fig.layout.xaxis.ticktext) == ["a", "␣", "c", "a", "t", "␣", "a"]
    assert list(fig.layout.yaxis.tickvals) == list(fig.data[0].y)
    assert len(set(fig.data[0].x)) == 7
    assert fig.layout.title.text == "Encoder self-attention"
    assert "%{y}" in fig.data[0].hovertemplate and "%{x}" in fig.data[0].hovertemplate


def test_cross_attention_uses_decoder_queries_and_encoder_keys():
    fig = attention_head(softmax_weights((2, 4)), ["<s>", "b"], list("wxyz"))
    assert list(fig.layout.yaxis.ticktext) == ["&lt;s&gt;", "b"]
    assert list(fig.layout.xaxis.ticktext) == list("wxyz")


def test_mean_is_the_average_over_heads():
    weights = softmax_weights((4, 3, 5), seed=1)
    fig = attention_mean(weights, list("abc"), list("vwxyz"))
    np.testing.assert_allclose(fig.data[0].z, weights.mean(axis=0), rtol=1e-6)


def test_filling_blanks_rows_after_the_current_step():
    weights = softmax_weights((5, 5), causal=True)
    fig = attention_filling(weights, list("abcde"), step=2)
    z = fig.data[0].z
    np.testing.assert_array_equal(z[:3], weights[:3])
    assert np.isnan(z[3:]).all()
    row = fig.layout.shapes[0]
    assert (row.y0, row.y1) == (1.5, 2.5)


def test_snapshot_slider_switches_visible_trace_without_frames():
    weights = softmax_weights((3, 2, 4), seed=2)
    fig = attention_snapshots([0, 50, 100], weights, ["a", "b"], list("abcd"))
    assert not fig.frames
    assert [t.visible for t in fig.data] == [False, False, True]
    slider = fig.layout.sliders[0]
    assert [s.label for s in slider.steps] == ["0", "50", "100"]
    assert slider.steps[1].args[0]["visible"] == [False, True, False]
    for i in range(3):
        np.testing.assert_allclose(figure_json_array(fig, i, "z") / GRID_SCALE, weights[i], atol=GRID_PRECISION + 1e-7)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: attention_grid(np.ones((2, 2, 2)), ["a"], ["a"]), "4 dimensions"),
        (lambda: attention_grid(softmax_weights((1, 1, 2, 2)), ["a"], ["a", "b"]), "query_tokens has 1 tokens"),
        (lambda: attention_head(np.full((2, 2), 3.0), ["a", "b"], ["a", "b"]), "not raw scores"),
        (lambda: attention_head(np.full((2, 2), np.nan), ["a", "b"], ["a", "b"]), "NaN"),
        (lambda: attention_filling(softmax_weights((3, 3)), list("abc"), step=3), "between 0 and 2"),
        (lambda: attention_filling(softmax_weights((3, 2)), list("abc"), step=0), "square"),
        (lambda: attention_snapshots([0], softmax_weights((2, 2, 2)), ["a", "b"], ["a", "b"]), "snapshots"),
    ],
)
def test_bad_inputs_are_refused_with_a_reason(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_every_token_of_a_long_input_keeps_its_label_with_room_for_it():
    tokens = [chr(97 + i % 26) for i in range(120)]
    fig = attention_head(softmax_weights((120, 120), causal=True), tokens, tokens)
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        assert axis.tickmode == "array" and list(axis.ticktext) == tokens and len(axis.tickvals) == 120
    assert fig.layout.height / 120 > fig.layout.yaxis.tickfont.size                      # a row per label
