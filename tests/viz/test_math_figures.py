"""The figures of masks, worked attention, normalisation, blanks, embeddings and exposure bias:
valid Plotly, drawing the values they are given, refusing inputs that do not fit."""
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from playground import viz
from playground.viz import charts

CAUSAL = np.tril(np.ones((3, 3), dtype=bool))
FIGURES = {
    "mask_grid": lambda: viz.mask_grid(np.stack([np.stack([CAUSAL, ~CAUSAL])] * 2), ["a", "b"], ["c", "d"],
                                       [list("xyz")] * 2, [list("xyz")] * 2),
    "matrix_panels": lambda: viz.matrix_panels([("Q", np.eye(2), ["a", "b"], ["0", "1"])]),
    "matrix_side_by_side": lambda: viz.matrix_panels([("Q", np.eye(2), ["a", "b"], ["0", "1"]),
                                                      ("K", np.ones((3, 2)), list("abc"), ["0", "1"])]),
    "matrix_stacked": lambda: viz.matrix_panels([("Q", np.eye(2), ["a", "b"], ["0", "1"]),
                                                 ("K", np.ones((3, 2)), list("abc"), ["0", "1"])], stacked=True),
    "layer_norm_vector": lambda: viz.layer_norm_vector({"x": [1.0, 2.0, 3.0], "y": [0.0, 1.0, 0.5]}),
    "residual_norms": lambda: viz.residual_norms(["e", "b0"], [[1.0, 2.0], [3.0, 4.0]], [["a", "b"], ["a", "b"]]),
    "blank_candidates": lambda: viz.blank_candidates([("1", ["e", "a"], [0.6, 0.3])] * 5),
    "neighbour_bars": lambda: viz.neighbour_bars(["a", "b"], [0.9, -0.2]),
    "embedding_map": lambda: viz.embedding_map(np.zeros((3, 2)), ["a", "b", "c"], [1]),
    "two_decodings": lambda: viz.two_decodings(list("abc"), list("abd"), list("ab"), [0.9, 0.8, 0.1], [0.9, 0.8], None),
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_is_valid_plotly_and_unchanged_by_validation(name):
    fig = FIGURES[name]()
    validated = go.Figure(fig.to_dict())
    assert json.loads(validated.to_json()) == json.loads(fig.to_json())


def test_mask_grid_paints_visible_hidden_and_empty_rows():
    masks = np.zeros((1, 1, 2, 2), dtype=bool)
    masks[0, 0, 1, 0] = True
    fig = viz.mask_grid(masks, ["r"], ["c"], [["a", "b"]], [["a", "b"]], empty_rows=[[[True, False]]])
    assert np.asarray(fig.data[0].z).tolist() == [[-1, -1], [1, 0]]


def test_matrix_panels_write_every_number_and_infinity():
    fig = viz.matrix_panels([("m", np.array([[1.234, -np.inf]]), ["q"], ["k0", "k1"])])
    assert [list(row) for row in fig.data[0].text] == [["1.23", "−∞"]]
    with pytest.raises(ValueError, match="labels"):
        viz.matrix_panels([("m", np.eye(2), ["a"], ["0", "1"])])


def row_labels_shown(fig) -> list[bool]:
    """Per panel, left to right and top to bottom: whether its row (y) labels are drawn."""
    axes = sorted((name for name in fig.layout.to_plotly_json() if name.startswith("yaxis")),
                  key=lambda name: int(name[5:] or 1))
    return [fig.layout[name].showticklabels for name in axes]


def test_side_by_side_panels_label_rows_they_share_once_at_the_left():
    # attention by hand: Q K^T, its scaling, the mask and the softmax share their rows (the queries); K's rows differ
    queries, keys = ["<bos>", "a"], ["a", "b"]
    fig = viz.matrix_panels([("Q", np.eye(2), queries, ["0", "1"]), ("K", np.eye(2), keys, ["0", "1"]),
                             ("QK", np.eye(2), queries, keys), ("softmax", np.eye(2), queries, keys)])
    assert row_labels_shown(fig) == [True, True, True, False]
    stacked = viz.matrix_panels([("Q", np.eye(2), queries, ["0", "1"]), ("O", np.eye(2), queries, ["0", "1"])],
                                stacked=True)
    assert row_labels_shown(stacked) == [True, True]
    masks = np.ones((2, 3, 2, 2), dtype=bool)
    grid = viz.mask_grid(masks, ["r1", "r2"], list("abc"), [queries, ["c", "d"]], [keys, keys])
    assert row_labels_shown(grid) == [True, False, False, True, False, False]


def test_side_by_side_panel_titles_break_after_their_colon():
    # Inside's LayerNorm against BatchNorm: three titles over the panels of a half-width figure
    names = ["a small batch x", "LayerNorm: each row", "BatchNorm：按列"]
    fig = viz.matrix_panels([(name, np.eye(2), ["a", "b"], ["0", "1"]) for name in names])
    assert [note.text for note in fig.layout.annotations] == [
        "<b>a small batch x</b>", "<b>LayerNorm:<br>each row</b>", "<b>BatchNorm：<br>按列</b>"]
    stacked = viz.matrix_panels([(names[1], np.eye(2), ["a", "b"], ["0", "1"])], stacked=True)
    assert stacked.layout.annotations[0].text == "<b>LayerNorm: each row</b>"       # a full-width line each


def relaid(fig: go.Figure) -> dict:
    """The figure's layout after Plotly.relayout of the narrow relayout it carries (dotted keys set,
    None resetting to the default), as the page does on a phone."""
    layout = fig.to_dict()["layout"]
    update = layout.pop("meta")[viz.matrices.NARROW_META]
    for key, value in update.items():
        *path, leaf = key.split(".")
        place = layout
        for part in path:
            place = place.setdefault(part, {})
        if value is None:
            place.pop(leaf, None)
        else:
            place[leaf] = value
    return layout


def panel_boxes(layout: dict) -> list[tuple[list, list]]:
    """Each panel's (x domain, y domain), in axis order."""
    names = sorted((key for key in layout if key.startswith("xaxis")), key=lambda k: int(k[5:] or 1))
    return [(layout[name]["domain"], layout["y" + name[1:]]["domain"]) for name in names]


def test_panels_side_by_side_carry_the_relayout_that_stacks_them_as_the_stacked_figure_does():
    # a phone: Inside's worked steps at 390 px had panels a few dozen pixels wide, titles over each other
    panels = [("scores: Q K^T", np.ones((3, 3)), list("abc"), list("abc")), ("softmax", np.eye(3), list("abc"), list("abc")),
              ("V", np.ones((2, 4)), list("xy"), list("0123"))]
    side, stacked = viz.matrix_panels(panels), viz.matrix_panels(panels, stacked=True)
    narrow, target = relaid(side), stacked.to_dict()["layout"]
    assert panel_boxes(narrow) == panel_boxes(target)
    assert [(b[0], b[1][1]) for b in panel_boxes(narrow)] == [([0.0, 1.0], top) for top in
                                                               sorted((b[1][1] for b in panel_boxes(narrow)), reverse=True)]
    assert narrow["annotations"] == target["annotations"] and narrow["height"] == target["height"]
    assert [narrow[f"yaxis{s}"].get("showticklabels") for s in ("", "2", "3")] == [True, True, True]
    assert "ticks" not in narrow["yaxis2"]                  # the tick marks the shared rows had dropped are back
    go.Layout(narrow)                                       # valid Plotly once relaid
    assert "meta" not in stacked.to_dict()["layout"] and "meta" not in FIGURES["matrix_panels"]().to_dict()["layout"]


def test_a_mask_grid_stacks_on_a_phone_each_panel_titled_with_its_mask_and_input():
    masks = np.ones((2, 3, 10, 10), dtype=bool)
    tokens = [list("abcdefghij"), list("abcd") + ["<pad>"] * 6]
    title = "Causal self-attention on the batch padded on the left: rows with no visible key"
    grid = viz.mask_grid(masks, ["input 1", "input 2"], ["padding", "causal", "combined"], tokens, tokens, title=title)
    narrow = relaid(grid)
    boxes = panel_boxes(narrow)
    assert len(boxes) == 6 and all(x == [0.0, 1.0] for x, _ in boxes)
    for (_, upper), (_, lower) in zip(boxes, boxes[1:]):
        assert lower[1] < upper[0]                          # one below the other, apart, in reading order
    titles = [note["text"] for note in narrow["annotations"]]
    assert titles == [f"<b>{mask}<br>{row}</b>" for row in ("input 1", "input 2") for mask in ("padding", "causal", "combined")]
    room = [note["y"] - box[1][1] for note, box in zip(narrow["annotations"], boxes)]     # above its panel
    assert min(room) > 0 and min(room[3:]) > 1.5 * max(room[:3])     # turned <pad> labels get more room under the title
    names = [f"yaxis{s}" for s in ("", "2", "3", "4", "5", "6")]
    assert all(narrow[n]["showticklabels"] and narrow[n]["title"]["text"] == "" for n in names)
    lines = narrow["title"]["text"].split("<br>")
    assert " ".join(lines) == title and len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert narrow["height"] > grid.layout.height
    go.Layout(narrow)


def test_a_mask_grid_lays_its_key_labels_out_upright_at_presenter_size_with_room_above_each_row():
    tokens = [["<bos>"] + list("abcdefghij"), ["<bos>"] + list("abcd") + ["<pad>"] * 6]
    grid = viz.mask_grid(np.ones((2, 3, 11, 11), dtype=bool), ["input 1", "input 2"], list("abc"), tokens, tokens)
    present = grid.layout.meta[viz.matrices.PRESENT_META]
    axes = [f"xaxis{s}" for s in ("", "2", "3", "4", "5", "6")]
    assert {present[f"{x}.tickfont.size"] for x in axes} == {viz.theme.PRESENT_FONT_SIZE}
    assert {present[f"{x}.tickangle"] for x in axes} == {-90}          # "<bos>" at 18 px is wider than a column
    plot_px = grid.layout.height - grid.layout.margin.t - grid.layout.margin.b
    top_row, bottom_row = present["yaxis.domain"], present["yaxis4.domain"]
    assert (1 - top_row[1]) * plot_px >= 5 * 0.6 * 18 and (top_row[0] - bottom_row[1]) * plot_px >= 5 * 0.6 * 18
    assert top_row[1] - top_row[0] == pytest.approx(bottom_row[1] - bottom_row[0])
    short = viz.mask_grid(np.ones((1, 1, 3, 3), dtype=bool), ["input 1"], ["causal"], [list("abc")], [list("abc")])
    assert short.layout.meta[viz.matrices.PRESENT_META]["xaxis.tickangle"] == 0      # three letters fit side by side


def test_the_blanks_bar_panels_stack_on_a_phone_with_the_axis_title_under_the_last():
    fig = viz.blank_candidates([(f"blank {k}", ["e", "a", "o"], [0.6, 0.3, 0.1]) for k in range(5)],
                               probability_label="probability")
    narrow = relaid(fig)
    boxes = panel_boxes(narrow)
    assert len(boxes) == 5 and all(x == [0.0, 1.0] for x, _ in boxes)
    for (_, upper), (_, lower) in zip(boxes, boxes[1:]):
        assert lower[1] < upper[0]
    assert [note["text"] for note in narrow["annotations"]] == [f"<b>blank {k}</b>" for k in range(5)]
    assert all(note["y"] > box[1][1] for note, box in zip(narrow["annotations"], boxes))
    x_titles = [narrow[f"xaxis{s}"]["title"]["text"] for s in ("", "2", "3", "4", "5")]
    assert x_titles == ["", "", "", "", "probability"]
    go.Layout(narrow)


def test_two_decodings_marks_matches_misses_and_where_they_part():
    fig = viz.two_decodings(list("abc"), list("abd"), list("ax"), [0.9, 0.8, 0.1], [0.9, 0.2], 1)
    state = np.asarray(fig.data[0].z)
    assert state[1].tolist() == [1.0, 1.0, 0.0] and state[2].tolist() == [1.0, 0.0, 0.5]
    assert fig.layout.shapes[0].x0 == 0.5 and fig.layout.shapes[0].x1 == 1.5
    with pytest.raises(ValueError):
        viz.two_decodings(list("ab"), list("a"), [], [0.5, 0.5], [], None)


def test_a_series_drawn_on_another_is_thinner_so_both_show_where_they_coincide():
    # lesson 16's LayerNorm and RMSNorm of a vector with mean near 0, Generate's two decodings until they part
    same = [0.5, 0.9, 0.7]
    lines = viz.line_chart([0, 1, 2], {"LayerNorm": same, "RMSNorm": same}, "t", "x", "y").data
    decodings = viz.two_decodings(list("abc"), list("abc"), list("abc"), same, same, None).data[1:]
    for under, top in (lines, decodings):
        assert top.line.width < under.line.width and top.marker.size < under.marker.size


def test_residual_norms_breaks_the_mean_line_between_stacks_and_embedding_map_labels_tokens():
    fig = viz.residual_norms(["e0", "e1", "d0"], [[1.0], [2.0], [3.0, 5.0]], [["a"], ["a"], ["b", "c"]],
                             groups=["enc", "enc", "dec"])
    assert [list(trace.y) for trace in fig.data[1:]] == [[1.0, 2.0], [4.0]]
    emb = viz.embedding_map(np.arange(6.0).reshape(3, 2), ["a", " ", "c"], [2])
    assert list(emb.data[0].text) == ["a", "␣"] and list(emb.data[1].text) == ["c"]


def test_a_negative_neighbour_is_written_in_room_kept_left_of_its_bar_not_over_the_tokens():
    fig = viz.neighbour_bars(["a", "b", "c"], [0.9, 0.1, -0.4])
    left, right = fig.layout.xaxis.range
    assert right == 1.0 and left <= -0.4 - 0.2 * (right - left)       # a fifth of the axis for "−0.400"
    assert list(fig.data[0].text) == ["0.900", "0.100", "−0.400"]
    assert viz.neighbour_bars(["a"], [0.5]).layout.xaxis.range[0] == 0.0


def test_a_long_map_title_wraps_to_fit_beside_the_neighbours():
    title = "The embedding table (65 tokens × 64 dimensions) on its two principal components"
    fig = viz.embedding_map(np.zeros((3, 2)), ["a", "b", "c"], [1], title=title)
    lines = fig.layout.title.text.split("<br>")
    assert len(lines) == 2 and all(len(line) <= 48 for line in lines) and " ".join(lines) == title
    assert fig.layout.margin.t > viz.embedding_map(np.zeros((3, 2)), ["a", "b", "c"], [1], title="PCA").layout.margin.t


def test_the_dead_unit_counts_stand_above_the_histogram_first_model_on_top_clear_of_its_bars():
    # lesson 7: written inside the histogram, the counts covered its tallest bars, and text placed on the
    # data axis made Plotly widen that axis to fit it (-12 .. 11 for inputs from -5 to 11)
    z = [-1.0, 0.0, 1.0]
    fig = viz.activation_comparison(z, {"ReLU": z, "GELU": z}, {"ReLU": z, "GELU": z},
                                    {"ReLU": [-5.0, 2.0, 11.0], "GELU": [-3.0, 4.0, 9.0]}, {"ReLU": 123, "GELU": 71},
                                    "t", dead_label="units with no positive input")
    relu, gelu = fig.layout.annotations
    assert relu.text == "ReLU: 123 units with no positive input" and gelu.text == "GELU: 71 units with no positive input"
    for count in (relu, gelu):
        assert (count.xref, count.yref, count.y, count.yanchor) == ("x2 domain", "y2 domain", 1, "bottom")
    assert relu.yshift > gelu.yshift > 0


def test_relu_against_gelu_stacks_on_a_phone_functions_above_the_histogram_a_legend_entry_a_row():
    # lesson 7 on a phone: the functions and the histogram side by side were a few dozen pixels each
    z = [-1.0, 0.0, 1.0]
    fig = viz.activation_comparison(z, {"ReLU": z, "GELU": z}, {"ReLU": z, "GELU": z},
                                    {"ReLU": [-5.0, 2.0, 11.0], "GELU": [-3.0, 4.0, 9.0]}, {"ReLU": 123, "GELU": 71},
                                    "ReLU vs GELU: 256 feed-forward units each, after 40 steps at learning rate 0.05")
    narrow = relaid(fig)
    (functions_x, functions_y), (histogram_x, histogram_y) = panel_boxes(narrow)
    assert functions_x == histogram_x == [0.0, 1.0] and histogram_y[1] < functions_y[0]
    counts = [note for note in narrow["annotations"] if "ReLU:" in note["text"] or "GELU:" in note["text"]]
    assert len(counts) == 2 and all(note["yref"] == "y2 domain" and note["yanchor"] == "bottom" for note in counts)
    entries = len(fig.data)
    assert narrow["margin"]["t"] >= charts.LEGEND_ENTRY_PX * entries     # the legend's rows above the functions
    assert narrow["height"] > fig.layout.height and narrow["legend"]["traceorder"] == "normal"
    assert all(len(line) <= 40 for line in narrow["title"]["text"].split("<br>"))
    go.Layout(narrow)


def test_a_mask_grid_on_a_phone_turns_key_labels_only_where_neighbours_would_touch():
    # single characters side by side fit a 230 px panel of 9 columns; "<pad>" beside "<pad>" does not
    letters, padded = list("abcdefghi"), list("abcd") + ["<pad>"] * 5
    grid = viz.mask_grid(np.ones((2, 1, 9, 9), dtype=bool), ["input 1", "input 2"], ["causal"],
                         [letters, padded], [letters, padded])
    narrow = relaid(grid)
    (_, upright), (_, turned) = panel_boxes(narrow)
    titles = [note["y"] for note in narrow["annotations"]]
    assert titles[1] - turned[1] > 1.5 * (titles[0] - upright[1])       # room under the title for turned labels
    go.Layout(narrow)


def test_a_log_axis_labels_powers_of_ten_every_decade_or_every_few_when_the_values_span_many():
    # lesson 7's signal: 1 down to 3e-11 spans 12 decades; labelled at each, they crowd at presenter size
    few = viz.line_chart([0, 1, 2], {"a": [1.0, 0.1, 0.01]}, "t", "x", "y", log_y=True)
    many = viz.line_chart([0, 1, 2], {"a": [1.02, 1.0, 1.0], "b": [1.0, 1e-5, 3e-11]}, "t", "x", "y", log_y=True)
    bars = viz.grouped_bars(["p", "q"], {"a": [0.0, 5.0], "b": [2e-20, float("inf")]}, "t", "c", "v", log_y=True)
    assert (few.layout.yaxis.type, few.layout.yaxis.dtick, few.layout.yaxis.exponentformat) == ("log", 1, "power")
    assert many.layout.yaxis.dtick == 2                              # 12 decades: 7 labels, 1, 10^-2 .. 10^-12
    assert bars.layout.yaxis.dtick == 4                              # zero and infinity left out: 21 decades
    x_log = viz.line_chart([1, 10, 1e9], {"a": [1, 2, 3]}, "t", "x", "y", log_x=True)
    assert (x_log.layout.xaxis.dtick, x_log.layout.yaxis.type) == (2, None)
