import numpy as np
import pytest

from playground.viz import compare_runs, head_scores_heatmap, head_scores_over_steps, training_curves

HISTORY = {
    "step": [0, 10, 20, 30],
    "loss": [3.0, 2.0, 1.5, 1.2],
    "val_loss": [3.1, None, 1.7, None],
    "accuracy": [0.1, 0.3, 0.5, 0.6],
    "lr": [0.0, 1e-3, 1e-3, 5e-4],
    "tokens_per_s": [900.0, 1000.0, 1100.0, 1050.0],
}


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_curves_plot_each_column_against_step_with_gaps_for_missing_validation():
    fig = training_curves(HISTORY, series_names={"val_loss": "验证损失"})
    np.testing.assert_array_equal(_trace(fig, "train loss").y, np.float32(HISTORY["loss"]))
    val = _trace(fig, "验证损失").y
    assert val.dtype == np.float32
    np.testing.assert_allclose(val[[0, 2]], [3.1, 1.7], rtol=1e-6)
    assert np.isnan(val[[1, 3]]).all()
    np.testing.assert_array_equal(_trace(fig, "learning rate").x, HISTORY["step"])
    assert "exact match" not in {t.name for t in fig.data}
    assert _trace(fig, "tokens/s").xaxis == "x4"


def test_curves_refuse_columns_of_the_wrong_length():
    with pytest.raises(ValueError, match="'accuracy' has 2 entries"):
        training_curves({**HISTORY, "accuracy": [0.1, 0.2]})


def test_compare_runs_overlays_each_run_in_its_own_colour():
    other = {**HISTORY, "loss": [3.0, 2.8, 2.7, 2.6]}
    fig = compare_runs({"correct": HISTORY, "no 1/sqrt(d_k)": other}, metrics=["loss"])
    assert [t.name for t in fig.data] == ["correct · loss", "no 1/sqrt(d_k) · loss"]
    np.testing.assert_array_equal(fig.data[1].y, np.float32(other["loss"]))
    assert fig.data[0].line.color != fig.data[1].line.color
    assert fig.data[1].line.width < fig.data[0].line.width       # on top and thinner: a run it matches shows under it


def test_head_scores_over_steps_rows_are_heads_columns_are_steps():
    scores = np.random.default_rng(0).random((3, 2, 4)).astype(np.float32)  # [S, L, H]
    fig = head_scores_over_steps([0, 100, 200], scores, score_name="induction")
    z = fig.data[0].z
    assert list(fig.data[0].y)[5] == "L1 H1"
    np.testing.assert_array_equal(z[5], scores[:, 1, 1])
    np.testing.assert_array_equal(fig.data[0].x, [0, 100, 200])
    assert fig.layout.title.text == "induction over training"


def test_head_scores_over_steps_spans_the_run_and_no_step_outside_it():
    scores = np.full((4, 1, 2), 0.5, dtype=np.float32)
    fig = head_scores_over_steps([0, 121, 243, 356], scores)
    assert list(fig.layout.xaxis.range) == [0, 356]             # not -60 .. 412: half a column past each end
    one = head_scores_over_steps([40], scores[:1])
    assert one.layout.xaxis.range is None                       # one snapshot: Plotly's own width for its column


def test_head_scores_heatmap_is_layers_by_heads():
    scores = np.array([[0.1, 0.9], [0.4, 0.2]], dtype=np.float32)
    fig = head_scores_heatmap(scores)
    np.testing.assert_array_equal(fig.data[0].z, scores)
    assert list(fig.data[0].y) == ["layer 0", "layer 1"]


def test_curves_draw_perplexity_and_gradient_norm_with_the_clipping_threshold():
    history = {**HISTORY, "perplexity": [22.2, None, 5.47, None], "grad_norm": [4.0, 2.5, 0.9, 0.7]}
    fig = training_curves(history, grad_clip=1.0, clip_label="clip")
    perplexity = _trace(fig, "validation perplexity")
    np.testing.assert_allclose(perplexity.y[[0, 2]], [22.2, 5.47], rtol=1e-6)
    grad = _trace(fig, "gradient norm")
    np.testing.assert_allclose(grad.y, history["grad_norm"], rtol=1e-6)
    line = next(shape for shape in fig.layout.shapes if shape.type == "line")
    assert line.y0 == line.y1 == 1.0 and line.yref == grad.yaxis
    named = _trace(fig, "clip = 1")                         # named in the legend, not written over the curve
    assert named.line.dash == "dash" and named.showlegend is not False
    assert not any("clip" in a.text for a in fig.layout.annotations)


def test_curves_without_clipping_draw_no_threshold():
    assert not training_curves({**HISTORY, "grad_norm": [1.0] * 4}).layout.shapes


def test_schedule_figure_draws_each_rate_at_its_step():
    from playground.viz import learning_rate_schedule

    fig = learning_rate_schedule([1, 2, 3], [1e-4, 2e-4, 1.5e-4], rate_label="学习率")
    np.testing.assert_array_equal(fig.data[0].x, [1, 2, 3])
    np.testing.assert_allclose(fig.data[0].y, [1e-4, 2e-4, 1.5e-4])
    assert fig.layout.yaxis.title.text == "学习率"
    with pytest.raises(ValueError, match="one length"):
        learning_rate_schedule([1, 2], [1e-4])
