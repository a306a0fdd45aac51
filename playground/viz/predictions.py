"""What a model predicts: the candidates for each blank of a masked model, and teacher-forced
against free-running decoding of one target. The blanks' panels sit side by side, and carry the
relayout that stacks them on a phone (viz.matrices.NARROW_META)."""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, visible_token
from playground.viz.matrices import NARROW_META, column_domains, narrow_relayout, stacked_domains, stacked_title

# Blue and orange: told apart by colour-blind viewers too (not green and red).
MATCH_COLOR, MISS_COLOR, NONE_COLOR = "#8ec5ff", "#ffb870", "#ffffff"
BLANKS_PER_ROW = 4
BAR_ROW_PX = 30             # a stacked panel's bar


def blank_candidates(
    blanks: Sequence[tuple[str, Sequence[str], Sequence[float]]],
    title: str = "Candidates for each blank",
    probability_label: str = "probability",
    height: int | None = None,
) -> go.Figure:
    """One bar panel per blank: (panel title, candidate tokens best first, their probabilities).
    Up to BLANKS_PER_ROW panels a row."""
    if not blanks:
        raise ValueError("blanks is empty; pass at least one blank")
    n_rows = -(-len(blanks) // BLANKS_PER_ROW)
    per_row = min(len(blanks), BLANKS_PER_ROW)
    x_domains = column_domains([1] * per_row, gap=0.06, left=0.02)
    y_gap = 0.14
    cell = (1.0 - y_gap * (n_rows - 1)) / n_rows
    traces, axes, annotations = [], {}, []
    for k, (name, tokens, probabilities) in enumerate(blanks):
        p = as_float32(probabilities, f"probabilities of {name!r}", 1)
        if len(tokens) != p.shape[0]:
            raise ValueError(f"blank {name!r}: {len(tokens)} tokens but {p.shape[0]} probabilities")
        row, col = divmod(k, BLANKS_PER_ROW)
        suffix = "" if k == 0 else str(k + 1)
        top = 1.0 - row * (cell + y_gap)
        shown = [visible_token(str(t)) for t in tokens]
        categories = [f"{i}: {s}" for i, s in enumerate(shown)]
        colors = [theme.HIGHLIGHT_COLOR if i == 0 else theme.SERIES_COLORS[0] for i in range(len(tokens))]
        traces.append(dict(type="bar", orientation="h", x=p, y=categories, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
                           marker=dict(color=colors), text=[f"{v:.0%}" for v in p], textposition="outside",
                           cliponaxis=False, showlegend=False,
                           hovertemplate=f"{name}<br>%{{y}}: %{{x:.2%}}<extra></extra>"))
        axes[f"xaxis{suffix}"] = dict(domain=x_domains[col], anchor=f"y{suffix}", range=[0, 1.15], tickformat=".0%",
                                      dtick=0.25,
                                      title=dict(text=probability_label if row == n_rows - 1 else ""))
        axes[f"yaxis{suffix}"] = dict(domain=[round(max(0.0, top - cell), 6), round(top, 6)], anchor=f"x{suffix}",
                                      type="category", autorange="reversed", tickmode="array", tickvals=categories,
                                      ticktext=shown, tickfont=dict(size=theme.FONT_SIZE + 2))
        annotations.append(dict(text=f"<b>{name}</b>", x=sum(x_domains[col]) / 2, y=top, xref="paper", yref="paper",
                                xanchor="center", yanchor="bottom", showarrow=False))
    layout = theme.base_layout(title, height=height or 150 + 260 * n_rows, annotations=annotations,
                               margin=dict(l=50, r=30, t=100, b=60), **axes)
    if len(blanks) > 1:
        layout["meta"] = {NARROW_META: _narrow_blanks(title, blanks, probability_label)}
    return theme.figure(traces, layout)


def _narrow_blanks(title: str, blanks: Sequence[tuple[str, Sequence[str], Sequence[float]]],
                   probability_label: str) -> dict:
    """The relayout that stacks the blanks' panels: each its title, its bars, its percentage labels; the
    axis title under the last one only."""
    rows = [len(tokens) + 3 for _, tokens, _ in blanks]           # its title, its bars, its tick labels
    allotted = stacked_domains(rows, gap=0.015)
    y_domains = [[round(y0 + (y1 - y0) / n, 6), round(y1 - 1.6 * (y1 - y0) / n, 6)] for (y0, y1), n in zip(allotted, rows)]
    titles = [stacked_title(name, y1) for (name, _, _), (_, y1) in zip(blanks, allotted)]
    update = narrow_relayout(title, len(blanks), y_domains, titles, 110 + BAR_ROW_PX * sum(rows))
    for k in range(len(blanks)):
        update[f"xaxis{'' if k == 0 else k + 1}.title.text"] = probability_label if k == len(blanks) - 1 else ""
    return update


def two_decodings(
    target: Sequence[str],
    teacher_forced: Sequence[str],
    free_running: Sequence[str],
    p_teacher: Sequence[float],
    p_free: Sequence[float],
    parted_at: int | None,
    title: str = "Teacher forcing against free-running",
    row_labels: Sequence[str] = ("target", "teacher-forced", "free-running"),
    position_label: str = "position",
    probability_label: str = "p(target token)",
    parted_label: str = "parted here",
    height: int | None = None,
) -> go.Figure:
    """Top: the target and each decoding's token at every position, blue where it equals the
    target, orange where not. Bottom: the probability each gives the target token. The first
    position where free-running leaves the target (`parted_at`) is outlined in both."""
    n = len(target)
    if n == 0 or len(teacher_forced) != n or len(p_teacher) != n or len(free_running) > n \
            or len(p_free) != len(free_running):
        raise ValueError(f"target ({n}), teacher_forced ({len(teacher_forced)}) and p_teacher ({len(p_teacher)}) need "
                         f"one entry per position; free_running ({len(free_running)}) and p_free ({len(p_free)}) one "
                         f"per position it reached")
    p_t, p_f = as_float32(p_teacher, "p_teacher", 1), np.asarray(p_free, dtype=np.float32)
    rows = [list(target), list(teacher_forced), list(free_running) + [""] * (n - len(free_running))]
    shown = [[visible_token(str(t)) if t != "" else "" for t in row] for row in rows]
    state = np.array([[0.5] * n] + [[1.0 if t == target[i] else (0.5 if t == "" else 0.0) for i, t in enumerate(row)]
                                    for row in rows[1:]])
    colorscale = [[0.0, MISS_COLOR], [0.49, MISS_COLOR], [0.49, NONE_COLOR], [0.51, NONE_COLOR], [0.51, MATCH_COLOR],
                  [1.0, MATCH_COLOR]]
    positions = list(range(n))
    grid = dict(type="heatmap", z=state, x=positions, y=list(row_labels), zmin=0, zmax=1, colorscale=colorscale,
                showscale=False, xgap=2, ygap=2, text=shown, texttemplate="%{text}",
                textfont=dict(size=theme.FONT_SIZE + 1, color=theme.TEXT_COLOR),
                hovertemplate=f"%{{y}} · {position_label} %{{x}}: %{{text}}<extra></extra>")
    # until the decodings part, free-running lies on teacher forcing: it is drawn thinner, on top
    lines = [dict(type="scatter", x=positions[:len(p)], y=p, name=name, mode="lines+markers", xaxis="x2", yaxis="y2",
                  line=dict(width=drawn["width"], color=color), marker=dict(size=drawn["marker"]),
                  hovertemplate=f"{name} · {position_label} %{{x}}<br>{probability_label}: %{{y:.3f}}<extra></extra>")
             for p, name, color, drawn in ((p_t, row_labels[1], theme.SERIES_COLORS[0], theme.UNDER_LINE),
                                           (p_f, row_labels[2], theme.SERIES_COLORS[1], theme.TOP_LINE))]
    shapes, annotations = [], []
    if parted_at is not None:
        for xref, yref in (("x", "y domain"), ("x2", "y2 domain")):
            shapes.append(dict(type="rect", xref=xref, yref=yref, x0=parted_at - 0.5, x1=parted_at + 0.5, y0=0, y1=1,
                               line=dict(color=theme.HIGHLIGHT_COLOR, width=3), fillcolor="rgba(0,0,0,0)"))
        annotations.append(dict(text=f"▼ {parted_label}", x=parted_at, y=1.0, xref="x", yref="y domain",
                                yanchor="bottom", showarrow=False, font=dict(color=theme.HIGHLIGHT_COLOR)))
    every = max(1, -(-n // 40))
    xaxis = dict(range=[-0.5, n - 0.5], showgrid=False, tickmode="array", tickvals=positions[::every])
    marks = dict(shapes=shapes, annotations=annotations) if parted_at is not None else {}
    layout = theme.base_layout(
        title, height=height or 520, **marks,
        xaxis=dict(xaxis, anchor="y", showticklabels=False),
        yaxis=dict(domain=[0.55, 0.9], autorange="reversed", showgrid=False),
        xaxis2=dict(xaxis, anchor="y2", matches="x", title=dict(text=position_label)),
        yaxis2=dict(domain=[0.0, 0.45], range=[0, 1.05], title=dict(text=probability_label)),
        legend=dict(orientation="h", yanchor="top", y=0.53, x=1, xanchor="right"), margin=dict(l=130, r=30, t=80, b=60),
    )
    return theme.figure([grid, *lines], layout)
