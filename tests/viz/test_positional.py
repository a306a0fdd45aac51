import numpy as np
import pytest

from playground.viz import (
    cosine_similarity,
    position_similarity,
    positional_curves,
    positional_heatmap,
    rope_angles,
    rope_rotation,
)
from tests.viz.sample_data import figure_json_array, sinusoidal


def test_heatmap_shows_the_matrix_as_float32_with_a_symmetric_diverging_range():
    pe = sinusoidal(16, 8)
    fig = positional_heatmap(pe)
    np.testing.assert_array_equal(fig.data[0].z, pe)
    assert figure_json_array(fig, 0, "z").dtype == np.float32
    assert fig.data[0].zmin == -fig.data[0].zmax


def test_curves_are_the_chosen_columns():
    pe = sinusoidal(20, 8)
    fig = positional_curves(pe, [0, 5])
    np.testing.assert_array_equal(fig.data[0].y, pe[:, 0])
    np.testing.assert_array_equal(fig.data[1].y, pe[:, 5])
    np.testing.assert_array_equal(fig.data[1].x, np.arange(20))
    with pytest.raises(ValueError, match="outside 0..7"):
        positional_curves(pe, [8])


def test_similarity_matrix_is_symmetric_cosine_with_unit_diagonal():
    pe = sinusoidal(12, 16)
    fig = position_similarity(pe)
    z = fig.data[0].z
    np.testing.assert_array_equal(z, z.T)
    np.testing.assert_allclose(np.diag(z), 1.0, atol=1e-6)
    unit = pe / np.linalg.norm(pe, axis=1, keepdims=True)
    np.testing.assert_allclose(z, unit @ unit.T, atol=1e-5)


def test_similarity_of_learned_embeddings_with_a_zero_row():
    learned = np.random.default_rng(0).normal(size=(6, 4)).astype(np.float32)
    learned[2] = 0.0
    sim = cosine_similarity(learned)
    np.testing.assert_array_equal(sim, sim.T)
    assert np.all(sim[2] == 0.0)


def test_rope_points_are_the_unit_vector_rotated_by_position_times_theta():
    d_model, pairs, n = 16, [0, 3], 10
    angles = rope_angles(d_model, pairs, n)
    theta3 = 10000.0 ** (-2 * 3 / d_model)
    np.testing.assert_allclose(angles[1], np.arange(n) * theta3)
    np.testing.assert_allclose(angles[0], np.arange(n))  # theta_0 = 1
    fig = rope_rotation(d_model, pairs, n)
    points = [t for t in fig.data if t.mode == "markers"]
    assert len(points) == 2
    np.testing.assert_allclose(points[1].x, np.cos(np.arange(n) * theta3), atol=1e-6)
    np.testing.assert_allclose(points[1].y, np.sin(np.arange(n) * theta3), atol=1e-6)


@pytest.mark.parametrize("d_model, pairs, message", [(7, [0], "even"), (8, [4], "outside 0..3")])
def test_rope_refuses_impossible_pairs(d_model, pairs, message):
    with pytest.raises(ValueError, match=message):
        rope_rotation(d_model, pairs, 4)


def test_rope_panel_titles_name_pair_and_dims_on_two_lines_in_the_callers_words():
    fig = rope_rotation(16, [0, 3, 5, 6, 7], 10, pair_label="维度对", dims_label="维")
    titles = [a.text for a in fig.layout.annotations]
    assert titles[1] == "维度对 3<br>(维 6, 7)"
    domains = [fig.layout[f"xaxis{k if k > 1 else ''}"].domain for k in range(1, 6)]
    first_row = sorted(domains[:4])
    assert all(a[1] < b[0] for a, b in zip(first_row, first_row[1:]))   # four panels a row, side by side
    assert fig.layout.yaxis5.domain[1] < fig.layout.yaxis.domain[0]       # the fifth starts a second row


def test_the_similarity_hover_names_both_positions_without_an_english_plural():
    fig = position_similarity(np.eye(4, dtype=np.float32), position_label="位置")
    assert fig.data[0].hovertemplate.startswith("位置 %{y} · 位置 %{x}")
