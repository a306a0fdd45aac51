import html
import random

import gradio as gr
import numpy as np
import pytest

from playground.model import sinusoidal_table
from playground.ui.page.forms import decode_query, encode_query
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.positional import (
    PositionalForm,
    handlers,
    model_position_views,
    rope_view,
    shuffle_demo,
    sinusoidal_views,
)


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
    assert "“the cat sat”" in summary
    with pytest.raises(gr.Error):
        shuffle_demo("a", 0, "en")


def random_positional_form(rng):
    d_model, rope_dim = 2 * rng.randint(1, 256), 2 * rng.randint(1, 128)
    return PositionalForm(
        d_model=d_model, length=rng.randint(2, 512),
        dims=tuple(sorted(rng.sample(range(d_model), rng.randint(1, min(6, d_model))))),
        model=rng.choice(["copy", "tiny-gpt"]), rope_dim=rope_dim, rope_positions=rng.randint(2, 256),
        rope_pairs=tuple(sorted(rng.sample(range(rope_dim // 2), rng.randint(1, min(4, rope_dim // 2))))),
        shuffle_text="".join(rng.choice("abc &=?中") for _ in range(rng.randint(0, 20))),
        shuffle_seed=rng.randint(0, 10**6))


def test_random_positional_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(3)
    for _ in range(200):
        form = random_positional_form(rng)
        back, ignored = PositionalForm.from_query(dict(decode_query("?" + encode_query(form.to_query()))))
        assert (back, ignored) == (form, [])


@pytest.mark.parametrize("name, raw, fragment", [
    ("d_model", "15", "even"),
    ("dims", "0,x", "whole numbers"),
    ("dims", "", "whole numbers"),
    ("length", "1000", "512"),
    ("rope_pairs", "1.5", "whole numbers"),
])
def test_a_bad_positional_link_value_keeps_its_default_and_is_named(name, raw, fragment):
    form, ignored = PositionalForm.from_query({name: raw})
    assert getattr(form, name) == PositionalForm.params()[name].default
    assert [error.param for error in ignored] == [name] and fragment in str(ignored[0])


def test_a_link_drops_dimensions_the_width_lacks_and_says_so(registry):
    form, _ = PositionalForm.from_query({"d_model": "16", "dims": "0,3,40"})
    fitted, refused = form.fit(registry, {"d_model", "dims"})
    assert fitted.dims == (0, 3) and [error.param for error in refused] == ["dims"] and "40" in str(refused[0])


def test_the_positional_handlers_draw_every_part_and_follow_the_width(registry):
    workspace = Workspace("pos", registry)
    drawn = handlers.draw(workspace, PositionalForm(), "en")
    assert set(handlers.EVERYTHING) <= set(drawn)
    narrowed = handlers.change_d_model(workspace, PositionalForm(d_model=8, dims=(0, 3, 40)), "en")
    assert narrowed["dims"].constructor_args["value"] == [0, 3]
    assert np.asarray(narrowed["heatmap"].data[0].z).shape == (64, 8)
    shown = handlers.sinusoidal_refused(workspace, PositionalForm(dims=(600,)), "en")
    assert all(shown[name].data == () for name in handlers.SINUSOIDAL)
    assert "[600]" in shown["heatmap"].layout.annotations[0].text


def test_a_shuffle_text_the_order_models_cannot_read_is_refused_in_its_part_and_the_pickers_stay_lists(registry):
    """A link's shuffle text with a character the order models do not know: the shuffle part says why,
    every other part is drawn, and the dimension pickers are sent as lists of their values (left as
    the form's tuples, the page would read each back as one nested value and refuse it as "dims must
    be a whole number")."""
    workspace = Workspace("pos", registry)
    drawn = handlers.draw(workspace, PositionalForm(shuffle_text="中中"), "en")
    assert set(handlers.EVERYTHING) <= set(drawn)
    assert "中" in html.unescape(drawn["shuffle_summary"]) and "order-demo" in drawn["shuffle_summary"]
    assert drawn["heatmap"].data and drawn["rope_plot"].data                 # the other parts are drawn
    assert drawn["dims"].constructor_args["value"] == [0, 1, 10, 11, 40, 41]
    assert drawn["rope_pairs"].constructor_args["value"] == [0, 1, 3, 7]
