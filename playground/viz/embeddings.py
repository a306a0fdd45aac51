"""Token embeddings: a token's nearest neighbours as bars, and the table projected to a 2-D map."""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, number_text, visible_token

MAX_TEXT_LABELS = 150     # more tokens than this are drawn as dots (names on hover), or the map is a smudge
LABEL_ROOM = 0.3          # share of the axis span kept left of a negative bar for its value
MAP_TOP_PX = 100          # room above the map for a one-line title and the legend


def neighbour_bars(
    tokens: Sequence[str],
    similarities: Sequence[float],
    title: str = "Nearest neighbours",
    similarity_label: str = "cosine similarity",
    token_label: str = "token",
    height: int | None = None,
) -> go.Figure:
    """Horizontal bars: the neighbours (closest on top) and their cosine similarity in [-1, 1], each
    written beside its bar (left of a negative one, in room the axis keeps for it)."""
    values = as_float32(similarities, "similarities", 1)
    if len(tokens) != values.shape[0]:
        raise ValueError(f"{len(tokens)} tokens but {values.shape[0]} similarities")
    shown = [f"{visible_token(str(t))} " for t in tokens]
    trace = dict(type="bar", orientation="h", x=values, y=[f"{i}: {s}" for i, s in enumerate(shown)],
                 marker=dict(color=theme.SERIES_COLORS[0]), text=[number_text(v, 3) for v in values],
                 textposition="auto", cliponaxis=False,
                 hovertemplate=f"{token_label}: %{{y}}<br>{similarity_label}: %{{x:.4f}}<extra></extra>")
    categories = [f"{i}: {s}" for i, s in enumerate(shown)]
    layout = theme.base_layout(
        title, height=height or int(160 + 34 * len(tokens)),
        xaxis=dict(title=dict(text=similarity_label), range=[_left_end(float(values.min())), 1.0]),
        yaxis=dict(type="category", autorange="reversed", tickmode="array", tickvals=categories, ticktext=shown,
                   title=dict(text=token_label)),
    )
    return theme.figure([trace], layout)


def _left_end(lowest: float) -> float:
    """The similarity axis's left end: 0, or past the lowest (negative) bar by room for its value."""
    return 0.0 if lowest >= 0 else lowest - LABEL_ROOM * (1.0 - lowest)


def embedding_map(
    points,
    tokens: Sequence[str],
    highlighted: Sequence[int] = (),
    title: str = "Embedding table, projected to 2-D",
    x_label: str = "component 1",
    y_label: str = "component 2",
    highlighted_label: str = "chosen and its neighbours",
    others_label: str = "other tokens",
    height: int | None = None,
) -> go.Figure:
    """points [N, 2], one per token, labelled with the token text (dots with hover names when
    N > MAX_TEXT_LABELS); the rows in `highlighted` drawn larger in red. The title wraps to fit beside
    another figure."""
    p = as_float32(points, "points", 2)
    if p.shape[1] != 2 or p.shape[0] != len(tokens):
        raise ValueError(f"points must be [N, 2] with one token per row, got {p.shape} and {len(tokens)} tokens")
    shown = np.array([visible_token(str(t)) for t in tokens], dtype=object)
    marked = np.zeros(p.shape[0], dtype=bool)
    marked[list(highlighted)] = True
    as_text = p.shape[0] <= MAX_TEXT_LABELS
    traces = []
    for rows, name, color, size in ((~marked, others_label, theme.SERIES_COLORS[0], theme.FONT_SIZE),
                                    (marked, highlighted_label, theme.HIGHLIGHT_COLOR, theme.TITLE_SIZE)):
        if not rows.any():
            continue
        trace = dict(type="scatter", x=p[rows, 0], y=p[rows, 1], name=name, customdata=shown[rows],
                     hovertemplate="%{customdata}<br>(%{x:.3f}, %{y:.3f})<extra></extra>")
        if as_text or name == highlighted_label:
            trace.update(mode="text", text=shown[rows], textfont=dict(size=size, color=color))
        else:
            trace.update(mode="markers", marker=dict(size=6, color=color, opacity=0.6))
        traces.append(trace)
    lines = theme.wrap(title, theme.HALF_TITLE_CELLS)
    extra_px = theme.TITLE_LINE_PX * (len(lines) - 1)
    total_px = (height or 560) + extra_px
    layout = theme.base_layout(
        "<br>".join(lines), height=total_px,
        xaxis=dict(title=dict(text=x_label), zeroline=True), yaxis=dict(title=dict(text=y_label), zeroline=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        margin=dict(l=70, r=30, t=MAP_TOP_PX + extra_px, b=60),
    )
    if extra_px:      # Plotly lifts a title of several lines above its top anchor by the lines it adds
        layout["title"].update(y=theme.TITLE_Y - extra_px / total_px, yanchor="top", yref="container")
    return theme.figure(traces, layout)
