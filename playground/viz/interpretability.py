"""Figures of the tools that say why a model answers as it does: activation patching (layer x position,
layer x head), direct logit attribution (one bar per component) and linear probes (accuracy by layer).

Signed values share one diverging scale centred at 0 (blue below, white at 0, red above); a patching
map spans at least -1..1, so 1 (the answer fully restored) has the same colour in every view.
"""
import html
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.attention import tick_font_size
from playground.viz.labels import as_float32, axis_categories, check_tokens, number_text

HOVER_DIGITS = 4
MAX_CELL_TEXT = 24          # columns up to which every cell of a patching map also prints its value


def _signed_range(values: np.ndarray, at_least: float) -> float:
    return float(max(at_least, np.abs(values).max()))


def _number_cells(values: np.ndarray, digits: int) -> np.ndarray:
    return np.array([[number_text(v, digits) for v in row] for row in values], dtype=object)


def patching_heatmap(
    values,
    row_labels: Sequence[str],
    tokens: Sequence[str],
    title: str = "Activation patching: how much of the answer each activation restores",
    row_label: str = "layer",
    position_label: str = "position",
    value_label: str = "restored",
    height: int | None = None,
) -> go.Figure:
    """values [R, T]: the normalised metric of patching row r (a layer of the residual stream, or a head)
    at position t (1: the clean answer restored, 0: no change); row_labels: R names; tokens: T texts."""
    grid = as_float32(values, "values", 2)                                  # [R, T]
    n_rows, n_positions = grid.shape
    check_tokens(tokens, n_positions, "tokens", "position")
    if len(row_labels) != n_rows:
        raise ValueError(f"row_labels has {len(row_labels)} labels but values has {n_rows} rows")
    columns, tick_text = axis_categories(tokens)
    bound = _signed_range(grid, 1.0)
    shown = _number_cells(grid, HOVER_DIGITS)                               # [R, T]
    trace = dict(
        type="heatmap", z=grid, x=columns, y=list(row_labels), customdata=shown,
        zmin=-bound, zmax=bound, zmid=0.0, colorscale=theme.DIVERGING_COLORSCALE,
        colorbar=dict(title=dict(text=value_label)), xgap=1, ygap=1,
        hovertemplate=(f"{row_label}: %{{y}}<br>{position_label}: %{{x}}<br>{value_label}: %{{customdata}}"
                       "<extra></extra>"),
    )
    if n_positions <= MAX_CELL_TEXT:
        trace.update(text=_number_cells(grid, 2), texttemplate="%{text}", textfont=dict(size=theme.SMALL_FONT_SIZE))
    layout = theme.base_layout(
        title,
        height=height if height is not None else int(min(720, 200 + 36 * n_rows)),
        xaxis=dict(title=dict(text=position_label), type="category", tickmode="array", tickvals=columns,
                   ticktext=tick_text, tickfont=dict(size=tick_font_size(n_positions)), showgrid=False),
        yaxis=dict(title=dict(text=row_label), type="category", autorange="reversed", showgrid=False),
    )
    return theme.figure([trace], layout)


def head_patching_heatmap(
    values,
    title: str = "Activation patching: each head's output",
    layer_label: str = "layer",
    head_label: str = "head",
    value_label: str = "restored",
    height: int | None = None,
    row_labels: Sequence[str] | None = None,
) -> go.Figure:
    """values [L, H]: the normalised metric of patching each head's output (at every position).
    row_labels: a name per row (several attention sites stacked: "cross 1"), else "{layer_label} i"."""
    grid = as_float32(values, "values", 2)                                  # [L, H]
    n_layers, n_heads = grid.shape
    bound = _signed_range(grid, 1.0)
    if row_labels is not None and len(row_labels) != n_layers:
        raise ValueError(f"row_labels has {len(row_labels)} labels but values has {n_layers} rows")
    rows = [html.escape(str(name), quote=False) for name in row_labels] if row_labels is not None \
        else [f"{layer_label} {i}" for i in range(n_layers)]
    heads = [f"{head_label} {h}" for h in range(n_heads)]
    trace = dict(
        type="heatmap", z=grid, x=heads, y=rows, customdata=_number_cells(grid, HOVER_DIGITS),
        text=_number_cells(grid, 2), texttemplate="%{text}", zmin=-bound, zmax=bound, zmid=0.0,
        colorscale=theme.DIVERGING_COLORSCALE, colorbar=dict(title=dict(text=value_label)), xgap=2, ygap=2,
        hovertemplate=f"%{{y}}, %{{x}}<br>{value_label}: %{{customdata}}<extra></extra>",
    )
    layout = theme.base_layout(
        title,
        height=height if height is not None else int(min(600, 180 + 60 * n_layers)),
        xaxis=dict(title=dict(text=head_label), type="category", showgrid=False),
        yaxis=dict(title=dict(text=layer_label), type="category", autorange="reversed", showgrid=False),
    )
    return theme.figure([trace], layout)


def logit_attribution_bars(
    labels: Sequence[str],
    values,
    logit: float,
    title: str = "Direct logit attribution: what each part adds to the logit",
    component_label: str = "part",
    value_label: str = "contribution to the logit",
    total_label: str = "sum of the parts",
    logit_label: str = "the model's logit",
    height: int | None = None,
) -> go.Figure:
    """One bar per component (labels[i] adds values[i] to the chosen token's logit), red above 0 and
    blue below, with the sum of the parts and the model's own logit written above the bars."""
    contributions = as_float32(values, "values", 1)                          # [N]
    if len(labels) != len(contributions):
        raise ValueError(f"labels has {len(labels)} names but values has {len(contributions)} contributions")
    if not np.isfinite(logit):
        raise ValueError(f"logit must be a finite number, got {logit}")
    categories = [html.escape(str(label), quote=False) for label in labels]       # names, not tokens: spaces stay
    if len(set(categories)) != len(categories):
        raise ValueError("labels must name each component once")
    colors = np.where(contributions >= 0, theme.DIVERGING_COLORSCALE[-1][1], theme.DIVERGING_COLORSCALE[0][1])
    total = float(np.sum(contributions, dtype=np.float64))
    trace = dict(
        type="bar", x=categories, y=contributions, marker=dict(color=colors.tolist()),
        customdata=np.array([number_text(v, HOVER_DIGITS) for v in contributions], dtype=object),
        hovertemplate=f"{component_label}: %{{x}}<br>{value_label}: %{{customdata}}<extra></extra>",
    )
    note = f"{total_label}: {number_text(total, 3)}   {logit_label}: {number_text(logit, 3)}"
    layout = theme.base_layout(
        title,
        height=height if height is not None else 460,
        xaxis=dict(title=dict(text=component_label), type="category",
                   tickfont=dict(size=tick_font_size(len(categories)))),
        yaxis=dict(title=dict(text=value_label), zeroline=True, zerolinecolor="#444444", zerolinewidth=2),
        annotations=[dict(text=note, x=0, y=1.02, xref="paper", yref="paper", xanchor="left", yanchor="bottom",
                          showarrow=False, font=dict(size=theme.SMALL_FONT_SIZE + 2))],
    )
    return theme.figure([trace], layout)


def probe_accuracy(
    layer_labels: Sequence[str],
    accuracy,
    control,
    chance: float,
    title: str = "Linear probes: what each layer makes readable",
    layer_label: str = "layer",
    accuracy_label: str = "held-out accuracy",
    probe_label: str = "probe",
    control_label: str = "control (shuffled labels)",
    chance_label: str = "chance",
    height: int | None = None,
    position_only: float | None = None,
    position_label: str = "position only",
) -> go.Figure:
    """accuracy, control [L]: held-out accuracy of the probe and of the control probe at each layer;
    chance: what always answering the commonest label scores (a dashed line); position_only, when given: what
    the position alone reads (a dotted line)."""
    probe = as_float32(accuracy, "accuracy", 1)                               # [L]
    shuffled = as_float32(control, "control", 1)                              # [L]
    if not len(layer_labels) == len(probe) == len(shuffled):
        raise ValueError(f"layer_labels, accuracy and control must have one entry per layer, got "
                         f"{len(layer_labels)}, {len(probe)} and {len(shuffled)}")
    baselines = [("chance", chance)] + ([("position_only", position_only)] if position_only is not None else [])
    for name, series in (("accuracy", probe), ("control", shuffled), *((n, np.array([v])) for n, v in baselines)):
        if series.min() < 0 or series.max() > 1:
            raise ValueError(f"{name} must be a share of right answers in [0, 1]")
    layers = list(layer_labels)

    def line(y: np.ndarray, name: str, color: str, dash: str = "solid") -> dict:
        return dict(type="scatter", x=layers, y=y, name=name, mode="lines+markers",
                    line=dict(width=3, color=color, dash=dash), marker=dict(size=9),
                    hovertemplate=f"{name}<br>{layer_label}: %{{x}}<br>{accuracy_label}: %{{y:.1%}}<extra></extra>")

    traces = [line(probe, probe_label, theme.SERIES_COLORS[0]), line(shuffled, control_label, theme.SERIES_COLORS[3]),
              line(np.full(len(layers), chance, dtype=np.float32), chance_label, "#777777", "dash")]
    traces[-1].update(mode="lines")
    if position_only is not None:
        traces.append(line(np.full(len(layers), position_only, dtype=np.float32), position_label, "#444444", "dot"))
        traces[-1].update(mode="lines")
    layout = theme.base_layout(
        title,
        height=height if height is not None else 420,
        xaxis=dict(title=dict(text=layer_label), type="category"),
        yaxis=dict(title=dict(text=accuracy_label), range=[0, 1.02], tickformat=".0%"),
    )
    return theme.figure(traces, layout)
