"""Figures of patching, attribution and probes: exact values on hover, named axes, a diverging scale
centred at 0, escaped token text, and clear refusals of mismatched data."""
import numpy as np
import plotly.graph_objects as go
import pytest

from playground import viz
from playground.viz.interpretability import MAX_CELL_TEXT
from playground.viz.theme import DIVERGING_COLORSCALE

VALUES = np.array([[0.0, 1.0, -0.25], [0.5, 0.123456, 0.0]])
TOKENS = ["a", " ", "<b>"]


def test_the_patching_map_is_layer_by_position_with_token_labels_and_exact_hover_values():
    fig = viz.patching_heatmap(VALUES, ["block 0 in", "block 1 out"], TOKENS, row_label="层", position_label="位置",
                               value_label="恢复")
    go.Figure(fig.to_dict())                                                 # every property name is real
    trace = fig.data[0]
    np.testing.assert_allclose(np.asarray(trace.z), VALUES, rtol=1e-6)
    assert list(trace.y) == ["block 0 in", "block 1 out"] and list(trace.x) == ["0: a", "1: ␣", "2: &lt;b&gt;"]
    assert list(fig.layout.xaxis.ticktext) == ["a", "␣", "&lt;b&gt;"]
    assert np.asarray(trace.customdata)[1, 1] == "0.1235" and np.asarray(trace.customdata)[0, 2] == "−0.2500"
    assert "恢复: %{customdata}" in trace.hovertemplate and "位置: %{x}" in trace.hovertemplate
    assert fig.layout.xaxis.title.text == "位置" and fig.layout.yaxis.title.text == "层"
    assert (trace.zmin, trace.zmid, trace.zmax) == (-1.0, 0.0, 1.0)
    assert [list(stop) for stop in trace.colorscale] == DIVERGING_COLORSCALE


def test_a_patching_map_beyond_one_widens_its_scale_symmetrically_and_long_inputs_drop_cell_text():
    n = MAX_CELL_TEXT + 1
    wide = np.zeros((2, n))
    wide[0, 3] = -2.5
    fig = viz.patching_heatmap(wide, ["x", "y"], ["t"] * n)
    assert (fig.data[0].zmin, fig.data[0].zmax) == (-2.5, 2.5) and fig.data[0].text is None
    assert viz.patching_heatmap(VALUES, ["x", "y"], TOKENS).data[0].texttemplate == "%{text}"


def test_the_head_map_names_layers_and_heads():
    fig = viz.head_patching_heatmap(VALUES, layer_label="layer", head_label="head", value_label="restored")
    go.Figure(fig.to_dict())
    trace = fig.data[0]
    assert list(trace.y) == ["layer 0", "layer 1"] and list(trace.x) == ["head 0", "head 1", "head 2"]
    assert np.asarray(trace.text)[1, 1] == "0.12" and np.asarray(trace.customdata)[1, 1] == "0.1235"
    assert fig.layout.xaxis.title.text == "head" and fig.layout.yaxis.title.text == "layer" and trace.zmid == 0


def test_the_attribution_bars_colour_by_sign_and_state_the_sum_and_the_logit():
    fig = viz.logit_attribution_bars(["embed", "L0 H1", "L0 <MLP>"], [1.5, -0.25, 2.0], 3.25, logit_label="logit")
    go.Figure(fig.to_dict())
    trace = fig.data[0]
    assert list(trace.x) == ["embed", "L0 H1", "L0 &lt;MLP&gt;"]
    np.testing.assert_allclose(np.asarray(trace.y), [1.5, -0.25, 2.0])
    colors = list(trace.marker.color)
    assert colors[0] == colors[2] != colors[1]
    assert list(trace.customdata) == ["1.5000", "−0.2500", "2.0000"]
    note = fig.layout.annotations[0].text
    assert "3.250" in note and "logit: 3.250" in note
    assert fig.layout.yaxis.title.text and fig.layout.xaxis.title.text


def test_the_probe_figure_draws_probe_control_and_a_dashed_chance_line():
    fig = viz.probe_accuracy(["embed", "block 0", "block 1"], [0.5, 0.9, 0.97], [0.5, 0.52, 0.49], 0.5,
                             probe_label="probe", control_label="control", chance_label="chance")
    go.Figure(fig.to_dict())
    names = [t.name for t in fig.data]
    assert names == ["probe", "control", "chance"]
    np.testing.assert_allclose(np.asarray(fig.data[0].y), [0.5, 0.9, 0.97], rtol=1e-6)
    assert fig.data[2].line.dash == "dash" and list(fig.data[2].y) == [0.5] * 3
    assert fig.layout.yaxis.tickformat == ".0%" and "%{y:.1%}" in fig.data[0].hovertemplate


@pytest.mark.parametrize("make, message", [
    (lambda: viz.patching_heatmap(VALUES, ["x"], TOKENS), "row_labels"),
    (lambda: viz.patching_heatmap(VALUES, ["x", "y"], TOKENS[:2]), "tokens"),
    (lambda: viz.patching_heatmap(VALUES[0], ["x"], TOKENS), "2 dimensions"),
    (lambda: viz.head_patching_heatmap(np.full((2, 2), np.nan)), "NaN"),
    (lambda: viz.logit_attribution_bars(["a"], [1.0, 2.0], 3.0), "labels"),
    (lambda: viz.logit_attribution_bars(["a"], [1.0], float("nan")), "logit"),
    (lambda: viz.logit_attribution_bars(["a", "a"], [1.0, 2.0], 3.0), "once"),
    (lambda: viz.probe_accuracy(["a", "b"], [0.5], [0.5], 0.5), "one entry per layer"),
    (lambda: viz.probe_accuracy(["a"], [1.5], [0.5], 0.5), r"\[0, 1\]"),
])
def test_mismatched_data_is_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()
