import numpy as np
import pytest

from playground.viz import BeamNode, beam_tree, candidate_bars
from playground.viz.generation import beam_layout

TOKENS = ["a", "b", "c", "d", "e", "f"]
RAW = np.array([0.05, 0.4, 0.3, 0.1, 0.1, 0.05], dtype=np.float32)
TOP_K = np.array([0.0, 0.5, 0.375, 0.125, 0.0, 0.0], dtype=np.float32)


def test_bars_show_each_stage_for_the_top_raw_candidates():
    fig = candidate_bars(TOKENS, {"raw": RAW, "top-k": TOP_K}, chosen=2, top_n=3)
    assert [t.name for t in fig.data] == ["raw", "top-k"]
    assert list(fig.layout.xaxis.ticktext) == ["b", "c", "d"]
    np.testing.assert_array_equal(fig.data[0].y, RAW[[1, 2, 3]])
    np.testing.assert_array_equal(fig.data[1].y, TOP_K[[1, 2, 3]])


def test_the_chosen_token_is_the_marked_bar():
    fig = candidate_bars(TOKENS, {"raw": RAW, "top-k": TOP_K}, chosen=2, top_n=3)
    for trace in fig.data:
        widths = np.asarray(trace.marker.line.width)
        marked = [trace.x[i] for i in np.flatnonzero(widths)]
        assert marked == ["1: c"]
    assert fig.layout.annotations[0].x == "1: c"


def test_a_chosen_token_outside_the_top_n_is_still_shown():
    fig = candidate_bars(TOKENS, {"raw": RAW}, chosen=5, top_n=3)
    assert list(fig.layout.xaxis.ticktext) == ["b", "c", "f"]
    assert fig.layout.annotations[0].x == "2: f"


@pytest.mark.parametrize(
    "stages, chosen, message",
    [
        ({"raw": RAW[:4]}, 1, "4 probabilities but there are 6"),
        ({"raw": RAW}, 6, "token id in 0..5"),
        ({"raw": RAW * 10}, 1, "apply softmax"),
    ],
)
def test_bars_refuse_bad_inputs(stages, chosen, message):
    with pytest.raises(ValueError, match=message):
        candidate_bars(TOKENS, stages, chosen)


NODES = [
    BeamNode(0, None, "<s>", 0.0, 0.0, False, True),
    BeamNode(1, 0, "the", -0.5, -0.5, False, True),
    BeamNode(2, 0, "a", -1.0, -1.0, False, False),
    {"id": 3, "parent": 1, "token": " cat", "logprob": -0.2, "score": -0.7, "finished": True, "best": True},
    (4, 1, " dog", -0.9, -1.4, True, False),
]


def test_beam_layout_puts_children_one_step_right_and_parents_between_them():
    position = beam_layout(NODES)
    assert position[3][0] == 2 and position[2][0] == 1
    assert position[1][1] == (position[3][1] + position[4][1]) / 2


def test_beam_tree_highlights_exactly_the_best_path():
    fig = beam_tree(NODES)
    plain_edges, best_edges, nodes = fig.data
    assert best_edges.line.width > plain_edges.line.width
    assert sum(v is None for v in best_edges.x) == 2  # root->the, the->cat
    assert list(nodes.text) == ["&lt;s&gt;", "the", "a", "␣cat", "␣dog"]
    assert [s for s in nodes.marker.symbol] == ["circle", "circle", "circle", "square", "square"]
    assert nodes.customdata[3][2] == -0.7


def test_beam_tree_refuses_a_forest():
    with pytest.raises(ValueError, match="exactly one root"):
        beam_tree([BeamNode(0, None, "a", 0, 0, False, False), BeamNode(1, None, "b", 0, 0, False, False)])
