import numpy as np
import plotly.graph_objects as go
import pytest

from playground.viz.logit_lens import MAX_CELL_TEXT, logit_lens_heatmap

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


def test_long_inputs_leave_the_tokens_to_the_hover():
    n = MAX_CELL_TEXT + 1
    fig = logit_lens_heatmap(np.full((1, n), 0.5), [["t"] * n], ["x"] * n)
    assert fig.data[0].text is None


@pytest.mark.parametrize("probs, tokens, inputs, message", [
    (PROBS, TOKENS[:1], list("xyx"), "rows"),
    (PROBS, TOKENS, list("xy"), "input_tokens"),
    (PROBS * 2, TOKENS, list("xyx"), r"\[0, 1\]"),
])
def test_mismatched_data_is_refused(probs, tokens, inputs, message):
    with pytest.raises(ValueError, match=message):
        logit_lens_heatmap(probs, tokens, inputs)
