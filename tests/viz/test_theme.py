"""Figures skip Plotly's validation when built; these checks validate every one of them."""
import copy
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import plotly.graph_objects as go
import pytest

from playground import viz
from playground.viz.theme import TABLE_ROW_PX, SpecFigure, display_width, placeholder, table, wrap
from tests.viz.sample_data import sinusoidal, softmax_weights

T = list("a cat")
CONFIG = dict(arch="encoder_decoder", vocab_size=50, tgt_vocab_size=None, d_model=32, n_heads=2, n_encoder_layers=1,
              n_decoder_layers=1, d_ff=64, positional="rope", norm="pre", activation="relu", tie_weights=True)
FIGURES = {
    "grid": lambda: viz.attention_grid(softmax_weights((2, 2, 5, 5)), T, T),
    "head": lambda: viz.attention_head(softmax_weights((5, 5)), T, T),
    "filling": lambda: viz.attention_filling(softmax_weights((5, 5), causal=True), T, 2),
    "snapshots": lambda: viz.attention_snapshots([0, 1], softmax_weights((2, 5, 5)), T, T),
    "candidates": lambda: viz.candidate_bars(list("abcdef"), {"raw": softmax_weights((6,))}, 2),
    "beam": lambda: viz.beam_tree([(0, None, "<s>", 0.0, 0.0, False, True), (1, 0, "a", -0.1, -0.1, True, True)]),
    "heatmap": lambda: viz.positional_heatmap(sinusoidal(8, 4)),
    "curves": lambda: viz.positional_curves(sinusoidal(8, 4), [0, 1]),
    "similarity": lambda: viz.position_similarity(sinusoidal(8, 4)),
    "rope": lambda: viz.rope_rotation(8, [0, 1, 2, 3, 0], 6),
    "treemap": lambda: viz.parameter_treemap({"a": 1, "b": {"c": 2}}),
    "diagram": lambda: viz.architecture_diagram(CONFIG),
    "shapes": lambda: viz.shape_table([("s", "t", (1, 2), "n")]),
    "spans": lambda: viz.token_spans("ab", [("a", 0, 1, 3), ("b", 1, 2, 4)]),
    "merges": lambda: viz.merges_table([("a", "b")]),
    "training": lambda: viz.training_curves({"step": [0, 1], "loss": [2.0, 1.0]}),
    "compare": lambda: viz.compare_runs({"run": {"step": [0, 1], "loss": [2.0, 1.0]}}),
    "scores_over_steps": lambda: viz.head_scores_over_steps([0, 1], np.full((2, 1, 2), 0.5)),
    "scores": lambda: viz.head_scores_heatmap(np.full((2, 2), 0.5)),
    "shapes_with_values": lambda: viz.shape_table([("s", "t", (1, 2), "n", "mean 0")],
                                                  headers=("stage", "tensor", "shape", "note", "values")),
    "lines": lambda: viz.line_chart([1, 2, 4], {"a": [1, 2, 3], "b": [3, 2, 1]}, "t", "x", "y", log_x=True,
                                    log_y=True, marker_x=2, marker_label="n = 2"),
    "bars": lambda: viz.grouped_bars(["p", "q"], {"a": [0.1, 0.5], "b": [0.2, 0.4]}, "t", "c", "v", percent=True),
    "log_bars": lambda: viz.grouped_bars(["p", "q"], {"a": [0.1, 5.0]}, "t", "c", "v", log_y=True),
    "activations": lambda: viz.activation_comparison(
        [-1.0, 0.0, 1.0], {"ReLU": [0.0, 0.0, 1.0]}, {"ReLU": [0.0, 0.0, 1.0]}, {"ReLU": [-0.5, 0.2, 1.0]},
        {"ReLU": 1}, "t"),
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_is_valid_plotly_and_unchanged_by_validation(name):
    fig = FIGURES[name]()
    validated = go.Figure(fig.to_dict())   # raises on an unknown property or a bad value
    assert json.loads(validated.to_json()) == json.loads(fig.to_json())


# every figure but those drawn with Plotly's subplots, which are built from the start
KEPT_AS_DICTS = sorted(name for name, make in FIGURES.items() if isinstance(make(), SpecFigure))


@pytest.mark.parametrize("name", KEPT_AS_DICTS)
def test_an_unbuilt_figure_writes_plotlys_own_json_without_building_its_tree(name):
    fig = FIGURES[name]()
    written = json.loads(fig.to_json())
    assert fig.spec is not None                                     # still unbuilt
    assert written == json.loads(go.Figure.to_json(fig))            # Plotly's writer, which builds the tree
    assert fig.spec is None and json.loads(fig.to_json()) == written


def test_an_unbuilt_figure_asked_for_plotlys_options_is_written_by_plotly():
    fig = viz.attention_head(softmax_weights((3, 3)), T[:3], T[:3])
    pretty = fig.to_json(pretty=True)
    assert "\n" in pretty and fig.spec is None


def test_a_figure_keeps_its_dicts_until_read_then_is_an_ordinary_figure():
    fig = viz.attention_grid(softmax_weights((2, 2, 5, 5)), T, T)
    assert isinstance(fig, go.Figure) and fig.spec is not None
    traces, layout = fig.spec
    assert len(traces) == 4 and layout["title"]["text"].startswith("Attention")
    assert len(fig.data) == 4 and fig.spec is None                  # the first read built the tree
    assert fig.data[0].z.tolist() == traces[0]["z"].tolist()
    fig.update_layout(height=123)
    assert fig.layout.height == 123 and json.loads(fig.to_json())["layout"]["height"] == 123


@pytest.mark.parametrize("read", [lambda f: f.update_layout(height=321), lambda f: f.to_dict(), repr, copy.deepcopy,
                                  lambda f: f == go.Figure()])
def test_any_use_of_an_unbuilt_figure_builds_it_first(read):
    fig = viz.attention_head(softmax_weights((5, 5)), T, T)
    read(fig)
    assert fig.spec is None and isinstance(fig.layout, go.Layout) and len(fig.data) == 1


def test_a_copy_of_an_unbuilt_figure_is_an_ordinary_figure_of_the_same_content():
    traces, layout = [dict(type="bar", y=[1, 2])], dict(title=dict(text="t"))
    copied = copy.deepcopy(SpecFigure(traces, layout))
    assert type(copied) is go.Figure and copied.to_dict() == go.Figure(traces, layout).to_dict()


def test_a_thread_that_reads_a_figure_another_thread_is_building_waits_for_the_whole_figure(monkeypatch):
    fig = viz.attention_grid(softmax_weights((2, 2, 5, 5)), T, T)
    building, second_reads = threading.Event(), threading.Event()
    build = go.Figure.__init__

    def slow_build(self, *args, **kwargs):
        building.set()
        second_reads.wait(timeout=5)
        time.sleep(0.05)                    # the other thread's read runs into the half-built figure
        build(self, *args, **kwargs)

    def second_read():
        second_reads.set()
        return len(fig.data)

    monkeypatch.setattr(go.Figure, "__init__", slow_build)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(lambda: len(fig.data))
        assert building.wait(timeout=5)
        second = pool.submit(second_read)
        assert first.result() == second.result() == 4


def test_wrap_breaks_at_spaces_or_beside_wide_characters_within_the_width():
    assert wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]
    lines = wrap("前向传播中每一步的张量形状和它们的含义", 10)
    assert "".join(lines) == "前向传播中每一步的张量形状和它们的含义"
    assert all(display_width(line) <= 10 for line in lines)
    assert wrap("unbreakable", 4) == ["unbreakable"]


@pytest.mark.parametrize("width", range(8, 40, 3))
def test_wrap_never_starts_a_line_with_closing_punctuation_or_ends_one_with_opening(width):
    text = "模型训练时，损失、准确率和学习率曲线显示在这里：选择任务后按“开始”。第 2 层（共 4 层）的头。"
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(display_width(line) <= width for line in lines)
    assert not any(line[0] in "，。、：；）”" for line in lines[1:]), lines
    assert not any(line[-1] in "“（" for line in lines[:-1]), lines
    assert wrap(text, 66)[-1] != "。"


def test_a_placeholder_is_an_empty_figure_that_says_what_will_appear():
    fig = placeholder("Loss curves appear here while a model trains: choose a task and press Start.", height=300)
    assert len(fig.data) == 0 and fig.layout.height == 300
    assert not fig.layout.xaxis.visible and not fig.layout.yaxis.visible
    shown = fig.layout.annotations[0].text
    assert shown.replace("<br>", " ") == "Loss curves appear here while a model trains: choose a task and press Start."
    long = placeholder("word " * 60)
    assert long.layout.annotations[0].text.count("<br>") >= 2                         # wrapped, not cut off
    go.Figure(fig.to_dict())                                                           # valid property names


def test_a_table_is_as_tall_as_its_wrapped_cells():
    # Plotly wraps a long cell and makes its row taller: a table sized for one line a row would hide its
    # last rows behind a scroll bar (the shipped models' table of lesson 12 hid two)
    widths = [3, 2, 2, 2, 2, 2, 2, 2]
    short = table([["copy", "dates"], *[["1", "2"]] * 7], ["model"] * 8, widths, "t")
    wrapped = table([["copy", "dates, formats never seen in training"], *[["1", "2"]] * 7], ["model"] * 8, widths, "t")
    broken = table([["copy", "dates<br>unseen"], *[["1", "2"]] * 7], ["model"] * 8, widths, "t")
    assert wrapped["layout"]["height"] == short["layout"]["height"] + TABLE_ROW_PX
    assert broken["layout"]["height"] == short["layout"]["height"] + TABLE_ROW_PX
    given = table([["copy", "dates, formats never seen in training"]], ["model"], [1], "t", row_lines=[1, 1])
    assert given["layout"]["height"] == table([["a", "b"]], ["model"], [1], "t")["layout"]["height"]
