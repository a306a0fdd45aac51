"""A language model's training window: the tokens it reads and, under them, the tokens it must predict,
the same window shifted left by one."""
from collections.abc import Sequence

import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import visible_token

INPUT_FILL = 0.25           # the colour scale's place for input cells ...
TARGET_FILL = 0.75          # ... and for target cells
WINDOW_COLORS = [[0.0, "#dbe7f7"], [0.5, "#dbe7f7"], [0.5, "#ffe0bd"], [1.0, "#ffe0bd"]]


def shifted_window(
    inputs: Sequence[str],
    targets: Sequence[str],
    title: str = "One training window: the target is the input shifted by one",
    row_labels: Sequence[str] = ("input x", "target y"),
    position_label: str = "position",
    height: int | None = None,
) -> go.Figure:
    """Two rows over positions 0..T-1: the input tokens x and the target tokens y, with a line from each
    x[t + 1] down to y[t], the token it becomes as a target. Hover names both."""
    n = len(inputs)
    if n == 0 or len(targets) != n:
        raise ValueError(f"inputs ({n}) and targets ({len(targets)}) need one token per position, at least one")
    shown = [[visible_token(str(t)) for t in row] for row in (inputs, targets)]
    positions = list(range(n))
    hover = [[f"{row_labels[0]}[{i}] = {shown[0][i]}" for i in positions],
             [f"{row_labels[1]}[{i}] = {shown[1][i]}" + (f" = {row_labels[0]}[{i + 1}]" if i + 1 < n else "")
              for i in positions]]
    grid = dict(type="heatmap", z=[[INPUT_FILL] * n, [TARGET_FILL] * n], x=positions, y=list(row_labels), zmin=0,
                zmax=1, colorscale=WINDOW_COLORS, showscale=False, xgap=2, ygap=18, text=shown,
                texttemplate="%{text}", textfont=dict(size=theme.FONT_SIZE + 1, color=theme.TEXT_COLOR),
                customdata=hover, hovertemplate=f"{position_label} %{{x}}<br>%{{customdata}}<extra></extra>")
    # A line from x[t + 1] (top row, y = 0) to y[t] (bottom row, y = 1): the shift by one.
    shapes = [dict(type="line", xref="x", yref="y", x0=i + 1, y0=0.3, x1=i, y1=0.7,
                   line=dict(color=theme.HIGHLIGHT_COLOR, width=1.5)) for i in positions[:-1]]
    every = max(1, -(-n // 32))
    layout = theme.base_layout(
        title, height=height or 260, shapes=shapes,
        xaxis=dict(range=[-0.5, n - 0.5], showgrid=False, tickmode="array", tickvals=positions[::every],
                   title=dict(text=position_label)),
        yaxis=dict(autorange="reversed", showgrid=False),
        margin=dict(l=110, r=20, t=70, b=60),
    )
    return theme.figure([grid], layout)
