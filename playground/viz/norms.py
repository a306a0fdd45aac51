"""Normalisation figures: one vector through LayerNorm, and the size of the residual stream layer by layer."""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, visible_token


def layer_norm_vector(
    series: dict[str, Sequence[float]],
    title: str = "LayerNorm of one token",
    dimension_label: str = "feature",
    value_label: str = "value",
    height: int | None = None,
) -> go.Figure:
    """Vectors of one token over its D features, one line each (e.g. input, normalised, output)."""
    if not series:
        raise ValueError("series is empty; pass at least the input vector")
    arrays = {name: as_float32(values, name, 1) for name, values in series.items()}
    sizes = {a.shape[0] for a in arrays.values()}
    if len(sizes) != 1:
        raise ValueError(f"every vector needs the same number of features, got {sorted(sizes)}")
    dims = np.arange(sizes.pop(), dtype=np.int32)
    traces = [
        dict(type="scatter", x=dims, y=values, name=name, mode="lines+markers", line=dict(width=2),
             marker=dict(size=5), hovertemplate=f"{name}<br>{dimension_label} %{{x}}: %{{y:.4f}}<extra></extra>")
        for name, values in arrays.items()
    ]
    layout = theme.base_layout(
        title, height=height or 440, xaxis=dict(title=dict(text=dimension_label)),
        yaxis=dict(title=dict(text=value_label)), legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        margin=dict(l=70, r=30, t=100, b=60),
    )
    return theme.figure(traces, layout)


def residual_norms(
    stages: Sequence[str],
    norms: Sequence[Sequence[float]],
    tokens: Sequence[Sequence[str]],
    title: str = "Size of the residual stream after every layer",
    stage_label: str = "stage",
    norm_label: str = "‖x‖ (L2 norm)",
    mean_label: str = "mean over tokens",
    token_label: str = "each token",
    groups: Sequence[str] | None = None,
    height: int | None = None,
) -> go.Figure:
    """The L2 norm of every token's residual vector at each stage (dots) and their mean (line).

    stages: S stage names in order; norms: per stage, one norm per token; tokens: per stage, the
    token texts (stages of different stacks may have different tokens). groups: one name per stage
    (e.g. its stack); the mean line is broken between groups, since their tokens differ.
    """
    if not stages or len(norms) != len(stages) or len(tokens) != len(stages):
        raise ValueError(f"need one list of norms and one of tokens per stage: {len(stages)} stages, "
                         f"{len(norms)} norm lists, {len(tokens)} token lists")
    values = [as_float32(n, f"norms[{i}]", 1) for i, n in enumerate(norms)]
    for i, (v, t) in enumerate(zip(values, tokens)):
        if len(t) != v.shape[0]:
            raise ValueError(f"stage {stages[i]!r} has {v.shape[0]} norms but {len(t)} tokens")
    xs = [stage for stage, v in zip(stages, values) for _ in v]
    ys = np.concatenate(values)
    labels = [visible_token(str(tok)) for t in tokens for tok in t]
    dots = dict(type="scatter", x=xs, y=ys, mode="markers", name=token_label, customdata=labels,
                marker=dict(size=7, color=theme.SERIES_COLORS[0], opacity=0.45),
                hovertemplate="%{x}<br>%{customdata}: %{y:.2f}<extra></extra>")
    groups = list(groups) if groups is not None else [""] * len(stages)
    if len(groups) != len(stages):
        raise ValueError(f"{len(groups)} groups for {len(stages)} stages; give one group per stage")
    means = [dict(type="scatter", x=[s for s, g in zip(stages, groups) if g == group],
                  y=np.array([v.mean() for v, g in zip(values, groups) if g == group]), mode="lines+markers",
                  name=mean_label, legendgroup="mean", showlegend=k == 0,
                  line=dict(width=4, color=theme.SERIES_COLORS[1]), marker=dict(size=10),
                  hovertemplate=f"%{{x}}<br>{mean_label}: %{{y:.2f}}<extra></extra>")
             for k, group in enumerate(dict.fromkeys(groups))]
    layout = theme.base_layout(
        title, height=height or 460,
        xaxis=dict(title=dict(text=stage_label), type="category", categoryorder="array", categoryarray=list(stages)),
        yaxis=dict(title=dict(text=norm_label), rangemode="tozero"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), margin=dict(l=70, r=30, t=100, b=60),
    )
    return theme.figure([dots, *means], layout)
