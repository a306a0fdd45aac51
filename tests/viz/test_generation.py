import html

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


def beam_of(width: int, steps: int) -> list[BeamNode]:
    """A beam search's tree: of three extensions of every live hypothesis the best `width` join the tree."""
    rng = np.random.default_rng(0)
    nodes = [BeamNode(0, None, "<s>", 0.0, 0.0, False, False)]
    live = [0]
    for step in range(steps):
        extensions = [(parent, token, float(-rng.exponential())) for parent in live for token in ("the", " cat", "sat")]
        extensions.sort(key=lambda e: -(nodes[e[0]].score + e[2]))
        live = []
        for parent, token, logprob in extensions[:width]:
            nodes.append(BeamNode(len(nodes), parent, token, logprob, nodes[parent].score + logprob,
                                  step == steps - 1, False))
            live.append(len(nodes) - 1)
    best, path = live[0], set()
    while best is not None:
        path.add(best)
        best = nodes[best].parent
    return [n._replace(best=n.id in path) for n in nodes]


def test_beam_layout_keeps_the_best_path_straight_and_children_one_step_right():
    position = beam_layout(NODES)
    assert position[0] == (0, 0) and position[1] == (1, 0) and position[3] == (2, 0)   # the best path
    assert position[2][0] == 1 and position[4][0] == 2 and position[2][1] != 0 and position[4][1] != 0


@pytest.mark.parametrize("width, steps", [(2, 10), (4, 40), (6, 40)])
def test_a_long_beam_tree_has_one_place_per_node_and_labels_that_fit_their_column(width, steps):
    nodes = beam_of(width, steps)
    position = beam_layout(nodes)
    best = sorted(position[n.id] for n in nodes if n.best)
    assert best == [(step, 0) for step in range(steps + 1)]                             # straight, from step 0
    assert all(position[n.id][0] == position[n.parent][0] + 1 for n in nodes if n.parent is not None)
    assert len(set(position.values())) == len(nodes)                                   # no two labels on one spot
    rows = {}
    for step, row in position.values():
        rows.setdefault(row, []).append(step)
    assert all(len(set(steps_in_row)) == len(steps_in_row) for steps_in_row in rows.values())
    fig = beam_tree(nodes)
    longest = max(len(html.unescape(label)) for label in fig.data[-1].text)               # as displayed
    assert longest * (steps + 1) <= 150 or longest <= 3
    assert fig.layout.xaxis.tick0 == 0 and -1 < fig.layout.xaxis.range[0] < 0
    assert len(rows) <= 4 * width                                                      # rows are reused


def test_beam_tree_highlights_exactly_the_best_path():
    fig = beam_tree(NODES)
    plain_edges, best_edges, nodes = fig.data
    assert best_edges.line.width > plain_edges.line.width
    assert sum(v is None for v in best_edges.x) == 2  # root->the, the->cat
    assert list(nodes.text) == ["&lt;s&gt;", "the", "a", "␣cat", "␣dog"]
    assert nodes.textposition == "top center"
    assert [s for s in nodes.marker.symbol] == ["circle", "circle", "circle", "square", "square"]
    assert nodes.customdata[3][2] == -0.7


def test_beam_tree_refuses_a_forest():
    with pytest.raises(ValueError, match="exactly one root"):
        beam_tree([BeamNode(0, None, "a", 0, 0, False, False), BeamNode(1, None, "b", 0, 0, False, False)])
