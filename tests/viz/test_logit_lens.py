import numpy as np
import plotly.graph_objects as go
import pytest

from playground.viz.logit_lens import MAX_CELL_TEXT, MAX_TICK_LABELS, logit_lens_heatmap

PROBS = np.array([[0.1, 0.9, 0.4], [0.5, 0.2, 1.0]])
TOKENS = [["a", " ", "<b>"], ["c", "a", "d"]]


def test_each_cell_is_a_layer_and_position_with_its_token_and_probability_on_hover():
    fig = logit_lens_heatmap(PROBS, TOKENS, list("xyx"), layer_label="层", probability_label="概率")
    go.Figure(fig.to_dict())                                                 # every property name is real
    trace = fig.data[0]
    np.testing.assert_allclose(np.asarray(trace.z), PROBS)
    assert list(trace.y) == ["层 0", "层 1"] and list(trace.x) == ["0: x", "1: y", "2: x"]
    assert np.asarray(trace.customdata).tolist() == [["a", "␣", "&lt;b&gt;"], ["c", "a", "d"]]
    assert "%{customdata}" in trace.hovertemplate and "概率: %{z:.1%}" in trace.hovertemplate
    assert trace.texttemplate == "%{text}"


def test_cells_print_their_token_in_a_font_fitted_to_the_cell_up_to_a_long_input():
    n = 40                                                      # an input over 20 tokens still prints its tokens
    fig = logit_lens_heatmap(np.full((2, n), 0.5), [["t"] * n] * 2, ["x"] * n)
    trace = fig.data[0]
    assert np.asarray(trace.text).shape == (2, n) and trace.texttemplate == "%{text}"
    assert trace.textfont.size is None                          # unset: Plotly sizes the text to the cell


def test_longer_inputs_leave_the_tokens_to_the_hover():
    n = MAX_CELL_TEXT + 1
    fig = logit_lens_heatmap(np.full((1, n), 0.5), [["t"] * n], ["x"] * n)
    assert fig.data[0].text is None and "%{customdata}" in fig.data[0].hovertemplate


@pytest.mark.parametrize("n", [MAX_TICK_LABELS, MAX_TICK_LABELS + 1, 60, MAX_CELL_TEXT + 10])
def test_the_axis_labels_at_most_a_readable_number_of_tokens_evenly(n):
    inputs = [f"w{i}" for i in range(n)]
    fig = logit_lens_heatmap(np.full((1, n), 0.5), [["t"] * n], inputs)
    axis = fig.layout.xaxis
    assert 1 <= len(axis.tickvals) <= MAX_TICK_LABELS and axis.tickvals[0] == "0: w0"
    steps = {int(b.split(":")[0]) - int(a.split(":")[0]) for a, b in zip(axis.tickvals, axis.tickvals[1:])}
    assert len(steps) <= 1                                      # evenly spaced
    assert list(axis.ticktext) == [v.split(": ", 1)[1] for v in axis.tickvals]
    assert len(fig.data[0].x) == n                              # every position is still a column


@pytest.mark.parametrize("probs, tokens, inputs, message", [
    (PROBS, TOKENS[:1], list("xyx"), "rows"),
    (PROBS, TOKENS, list("xy"), "input_tokens"),
    (PROBS * 2, TOKENS, list("xyx"), r"\[0, 1\]"),
])
def test_mismatched_data_is_refused(probs, tokens, inputs, message):
    with pytest.raises(ValueError, match=message):
        logit_lens_heatmap(probs, tokens, inputs)
