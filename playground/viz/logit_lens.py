"""The logit lens as a heatmap: rows are layers, columns are input positions; each cell shows the
token the model would predict next if it stopped after that layer, coloured by its probability."""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.attention import tick_font_size
from playground.viz.labels import as_float32, axis_categories, check_tokens, check_weights, visible_token

MAX_CELL_TEXT = 64          # positions up to which the cells also print their tokens (sized to fit each cell)
MAX_TICK_LABELS = 24        # input tokens labelled on the axis; a longer input labels every k-th (hover: all)


def logit_lens_heatmap(
    top_probs,
    top_tokens: Sequence[Sequence[str]],
    input_tokens: Sequence[str],
    title: str = "Logit lens: the next token after each layer",
    layer_label: str = "layer",
    position_label: str = "position",
    token_label: str = "top token",
    probability_label: str = "probability",
    height: int | None = None,
) -> go.Figure:
    """top_probs [L, T] in [0, 1]; top_tokens: L rows of T token texts; input_tokens: the T inputs.

    The hover names the layer, the input position, the predicted token and its probability. Up to
    MAX_CELL_TEXT positions each cell also prints its token, in a font Plotly sizes to the cell (the
    page hides cell text too small or too crowded to read); the axis labels at most MAX_TICK_LABELS
    input tokens, evenly spaced, so they never run together.
    """
    probs = as_float32(top_probs, "top_probs", 2)                           # [L, T]
    check_weights(probs, "top_probs")
    n_layers, n_positions = probs.shape
    check_tokens(input_tokens, n_positions, "input_tokens", "position")
    if len(top_tokens) != n_layers:
        raise ValueError(f"top_tokens has {len(top_tokens)} rows but top_probs has {n_layers} layers")
    for row in top_tokens:
        check_tokens(row, n_positions, "a row of top_tokens", "position")
    columns, tick_text = axis_categories(input_tokens)
    rows = [f"{layer_label} {i}" for i in range(n_layers)]
    shown = np.array([[visible_token(str(t)) for t in row] for row in top_tokens], dtype=object)   # [L, T]
    trace = dict(
        type="heatmap", z=probs, x=columns, y=rows, customdata=shown, zmin=0.0, zmax=1.0,
        colorscale=theme.ATTENTION_COLORSCALE, colorbar=dict(tickformat=".0%"),
        hovertemplate=(f"%{{y}}<br>{position_label}: %{{x}}<br>{token_label}: %{{customdata}}<br>"
                       f"{probability_label}: %{{z:.1%}}<extra></extra>"),
    )
    if n_positions <= MAX_CELL_TEXT:
        trace.update(text=shown, texttemplate="%{text}")        # no textfont size: Plotly fits it to the cell
    every = -(-n_positions // MAX_TICK_LABELS)                  # label every k-th position
    layout = theme.base_layout(
        title,
        height=height if height is not None else int(min(720, 160 + 40 * n_layers)),
        xaxis=dict(title=dict(text=position_label), type="category", tickmode="array", tickvals=columns[::every],
                   ticktext=tick_text[::every], tickfont=dict(size=tick_font_size(n_positions)), showgrid=False),
        yaxis=dict(type="category", autorange="reversed", showgrid=False),
    )
    return theme.figure([trace], layout)
