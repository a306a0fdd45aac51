"""Plain charts in the shared look: lines over a numeric axis, grouped bars over categories, and
ReLU against GELU. Every series is named in the legend and every value shows on hover."""
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.matrices import NARROW_META, column_domains, narrow_relayout

LEGEND_ABOVE = dict(orientation="h", yanchor="bottom", y=1.02, x=0, xanchor="left")
TOP_WITH_LEGEND = 120        # px above the plot for a title line and a legend line under it
MAX_DECADE_TICKS = 6         # a log axis labels at most about this many powers of ten (more would crowd at 18 px)
MAX_LABELLED_BARS = 16       # more bars than this and their values show on hover only (labels would collide)
COUNT_LINE_PX = 22           # px per line of text written above a plot (as a legend spaces its rows)
LEGEND_ENTRY_PX = 23         # a legend entry's row on a phone (a phone has room for one entry a row)


def _finite(values, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty list of numbers")
    return array


def log_axis(values: np.ndarray) -> dict:
    """A log axis labelled at powers of ten only: every one where the positive `values` span at most
    MAX_DECADE_TICKS decades, else every second (third, ...) one, so that the labels never crowd."""
    positive = values[np.isfinite(values) & (values > 0)]
    decades = float(np.ceil(np.log10(positive.max())) - np.floor(np.log10(positive.min()))) if positive.size else 1.0
    return dict(type="log", dtick=max(1, int(np.ceil(decades / MAX_DECADE_TICKS))), exponentformat="power")


def _title_margin(title: str) -> int:
    return TOP_WITH_LEGEND + theme.TITLE_LINE_PX * (len(theme.wrap(title, theme.TITLE_CELLS)) - 1)


def line_chart(
    x: Sequence[float],
    series: Mapping[str, Sequence[float]],
    title: str,
    x_label: str,
    y_label: str,
    log_x: bool = False,
    log_y: bool = False,
    marker_x: float | None = None,
    marker_label: str = "",
    value_format: str = ".3g",
    height: int | None = None,
) -> go.Figure:
    """One line per named series over the shared `x`; `marker_x` draws a labelled vertical line."""
    xs = _finite(x, "x")
    if not series:
        raise ValueError("series is empty; pass at least one named line")
    traces, all_ys = [], []
    for k, (name, values) in enumerate(series.items()):
        ys = _finite(values, f"series[{name!r}]")
        all_ys.append(ys)
        if ys.size != xs.size:
            raise ValueError(f"series[{name!r}] has {ys.size} values for {xs.size} x values")
        drawn = theme.nested_line(k, len(series))              # a series on top of another leaves it visible
        traces.append(dict(type="scatter", x=xs, y=ys, name=name,
                           mode=theme.line_mode(xs.size),
                           line=dict(width=drawn["width"], color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)]),
                           marker=dict(size=drawn["marker"]),
                           hovertemplate=f"{name}<br>{x_label}: %{{x}}<br>{y_label}: %{{y:{value_format}}}<extra></extra>"))
    lines = "<br>".join(theme.wrap(title, theme.TITLE_CELLS))
    extra = {}
    if marker_x is not None:
        at = float(np.log10(marker_x)) if log_x else marker_x          # a log axis places annotations by log10
        extra = dict(shapes=[dict(type="line", xref="x", yref="paper", x0=marker_x, x1=marker_x, y0=0, y1=1,
                                  line=dict(color=theme.TEXT_COLOR, width=2, dash="dash"))],
                     annotations=[dict(x=at, y=1, xref="x", yref="paper",
                                       text=marker_label, showarrow=False, xanchor="left", yanchor="top",
                                       xshift=6, bgcolor="rgba(255,255,255,0.85)")])
    layout = theme.base_layout(
        lines, height=height or 460, legend=LEGEND_ABOVE, margin=dict(l=80, r=30, t=_title_margin(title), b=60),
        xaxis=dict(title=dict(text=x_label), **(log_axis(xs) if log_x else {})),
        yaxis=dict(title=dict(text=y_label),
                   **(log_axis(np.concatenate(all_ys)) if log_y else dict(rangemode="tozero"))),
        **extra)
    return theme.figure(traces, layout)


def grouped_bars(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    title: str,
    category_label: str,
    value_label: str,
    value_format: str = ".3g",
    log_y: bool = False,
    percent: bool = False,
    height: int | None = None,
) -> go.Figure:
    """One bar per category and series, side by side, each with its value written above it
    (`percent`: values are shares in [0, 1], drawn on a 0-100% axis)."""
    if not categories or not series:
        raise ValueError("pass at least one category and one series")
    shown = [str(c) for c in categories]
    if len(set(shown)) != len(shown):
        raise ValueError(f"categories must be distinct, got {shown}")
    traces, all_ys = [], []
    top = 0.0
    labelled = len(categories) * len(series) <= MAX_LABELLED_BARS
    for k, (name, values) in enumerate(series.items()):
        ys = _finite(values, f"series[{name!r}]")
        if ys.size != len(categories):
            raise ValueError(f"series[{name!r}] has {ys.size} values for {len(categories)} categories")
        all_ys.append(ys)
        top = max(top, float(ys.max()))
        fmt = ".0%" if percent else value_format
        labels = dict(text=[format(v, fmt) for v in ys], textposition="outside", cliponaxis=False) if labelled else {}
        traces.append(dict(type="bar", x=shown, y=ys, name=name,
                           marker=dict(color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)]), **labels,
                           hovertemplate=f"{name}<br>%{{x}}<br>{value_label}: %{{y:{fmt}}}<extra></extra>"))
    lines = "<br>".join(theme.wrap(title, theme.TITLE_CELLS))
    if percent:
        yaxis = dict(title=dict(text=value_label), range=[0, 1.12], tickformat=".0%")
    elif log_y:
        yaxis = dict(title=dict(text=value_label), **log_axis(np.concatenate(all_ys)))
    else:
        yaxis = dict(title=dict(text=value_label), range=[0, top * 1.15 if top > 0 else 1])
    layout = theme.base_layout(
        lines, height=height or 460, barmode="group", legend=LEGEND_ABOVE,
        margin=dict(l=80, r=30, t=_title_margin(title), b=60),
        xaxis=dict(title=dict(text=category_label), type="category"),
        yaxis=yaxis)
    return theme.figure(traces, layout)


def activation_comparison(
    z: Sequence[float],
    functions: Mapping[str, Sequence[float]],
    slopes: Mapping[str, Sequence[float]],
    largest_inputs: Mapping[str, Sequence[float]],
    dead: Mapping[str, int],
    title: str,
    input_label: str = "input z",
    output_label: str = "act(z)",
    slope_label: str = "slope",
    largest_label: str = "a unit's largest input on the text",
    units_label: str = "units",
    dead_label: str = "dead under ReLU",
    height: int | None = None,
) -> go.Figure:
    """Left: each activation and its slope over `z`. Right: for each named model, a histogram of its
    feed-forward units' largest input over a text, the region at or below 0 shaded and each model's
    count of units there (`dead`) written in it."""
    zs = _finite(z, "z")
    largest = {name: _finite(values, f"largest_inputs[{name!r}]") for name, values in largest_inputs.items()}
    domains = column_domains([1, 1], gap=0.1, left=0.0)
    traces = []
    for k, (name, values) in enumerate(functions.items()):
        color = theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)]
        traces.append(dict(type="scatter", x=zs, y=_finite(values, name), name=name, mode="lines",
                           line=dict(width=3, color=color), legendgroup=name,
                           hovertemplate=f"{name}<br>z = %{{x:.2f}}: %{{y:.3f}}<extra></extra>"))
        slope = _finite(slopes[name], f"slopes[{name!r}]")
        traces.append(dict(type="scatter", x=zs, y=slope, name=f"{name} · {slope_label}", mode="lines",
                           line=dict(width=2, color=color, dash="dot"), legendgroup=name,
                           hovertemplate=f"{name} {slope_label}<br>z = %{{x:.2f}}: %{{y:.3f}}<extra></extra>"))
    for k, (name, values) in enumerate(largest.items()):
        traces.append(dict(type="histogram", x=values, xaxis="x2", yaxis="y2", name=f"{name} · {units_label}",
                           legendgroup=name, opacity=0.6, nbinsx=40,
                           marker=dict(color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)]),
                           hovertemplate=f"{name}<br>{largest_label}: %{{x}}<br>{units_label}: %{{y}}<extra></extra>"))
    low = min(min(float(v.min()) for v in largest.values()), 0.0)
    shapes = [dict(type="rect", xref="x2", yref="y2 domain", x0=low, x1=0, y0=0, y1=1, layer="below",
                   fillcolor="rgba(120,120,120,0.15)", line=dict(width=0))]
    # The counts stand above the histogram, one line per model, first on top: inside it they covered the
    # tallest bars, and text placed on the data axis widened that axis to fit it.
    annotations = [dict(x=0, y=1, xref="x2 domain", yref="y2 domain", text=f"{name}: {dead[name]} {dead_label}",
                        showarrow=False, xanchor="left", yanchor="bottom",
                        yshift=4 + COUNT_LINE_PX * (len(largest) - 1 - k),
                        font=dict(color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)]))
                   for k, name in enumerate(largest)]
    lines = "<br>".join(theme.wrap(title, theme.TITLE_CELLS))
    layout = theme.base_layout(
        lines, height=height or 460, legend=LEGEND_ABOVE, shapes=shapes, annotations=annotations, barmode="overlay",
        margin=dict(l=70, r=30, t=_title_margin(title), b=60),
        xaxis=dict(domain=domains[0], title=dict(text=input_label), zeroline=True),
        yaxis=dict(title=dict(text=f"{output_label} / {slope_label}")),
        xaxis2=dict(domain=domains[1], anchor="y2", title=dict(text=largest_label), zeroline=True),
        yaxis2=dict(anchor="x2", title=dict(text=units_label)))
    # On a phone: the functions above the histogram, which keeps its counts over it (the gap holds the upper
    # panel's axis title and the counts), the legend above both, an entry a row.
    legend_px = LEGEND_ENTRY_PX * len(traces)
    narrow = narrow_relayout(title, 2, [[0.6, 1.0], [0.0, 0.4]], annotations, 760 + legend_px)
    layout["meta"] = {NARROW_META: {**narrow, "margin.t": narrow["margin.t"] + legend_px,
                                    "legend.traceorder": "normal"}}       # no gap between groups
    return theme.figure(traces, layout)
