"""Attention maps: the layer x head grid, one enlarged head, the mean over heads, the causal
matrix filling in during generation, and attention across training snapshots.

All functions take plain arrays of softmax weights (rows sum to 1) and the token texts of the query
and key positions. For encoder self-attention and decoder self-attention both token lists are the
same sequence; for cross-attention the queries are decoder tokens and the keys encoder tokens.
"""
import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, axis_categories, check_tokens, check_weights

# The grid stores each weight as a whole percent (uint8 0..100): a 64-token 4 x 4 grid then fits
# in ~110 KB of JSON instead of ~370 KB as float32. Stored value = round(weight * 100), so the
# hover's percentage is within GRID_PRECISION of the exact weight. Enlarged views keep float32.
GRID_SCALE = 100
GRID_PRECISION = 0.005
TINY_FONT_SIZE = 10         # tick labels of a long input (every token keeps its label)
ROW_GAP_PX = 3              # between two tick labels of a heatmap axis
HEAD_FRAME_PX = 180         # an enlarged head's height beside its rows: title, key labels, axis title
# A grid is drawn ~GRID_WIDTH_PX wide; a cell smaller than MIN_CELL_PX on screen cannot be told
# from its neighbours, so such a grid shows blocks of f x f token pairs, each the largest of its
# weights (a one-token pattern such as the diagonal stays as bright as it is): a 6 x 8-head grid of
# 128 tokens sends 43 x 43 cells per head instead of 128 x 128, while a 4 x 4-head grid keeps a
# cell per token pair up to 80 tokens. Enlarging a head shows every token.
GRID_WIDTH_PX = 1200
MIN_CELL_PX = 1.5
GRID_MARGIN = dict(l=30, r=30, t=80, b=20)


def quantise_grid(weights: np.ndarray) -> np.ndarray:
    """Weights in [0, 1] -> whole percents as uint8, the representation stored in the grid."""
    return np.rint(np.clip(weights, 0.0, 1.0) * GRID_SCALE).astype(np.uint8)


def grid_block(n_query: int, n_key: int, head_width_px: float, head_height_px: float) -> int:
    """f: the side of the blocks of token pairs one grid cell shows (1: every pair), so that no
    cell of a head drawn head_width_px x head_height_px is smaller than MIN_CELL_PX."""
    return max(1, math.ceil(n_query * MIN_CELL_PX / max(1.0, head_height_px)),
               math.ceil(n_key * MIN_CELL_PX / max(1.0, head_width_px)))


def block_max(stored: np.ndarray, block: int) -> np.ndarray:
    """[..., Tq, Tk] -> [..., ceil(Tq / block), ceil(Tk / block)]: the largest value of each block."""
    if block == 1:
        return stored
    *lead, n_query, n_key = stored.shape
    rows, cols = -(-n_query // block), -(-n_key // block)
    padded = np.zeros((*lead, rows * block, cols * block), dtype=stored.dtype)
    padded[..., :n_query, :n_key] = stored
    return padded.reshape(*lead, rows, block, cols, block).max(axis=(-3, -1))


def block_categories(categories: list[str], block: int) -> list[str]:
    """Axis categories of blocks of `block` tokens: "first … last" of each block's own categories."""
    if block == 1:
        return categories
    spans = (categories[start:start + block] for start in range(0, len(categories), block))
    return [span[0] if len(span) == 1 else f"{span[0]} … {span[-1]}" for span in spans]


def tick_font_size(n_tokens: int) -> int:
    """Tick label size for an axis of `n_tokens` tokens: smaller as the input grows, never skipped."""
    if n_tokens <= 24:
        return theme.FONT_SIZE
    return theme.SMALL_FONT_SIZE if n_tokens <= 64 else TINY_FONT_SIZE


def _tick_axis(categories: list[str], tick_text: list[str], title: str) -> dict:
    """A categorical axis labelling every token: explicit tick values, so Plotly never thins them.

    Labels of one character cell each stand upright (tickangle 0): where they crowd, Plotly would turn
    them 90°, reserving room for them at the size it draws; presenter mode's larger text then overran
    that room, cutting the axis title (a 27-token input at 1280x720)."""
    return dict(
        title=dict(text=title),
        type="category",
        tickmode="array",
        tickvals=categories,
        ticktext=tick_text,
        tickfont=dict(size=tick_font_size(len(categories))),
        showgrid=False,
        **({"tickangle": 0} if all(theme.display_width(text) <= 1 for text in tick_text) else {}),
    )


def _head_hover(query_label: str, key_label: str, weight_label: str) -> str:
    return f"{query_label}: %{{y}}<br>{key_label}: %{{x}}<br>{weight_label}: %{{z:.2%}}<extra></extra>"


def _heatmap_layout(title, query_cats, query_text, key_cats, key_text, query_label, key_label, height):
    yaxis = _tick_axis(query_cats, query_text, query_label)
    yaxis["autorange"] = "reversed"
    return theme.base_layout(
        title,
        height=height,
        xaxis=_tick_axis(key_cats, key_text, key_label),
        yaxis=yaxis,
        coloraxis=dict(colorscale=theme.ATTENTION_COLORSCALE, cmin=0.0, cmax=1.0, colorbar=dict(tickformat=".0%")),
    )


def _domain(start: float, end: float) -> list[float]:
    """A subplot domain clipped to [0, 1] (float sums can land a hair outside)."""
    return [min(1.0, max(0.0, round(start, 6))), min(1.0, max(0.0, round(end, 6)))]


def _default_height(n_query: int) -> int:
    """Tall enough that each query row has room for its label, the title and the key axis (with upright
    labels); a 27-token head in presenter mode ends above the fold of a 1280x720 screen."""
    return max(360, HEAD_FRAME_PX + (tick_font_size(n_query) + ROW_GAP_PX) * n_query)


def attention_grid(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    title: str = "Attention: every layer × head",
    layer_label: str = "layer",
    head_label: str = "head",
    query_label: str = "query",
    key_label: str = "key",
    weight_label: str = "weight",
    height: int | None = None,
    block_label: str = "the largest of {block} × {block}",
    kv_heads: int | None = None,
    group_label: str = "key/value head {kv}: heads {first}–{last}",
) -> go.Figure:
    """Every layer x head as a grid of small heatmaps (rows: layers, columns: heads).

    weights: [L, H, Tq, Tk] softmax weights; query_tokens: Tq texts; key_tokens: Tk texts.
    Values are stored as whole percents (see GRID_SCALE / GRID_PRECISION) with one shared colour
    axis fixed at 0..100 % so heads are comparable; the hover names layer, head, the (query, key)
    token pair and the rounded weight. A head too small on screen for a cell per token pair shows
    blocks of pairs (see MIN_CELL_PX); its hover then names the blocks' first and last tokens, and
    says `block_label` (formatted with the block's side) of the weight.
    kv_heads: key/value heads of a grouped-query model (None or H: one per head); the query heads that
    share one are drawn as a group: a line between groups and `group_label` under each.
    """
    w = as_float32(weights, "weights", 4)  # [L, H, Tq, Tk]
    check_weights(w, "weights")
    n_layers, n_heads, n_query, n_key = w.shape
    check_tokens(query_tokens, n_query, "query_tokens", "query")
    check_tokens(key_tokens, n_key, "key_tokens", "key")
    kv_heads = n_heads if kv_heads is None else kv_heads
    if not isinstance(kv_heads, int) or kv_heads < 1 or n_heads % kv_heads:
        raise ValueError(f"kv_heads must divide the {n_heads} heads, got {kv_heads!r}")
    gap = 0.012
    left = 0.05
    width = (1.0 - left - gap * (n_heads - 1)) / n_heads
    cell_height = (1.0 - 0.04 - gap * (n_layers - 1)) / n_layers
    cell_px = 130 if n_layers <= 4 else 100
    height = height if height is not None else 110 + n_layers * cell_px
    plot_width = GRID_WIDTH_PX - GRID_MARGIN["l"] - GRID_MARGIN["r"]
    plot_height = height - GRID_MARGIN["t"] - GRID_MARGIN["b"]
    block = grid_block(n_query, n_key, width * plot_width, cell_height * plot_height)
    query_cats = block_categories(axis_categories(query_tokens)[0], block)
    key_cats = block_categories(axis_categories(key_tokens)[0], block)
    stored = block_max(quantise_grid(w), block)  # [L, H, Tq / block, Tk / block] uint8
    shown_weight = weight_label if block == 1 else f"{weight_label} ({block_label.format(block=block)})"
    traces, layout_axes, annotations = [], {}, []
    for layer in range(n_layers):
        top = 0.96 - layer * (cell_height + gap)
        for head in range(n_heads):
            k = layer * n_heads + head + 1
            suffix = "" if k == 1 else str(k)
            x0 = left + head * (width + gap)
            hover = (
                f"{layer_label} {layer} · {head_label} {head}<br>{query_label}: %{{y}}<br>"
                f"{key_label}: %{{x}}<br>{shown_weight} ≈ %{{z}}% (±0.5)<extra></extra>"
            )
            traces.append(
                dict(
                    type="heatmap",
                    z=stored[layer, head], x=key_cats, y=query_cats, coloraxis="coloraxis",
                    xaxis=f"x{suffix}", yaxis=f"y{suffix}", hovertemplate=hover,
                )
            )
            axis_style = dict(showticklabels=False, ticks="", showgrid=False, zeroline=False, type="category")
            layout_axes[f"xaxis{suffix}"] = dict(axis_style, domain=_domain(x0, x0 + width), anchor=f"y{suffix}")
            layout_axes[f"yaxis{suffix}"] = dict(
                axis_style, domain=_domain(top - cell_height, top), anchor=f"x{suffix}", autorange="reversed"
            )
        annotations.append(dict(
            text=f"{layer_label} {layer}", x=left - 0.005, y=top - cell_height / 2, xref="paper", yref="paper",
            xanchor="right", yanchor="middle", showarrow=False, textangle=-90,
        ))
    for head in range(n_heads):
        annotations.append(dict(
            text=f"{head_label} {head}", x=left + head * (width + gap) + width / 2, y=0.965, xref="paper",
            yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
        ))
    shapes, margin = [], dict(GRID_MARGIN)
    if kv_heads < n_heads:
        group, bottom = n_heads // kv_heads, 0.96 - n_layers * (cell_height + gap) + gap
        for kv in range(kv_heads):
            x0 = left + kv * group * (width + gap)
            x1 = x0 + group * width + (group - 1) * gap
            annotations.append(dict(
                text=group_label.format(kv=kv, first=kv * group, last=(kv + 1) * group - 1), x=(x0 + x1) / 2,
                y=bottom - 0.005, xref="paper", yref="paper", xanchor="center", yanchor="top", showarrow=False,
            ))
            if kv:
                shapes.append(dict(type="line", x0=x0 - gap / 2, x1=x0 - gap / 2, y0=bottom - 0.005, y1=0.995,
                                   xref="paper", yref="paper", line=dict(color=theme.TEXT_COLOR, width=2)))
        margin["b"] += 24                              # room for the group labels
    layout = theme.base_layout(
        title,
        height=height,
        coloraxis=dict(
            colorscale=theme.ATTENTION_COLORSCALE, cmin=0, cmax=GRID_SCALE,
            colorbar=dict(ticksuffix="%", thickness=14),
        ),
        annotations=annotations,
        margin=margin,
        **({"shapes": shapes} if shapes else {}),
        **layout_axes,
    )
    return theme.figure(traces, layout)


def attention_head(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    title: str = "Attention of one head",
    query_label: str = "query",
    key_label: str = "key",
    weight_label: str = "weight",
    height: int | None = None,
) -> go.Figure:
    """One head enlarged: weights [Tq, Tk] as exact float32, token text on both axes.

    Rows are query positions (top to bottom), columns key positions; the colour axis is fixed at
    0..1 and the hover gives the (query, key) token pair and the weight to 0.01 %.
    """
    w = as_float32(weights, "weights", 2)  # [Tq, Tk]
    check_weights(w, "weights")
    check_tokens(query_tokens, w.shape[0], "query_tokens", "query")
    check_tokens(key_tokens, w.shape[1], "key_tokens", "key")
    query_cats, query_text = axis_categories(query_tokens)
    key_cats, key_text = axis_categories(key_tokens)
    trace = dict(
        type="heatmap",
        z=w, x=key_cats, y=query_cats, coloraxis="coloraxis",
        hovertemplate=_head_hover(query_label, key_label, weight_label),
    )
    layout = _heatmap_layout(
        title, query_cats, query_text, key_cats, key_text, query_label, key_label,
        height if height is not None else _default_height(w.shape[0]),
    )
    return theme.figure([trace], layout)


def attention_mean(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    title: str = "Attention: mean over heads",
    query_label: str = "query",
    key_label: str = "key",
    weight_label: str = "mean weight",
    height: int | None = None,
) -> go.Figure:
    """The mean over heads of one layer: weights [H, Tq, Tk] -> one [Tq, Tk] heatmap (float32)."""
    w = as_float32(weights, "weights", 3)  # [H, Tq, Tk]
    return attention_head(
        w.mean(axis=0), query_tokens, key_tokens, title=title, query_label=query_label,
        key_label=key_label, weight_label=weight_label, height=height,
    )


def attention_filling(
    weights,
    tokens: Sequence[str],
    step: int,
    title: str = "Causal attention, filled in as tokens are generated",
    query_label: str = "query",
    key_label: str = "key",
    weight_label: str = "weight",
    height: int | None = None,
) -> go.Figure:
    """The causal matrix during generation: weights [T, T] with rows after `step` left blank.

    tokens: the T texts of the full sequence; step: index of the newest query row (0..T-1). Rows
    0..step are drawn, later rows are NaN (blank) and the newest row is outlined.
    """
    w = as_float32(weights, "weights", 2)  # [T, T]
    check_weights(w, "weights")
    n = w.shape[0]
    if w.shape[1] != n:
        raise ValueError(f"weights must be square [T, T] for causal self-attention, got shape {w.shape}")
    check_tokens(tokens, n, "tokens", "sequence")
    if not 0 <= step < n:
        raise ValueError(f"step must be between 0 and {n - 1} (the newest row), got {step}")
    shown = w.copy()
    shown[step + 1:] = np.nan  # [T, T], future rows blank
    cats, text = axis_categories(tokens)
    trace = dict(
        type="heatmap",
        z=shown, x=cats, y=cats, coloraxis="coloraxis", hoverongaps=False,
        hovertemplate=_head_hover(query_label, key_label, weight_label),
    )
    layout = _heatmap_layout(
        title, cats, text, cats, text, query_label, key_label,
        height if height is not None else _default_height(n),
    )
    layout["shapes"] = [dict(
        type="rect", xref="x", yref="y", x0=-0.5, x1=n - 0.5, y0=step - 0.5, y1=step + 0.5,
        line=dict(color=theme.HIGHLIGHT_COLOR, width=3),
    )]
    return theme.figure([trace], layout)


def attention_snapshots(
    steps: Sequence[int],
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    title: str = "Attention during training",
    step_label: str = "step",
    query_label: str = "query",
    key_label: str = "key",
    weight_label: str = "weight",
    height: int | None = None,
) -> go.Figure:
    """One head's attention across training snapshots, with a slider to move between them.

    steps: S training steps; weights: [S, Tq, Tk]. Each snapshot is one heatmap trace; the slider
    steps switch which trace is visible (no animation frames, which gr.Plot does not play).
    The last snapshot is shown first. Like the grid, snapshots are stored as whole percents
    (GRID_PRECISION), which keeps ten 128-token snapshots near 230 KB instead of 900 KB.
    """
    w = as_float32(weights, "weights", 3)  # [S, Tq, Tk]
    check_weights(w, "weights")
    if len(steps) != w.shape[0]:
        raise ValueError(f"steps has {len(steps)} entries but weights has {w.shape[0]} snapshots")
    check_tokens(query_tokens, w.shape[1], "query_tokens", "query")
    check_tokens(key_tokens, w.shape[2], "key_tokens", "key")
    query_cats, query_text = axis_categories(query_tokens)
    key_cats, key_text = axis_categories(key_tokens)
    last = len(steps) - 1
    stored = quantise_grid(w)  # [S, Tq, Tk] uint8 percents
    traces = [
        dict(
            type="heatmap",
            z=stored[i], x=key_cats, y=query_cats, coloraxis="coloraxis", visible=i == last, name=f"{step_label} {s}",
            hovertemplate=(
                f"{step_label} {s}<br>{query_label}: %{{y}}<br>{key_label}: %{{x}}<br>"
                f"{weight_label} ≈ %{{z}}% (±0.5)<extra></extra>"
            ),
        )
        for i, s in enumerate(steps)
    ]
    slider_steps = [
        dict(
            label=str(s), method="update",
            args=[{"visible": [j == i for j in range(len(steps))]}, {"title.text": f"{title} ({step_label} {s})"}],
        )
        for i, s in enumerate(steps)
    ]
    layout = _heatmap_layout(
        f"{title} ({step_label} {steps[last]})", query_cats, query_text, key_cats, key_text,
        query_label, key_label, (height if height is not None else _default_height(w.shape[1])) + 90,
    )
    layout["coloraxis"].update(cmin=0, cmax=GRID_SCALE, colorbar=dict(ticksuffix="%"))
    layout["sliders"] = [dict(
        active=last, steps=slider_steps, currentvalue=dict(prefix=f"{step_label}: "), pad=dict(t=60),
    )]
    return theme.figure(traces, layout)
