"""Training figures: loss and validation curves, accuracy, learning rate, tokens/s, validation
perplexity, gradient norm, the learning-rate schedule before a run, head scores over steps, and
several runs overlaid for side-by-side comparisons.

A training history is a mapping column name -> sequence, one entry per logged step, for example
{"step": [...], "loss": [...], "val_loss": [... None where not evaluated], "accuracy": [...],
"exact_match": [...], "lr": [...], "tokens_per_s": [...], "perplexity": [...], "grad_norm": [...]}.
Only "step" and "loss" are required; None entries become gaps that the lines bridge.
"""
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from playground.viz import theme
from playground.viz.labels import as_float32

TRAINING_PANELS = (
    ("Loss", (("loss", "train loss"), ("val_loss", "validation loss"))),
    ("Accuracy", (("accuracy", "accuracy"), ("exact_match", "exact match"))),
    ("Learning rate", (("lr", "learning rate"),)),
    ("Tokens / s", (("tokens_per_s", "tokens/s"),)),
    ("Validation perplexity", (("perplexity", "validation perplexity"),)),
    ("Gradient norm", (("grad_norm", "gradient norm"),)),
)
GRADIENT_PANEL = 5          # index of the gradient-norm panel in TRAINING_PANELS
RATE_PANEL = 2              # index of the learning-rate panel


def history_column(history: Mapping[str, Sequence], name: str) -> np.ndarray:
    """One column of a history as float32, None -> NaN; ValueError if its length differs from "step"."""
    if "step" not in history:
        raise ValueError(f"history needs a 'step' column; it has {sorted(history)}")
    values = np.array([np.nan if v is None else v for v in history[name]], dtype=np.float32)  # [N]
    if len(values) != len(history["step"]):
        raise ValueError(f"history column '{name}' has {len(values)} entries but 'step' has {len(history['step'])}")
    return values


def training_curves(
    history: Mapping[str, Sequence],
    title: str = "Training",
    panel_titles: Sequence[str] | None = None,
    series_names: Mapping[str, str] | None = None,
    step_label: str = "step",
    height: int | None = None,
    grad_clip: float | None = None,
    clip_label: str = "clipping threshold",
) -> go.Figure:
    """Six panels: loss (+ validation loss), accuracy (+ exact match), learning rate, tokens/s,
    validation perplexity, gradient norm (with ``grad_clip`` drawn as a dashed line when given).

    history: see the module docstring. panel_titles: six titles in TRAINING_PANELS order;
    series_names: column name -> legend name. Columns absent from the history are left out.
    """
    if "loss" not in history:
        raise ValueError(f"history needs a 'loss' column; it has {sorted(history)}")
    steps = history_column(history, "step")
    panel_titles = list(panel_titles) if panel_titles is not None else [p[0] for p in TRAINING_PANELS]
    if len(panel_titles) != len(TRAINING_PANELS):
        raise ValueError(f"panel_titles needs {len(TRAINING_PANELS)} titles, got {len(panel_titles)}")
    names = dict(series_names or {})
    rows = -(-len(TRAINING_PANELS) // 2)
    fig = make_subplots(rows=rows, cols=2, subplot_titles=panel_titles, vertical_spacing=0.12, horizontal_spacing=0.1)
    mode = theme.line_mode(len(steps))
    color_index = 0
    for index, (_, columns) in enumerate(TRAINING_PANELS):
        row, col = divmod(index, 2)
        for column, default_name in columns:
            if column not in history:
                continue
            name = names.get(column, default_name)
            fig.add_trace(dict(
                type="scatter",
                x=steps, y=history_column(history, column), mode=mode, name=name, connectgaps=True,
                line=dict(width=3, color=theme.SERIES_COLORS[color_index % len(theme.SERIES_COLORS)]),
                marker=dict(size=5), hovertemplate=f"{name}<br>{step_label}: %{{x}}<br>%{{y:.4g}}<extra></extra>",
            ), row=row + 1, col=col + 1)
            color_index += 1
    if grad_clip is not None:
        # the line across the panel; its name in the legend, where it covers no point of the curve
        row, col = divmod(GRADIENT_PANEL, 2)
        clip_line = dict(dash="dash", color=theme.HIGHLIGHT_COLOR, width=2)
        fig.add_hline(y=grad_clip, line=clip_line, row=row + 1, col=col + 1)
        fig.add_trace(dict(type="scatter", x=[None], y=[None], mode="lines", line=clip_line, hoverinfo="skip",
                           name=f"{clip_label} = {grad_clip:g}"), row=row + 1, col=col + 1)
    fig.update_xaxes(title_text=step_label, row=rows)
    fig.update_xaxes(rangemode="nonnegative")                              # steps start at 0, never below
    if "lr" in history:
        fit_rate_axis(fig, history["lr"])
    fig.update_layout(theme.base_layout(
        title, height=height if height is not None else 820,
        legend=dict(orientation="h", yanchor="top", y=-0.16, x=0),           # under the axis titles, clear of the title
        margin=dict(l=70, r=30, t=90, b=150),
    ))
    return fig


def fit_rate_axis(fig: go.Figure, rates: Sequence[float]) -> None:
    """Fit the learning-rate panel of a training_curves figure to `rates`: from 0, and for a constant rate
    (a run's first points too) up to twice it. Said either way, so a figure updated as a run goes on (and a
    page redrawing it) never keeps the range of its first points."""
    rates = np.array([np.nan if rate is None else rate for rate in rates], dtype=np.float64)    # [N]
    finite = rates[np.isfinite(rates)]
    row, col = divmod(RATE_PANEL, 2)
    if finite.size and finite.min() == finite.max() > 0:
        fig.update_yaxes(range=[0, 2 * float(finite.max())], autorange=False, row=row + 1, col=col + 1)
    else:
        fig.update_yaxes(range=None, autorange=True, rangemode="tozero", row=row + 1, col=col + 1)


def learning_rate_schedule(
    steps: Sequence[int],
    rates: Sequence[float],
    title: str = "Learning-rate schedule",
    step_label: str = "step",
    rate_label: str = "learning rate",
    height: int | None = None,
) -> go.Figure:
    """The learning rate of every step of a run, drawn before it starts (steps and rates as from
    playground.train.schedule.schedule_curve)."""
    x = np.asarray(steps, dtype=np.float64)                                  # [N]
    y = np.asarray(rates, dtype=np.float64)                                  # [N]
    if x.ndim != 1 or len(x) == 0 or x.shape != y.shape:
        raise ValueError(f"steps and rates must be two non-empty lists of one length, got {x.shape} and {y.shape}")
    if not np.isfinite(y).all():
        raise ValueError("rates must be finite numbers")
    trace = dict(type="scatter", x=x, y=y, mode="lines", name=rate_label, line=dict(width=3, color=theme.SERIES_COLORS[0]),
                 hovertemplate=f"{step_label}: %{{x}}<br>{rate_label}: %{{y:.4g}}<extra></extra>")
    layout = theme.base_layout(title, height=height if height is not None else 320,
                               xaxis=dict(title=dict(text=step_label)), yaxis=dict(title=dict(text=rate_label)),
                               showlegend=False, margin=dict(l=80, r=30, t=60, b=60))
    return theme.figure([trace], layout)


def compare_runs(
    runs: Mapping[str, Mapping[str, Sequence]],
    metrics: Sequence[str] = ("loss", "val_loss"),
    title: str = "Runs compared",
    metric_names: Mapping[str, str] | None = None,
    step_label: str = "step",
    height: int | None = None,
) -> go.Figure:
    """Several runs overlaid: runs maps a run name (e.g. "correct", "missing 1/sqrt(d_k)") to its history.

    Each run keeps one colour; each metric keeps one line style (solid, dash, dot, ...); the last run,
    drawn on top, is thinner, so a run it matches (a bug the loss does not show) still shows under it.
    A metric missing from a run is skipped for that run.
    """
    if len(runs) == 0:
        raise ValueError("runs is empty; pass at least one history to plot")
    if len(metrics) == 0:
        raise ValueError("metrics is empty; choose at least one column such as 'loss'")
    names = dict(metric_names or {})
    dashes = ("solid", "dash", "dot", "dashdot")
    traces = []
    for run_index, (run_name, history) in enumerate(runs.items()):
        steps = history_column(history, "step")
        for metric_index, metric in enumerate(metrics):
            if metric not in history:
                continue
            label = f"{run_name} · {names.get(metric, metric)}"
            traces.append(dict(
                type="scatter",
                x=steps, y=history_column(history, metric), mode="lines", name=label, connectgaps=True,
                line=dict(
                    width=theme.nested_line(run_index, len(runs))["width"],
                    color=theme.SERIES_COLORS[run_index % len(theme.SERIES_COLORS)],
                    dash=dashes[metric_index % len(dashes)],
                ),
                hovertemplate=f"{label}<br>{step_label}: %{{x}}<br>%{{y:.4g}}<extra></extra>",
            ))
    if not traces:
        raise ValueError(f"none of the runs has any of the metrics {list(metrics)}")
    layout = theme.base_layout(
        title, height=height if height is not None else 460,
        xaxis=dict(title=dict(text=step_label)),
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0.01, x=0),   # under the axis title
        margin=dict(l=70, r=30, t=60, b=150),
    )
    return theme.figure(traces, layout)


def _head_rows(n_layers: int, n_heads: int) -> list[str]:
    return [f"L{layer} H{head}" for layer in range(n_layers) for head in range(n_heads)]


def head_scores_over_steps(
    steps: Sequence[int],
    scores,
    score_name: str = "previous-token score",
    title: str | None = None,
    step_label: str = "step",
    head_label: str = "head",
    height: int | None = None,
) -> go.Figure:
    """scores: [S, L, H] one score per head at each of the S steps -> heatmap, rows = heads
    ("L{layer} H{head}"), columns = steps, so a head that specialises shows as a brightening row.
    Each column is centred on its step; the axis spans the first to the last step (Plotly would widen
    it by half a column at each end, to steps before the run began and after it ended)."""
    s = as_float32(scores, "scores", 3)  # [S, L, H]
    if len(steps) != s.shape[0]:
        raise ValueError(f"steps has {len(steps)} entries but scores has {s.shape[0]} rows of scores")
    n_steps, n_layers, n_heads = s.shape
    z = s.reshape(n_steps, n_layers * n_heads).T  # [L*H, S]
    x = np.asarray(steps, dtype=np.int64)  # [S]
    span = dict(range=[int(x.min()), int(x.max())]) if n_steps > 1 and x.max() > x.min() else {}
    trace = dict(
        type="heatmap",
        z=np.ascontiguousarray(z), x=x, y=_head_rows(n_layers, n_heads),
        colorscale=theme.ATTENTION_COLORSCALE,
        hovertemplate=f"{head_label}: %{{y}}<br>{step_label}: %{{x}}<br>{score_name}: %{{z:.4f}}<extra></extra>",
    )
    layout = theme.base_layout(
        title if title is not None else f"{score_name} over training",
        height=height if height is not None else int(min(720, 180 + 22 * n_layers * n_heads)),
        xaxis=dict(title=dict(text=step_label), showgrid=False, **span),
        yaxis=dict(title=dict(text=head_label), autorange="reversed", type="category", showgrid=False),
    )
    return theme.figure([trace], layout)


def head_scores_heatmap(
    scores,
    score_name: str = "previous-token score",
    title: str | None = None,
    layer_label: str = "layer",
    head_label: str = "head",
    height: int | None = None,
) -> go.Figure:
    """scores: [L, H], one score in [0, 1] per head -> an L x H heatmap with each value written in its
    cell, coloured on the fixed range [0, 1] so equal scores get equal colours in every figure."""
    s = as_float32(scores, "scores", 2)  # [L, H]
    trace = dict(
        type="heatmap",
        z=s, x=[f"{head_label} {h}" for h in range(s.shape[1])], y=[f"{layer_label} {layer}" for layer in range(s.shape[0])],
        colorscale=theme.ATTENTION_COLORSCALE, zmin=0.0, zmax=1.0, texttemplate="%{z:.2f}",
        hovertemplate=f"%{{y}} · %{{x}}<br>{score_name}: %{{z:.4f}}<extra></extra>",
    )
    layout = theme.base_layout(
        title if title is not None else f"{score_name} per head",
        height=height if height is not None else 160 + 60 * s.shape[0],
        xaxis=dict(type="category", showgrid=False, side="top"),
        yaxis=dict(type="category", autorange="reversed", showgrid=False),
    )
    return theme.figure([trace], layout)


def induction_formation(
    steps: Sequence[int],
    previous_token,
    induction,
    threshold: float,
    title: str = "Induction head forming",
    previous_name: str = "previous-token score, layer 0",
    induction_name: str = "induction score, later layers",
    threshold_name: str = "threshold",
    crossed_name: str = "crosses the threshold",
    step_label: str = "step",
    score_label: str = "score",
    height: int | None = None,
) -> go.Figure:
    """Two scores over the S steps: previous_token [S] (the best head of layer 0) and induction [S]
    (the best head of the later layers), on a fixed 0..1 axis, with ``threshold`` as a dashed line
    and the first step where induction reaches it marked by a vertical line."""
    x = np.asarray(steps, dtype=np.int64)                                   # [S]
    series = ((previous_name, as_float32(previous_token, "previous_token", 1)),
              (induction_name, as_float32(induction, "induction", 1)))
    for name, values in series:
        if len(values) != len(x):
            raise ValueError(f"{name} has {len(values)} values but steps has {len(x)}")
    mode = theme.line_mode(len(x))
    traces = [dict(type="scatter", x=x, y=values, mode=mode, name=name,
                   line=dict(width=3, color=theme.SERIES_COLORS[i % len(theme.SERIES_COLORS)]), marker=dict(size=6),
                   hovertemplate=f"{name}<br>{step_label}: %{{x}}<br>%{{y:.3f}}<extra></extra>")
              for i, (name, values) in enumerate(series)]
    reached = np.nonzero(series[1][1] >= threshold)[0]
    shapes = [dict(type="line", xref="paper", x0=0, x1=1, y0=threshold, y1=threshold,
                   line=dict(dash="dash", width=2, color=theme.SERIES_COLORS[2]))]
    # the threshold's name at the left, where every run's scores start low: the induction score ends above
    # the line, and at the right it ran through the name
    annotations = [dict(xref="paper", x=0, y=threshold, xanchor="left", yanchor="bottom", showarrow=False,
                        text=f"{threshold_name} {threshold:g}")]
    if len(reached):
        crossed = int(x[reached[0]])
        shapes.append(dict(type="line", yref="paper", x0=crossed, x1=crossed, y0=0, y1=1,
                           line=dict(dash="dot", width=2, color=theme.SERIES_COLORS[1])))
        annotations.append(dict(x=crossed, yref="paper", y=1, yanchor="bottom", showarrow=False,
                                text=f"{crossed_name}: {step_label} {crossed}"))
    layout = theme.base_layout(
        title, height=height if height is not None else 420,
        xaxis=dict(title=dict(text=step_label)), yaxis=dict(title=dict(text=score_label), range=[0, 1.05]),
        shapes=shapes, annotations=annotations,
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0.01, x=0),
        margin=dict(l=70, r=30, t=90, b=120),
    )
    return theme.figure(traces, layout)


def layer_gradient_norms(
    steps: Sequence[int],
    norms: Mapping[str, Sequence[float]],
    title: str = "Gradient norm per layer",
    step_label: str = "step",
    norm_label: str = "gradient norm",
    height: int | None = None,
) -> go.Figure:
    """One line per layer over the S steps: norms maps a layer's label (e.g. "embeddings", "block 0",
    ..., "head", input to output) to its gradient norm at each step [S]. The norm axis is logarithmic,
    so layers whose gradients differ a hundredfold (vanishing, exploding) all stay readable; the lines
    run from dark purple (input side) to yellow-green (output side)."""
    x = np.asarray(steps, dtype=np.int64)                                   # [S]
    if len(norms) == 0:
        raise ValueError("norms is empty; pass at least one layer's gradient norms")
    mode = theme.line_mode(len(x))
    colors = sample_colorscale(theme.ATTENTION_COLORSCALE, list(np.linspace(0.0, 0.9, len(norms))))
    traces = []
    for color, (label, values) in zip(colors, norms.items()):
        y = np.array([np.nan if v is None else v for v in values], dtype=np.float32)    # [S]
        if len(y) != len(x):
            raise ValueError(f"layer '{label}' has {len(y)} norms but steps has {len(x)}")
        traces.append(dict(type="scatter", x=x, y=y, mode=mode, name=label, line=dict(width=3, color=color),
                           marker=dict(size=5), connectgaps=True,
                           hovertemplate=f"{label}<br>{step_label}: %{{x}}<br>{norm_label}: %{{y:.4g}}<extra></extra>"))
    layout = theme.base_layout(
        title, height=height if height is not None else 420,
        xaxis=dict(title=dict(text=step_label), rangemode="nonnegative"),
        yaxis=dict(title=dict(text=norm_label), type="log"),
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0.01, x=0),
        margin=dict(l=80, r=30, t=70, b=130),
    )
    return theme.figure(traces, layout)
