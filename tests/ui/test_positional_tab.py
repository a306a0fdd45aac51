import gradio as gr
import numpy as np
import pytest

from playground.model import sinusoidal_table
from playground.ui.tabs.positional import model_position_views, rope_view, shuffle_demo, sinusoidal_views


def test_the_heatmap_is_the_sinusoidal_table_and_curves_are_its_columns():
    heatmap, curves, similarity = sinusoidal_views(16, 10, [0, 3], "en")
    table = sinusoidal_table(10, 16).numpy()
    np.testing.assert_allclose(np.asarray(heatmap.data[0].z, dtype=float), table, atol=1e-6)
    np.testing.assert_allclose(np.asarray(curves.data[1].y, dtype=float), table[:, 3], atol=1e-6)
    sim = np.asarray(similarity.data[0].z, dtype=float)
    np.testing.assert_allclose(np.diag(sim), 1.0, atol=1e-5)


@pytest.mark.parametrize("args, fragment", [
    ((15, 10, [0]), "even"),
    ((16, 10, [16]), "[16]"),
    ((16, 10, []), "at least one"),
    ((1024, 10, [0]), "512"),
])
def test_bad_settings_are_refused(args, fragment):
    with pytest.raises(gr.Error) as excinfo:
        sinusoidal_views(*args, "en")
    assert fragment in excinfo.value.message


def test_a_model_with_learned_positions_shows_its_table_and_rope_explains_itself(registry):
    heatmap, similarity, note = model_position_views(registry.get("tiny-gpt"), "en")
    learned = registry.get("tiny-gpt").model.decoder.embed.positions.embedding.weight.detach().numpy()
    np.testing.assert_allclose(np.asarray(heatmap.data[0].z, dtype=float), learned, atol=1e-6)
    assert "learned" in note
    heatmap, similarity, note = model_position_views(registry.get("tiny-bert"), "zh-CN")
    assert heatmap is None and similarity is None and "RoPE" in note


def test_rope_turns_each_pair_by_its_own_angle():
    figure = rope_view(8, 5, [0, 3], "en")
    markers = [trace for trace in figure.data if trace.mode == "markers"]
    angles = [np.asarray(trace.customdata, dtype=float)[:, 1] for trace in markers]
    np.testing.assert_allclose(angles[0], np.arange(5), atol=1e-5)           # pair 0: theta = 1
    np.testing.assert_allclose(angles[1], np.arange(5) * 10000 ** (-6 / 8), atol=1e-5)
    with pytest.raises(gr.Error):
        rope_view(8, 5, [4], "en")


def test_without_positions_a_shuffled_input_gives_shuffled_outputs():
    rows, summary = shuffle_demo("the cat sat", 1, "en")
    by_encoding = {row[0]: (float(row[1]), row[2]) for row in rows}
    assert by_encoding["none"][0] < 1e-4 and "invisible" in by_encoding["none"][1]
    for name in ("sinusoidal", "learned", "RoPE"):
        assert by_encoding[name][0] > 1e-2 and "sees the order" in by_encoding[name][1]
    assert "`the cat sat`" in summary
    with pytest.raises(gr.Error):
        shuffle_demo("a", 0, "en")
