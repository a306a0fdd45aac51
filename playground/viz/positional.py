"""Positional encodings: the [T, d] matrix, chosen dimensions as curves, the position-to-position
cosine similarity, and RoPE's rotating pairs of dimensions.

The caller supplies the matrix (sinusoidal from the model package, or a trained model's learned
position embeddings); RoPE's angles are pure math and computed here.
"""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32


def positional_heatmap(
    matrix,
    title: str = "Sinusoidal positional encoding",
    position_label: str = "position",
    dimension_label: str = "dimension",
    value_label: str = "value",
    height: int | None = None,
) -> go.Figure:
    """matrix: [T, d] encodings (row = position). Diverging colours centred on 0, float32 values."""
    m = as_float32(matrix, "matrix", 2)  # [T, d]
    bound = float(np.abs(m).max()) or 1.0
    trace = dict(
        type="heatmap",
        z=m, zmin=-bound, zmax=bound, colorscale=theme.DIVERGING_COLORSCALE,
        hovertemplate=f"{position_label}: %{{y}}<br>{dimension_label}: %{{x}}<br>{value_label}: %{{z:.4f}}<extra></extra>",
    )
    layout = theme.base_layout(
        title, height=height if height is not None else 520,
        xaxis=dict(title=dict(text=dimension_label), showgrid=False),
        yaxis=dict(title=dict(text=position_label), autorange="reversed", showgrid=False),
    )
    return theme.figure([trace], layout)


def positional_curves(
    matrix,
    dimensions: Sequence[int],
    title: str = "Positional encoding: chosen dimensions over position",
    position_label: str = "position",
    value_label: str = "value",
    dimension_label: str = "dim",
    height: int | None = None,
) -> go.Figure:
    """matrix: [T, d]; one line per chosen dimension (column) over positions 0..T-1."""
    m = as_float32(matrix, "matrix", 2)  # [T, d]
    if len(dimensions) == 0:
        raise ValueError("dimensions is empty; choose at least one dimension to plot")
    for dim in dimensions:
        if not 0 <= dim < m.shape[1]:
            raise ValueError(f"dimension {dim} is outside 0..{m.shape[1] - 1} (d_model = {m.shape[1]})")
    positions = np.arange(m.shape[0], dtype=np.int32)  # [T]
    traces = [
        dict(
            type="scatter",
            x=positions, y=m[:, dim], mode="lines", name=f"{dimension_label} {dim}", line=dict(width=3),
            hovertemplate=f"{dimension_label} {dim}<br>{position_label}: %{{x}}<br>{value_label}: %{{y:.4f}}<extra></extra>",
        )
        for dim in dimensions
    ]
    layout = theme.base_layout(
        title, height=height if height is not None else 460,
        xaxis=dict(title=dict(text=position_label)), yaxis=dict(title=dict(text=value_label)),
    )
    return theme.figure(traces, layout)


def cosine_similarity(matrix) -> np.ndarray:
    """Cosine similarity between rows: [T, d] -> [T, T] float32, exactly symmetric, in [-1, 1].

    Zero rows have similarity 0 with everything (and 1 on the diagonal is not forced for them).
    """
    m = as_float32(matrix, "matrix", 2).astype(np.float64)  # [T, d]
    norms = np.linalg.norm(m, axis=1, keepdims=True)  # [T, 1]
    unit = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)  # [T, d]
    sim = unit @ unit.T  # [T, T]
    return np.clip((sim + sim.T) / 2, -1.0, 1.0).astype(np.float32)


def position_similarity(
    matrix,
    title: str = "Position-to-position cosine similarity",
    position_label: str = "position",
    value_label: str = "cosine similarity",
    height: int | None = None,
) -> go.Figure:
    """matrix: [T, d] encodings or learned position embeddings -> their [T, T] cosine similarity."""
    sim = cosine_similarity(matrix)  # [T, T]
    trace = dict(
        type="heatmap",
        z=sim, zmin=-1.0, zmax=1.0, colorscale=theme.DIVERGING_COLORSCALE,
        hovertemplate=f"{position_label} %{{y}} · {position_label} %{{x}}<br>{value_label}: %{{z:.4f}}<extra></extra>",
    )
    layout = theme.base_layout(
        title, height=height if height is not None else 560,
        xaxis=dict(title=dict(text=position_label), showgrid=False, constrain="domain"),
        yaxis=dict(
            title=dict(text=position_label), autorange="reversed", showgrid=False,
            scaleanchor="x", constrain="domain",
        ),
    )
    return theme.figure([trace], layout)


def rope_angles(d_model: int, pairs: Sequence[int], n_positions: int, base: float = 10000.0) -> np.ndarray:
    """RoPE rotation angles [P, T]: angle[i, p] = p * theta_i with theta_i = base^(-2 i / d_model).

    RoPE splits a d_model vector into d_model / 2 pairs of dimensions and rotates pair i by
    p * theta_i at position p: low pairs turn fast, high pairs slowly.
    """
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be an even number >= 2 for RoPE, got {d_model}")
    if n_positions < 1:
        raise ValueError(f"n_positions must be at least 1, got {n_positions}")
    for pair in pairs:
        if not 0 <= pair < d_model // 2:
            raise ValueError(f"pair index {pair} is outside 0..{d_model // 2 - 1} (d_model / 2 pairs)")
    theta = base ** (-2.0 * np.asarray(pairs, dtype=np.float64) / d_model)  # [P]
    return np.outer(theta, np.arange(n_positions, dtype=np.float64))  # [P, T]


ROPE_PANELS_PER_ROW = 4


def rope_rotation(
    d_model: int,
    pairs: Sequence[int],
    n_positions: int,
    base: float = 10000.0,
    title: str = "RoPE: each pair of dimensions rotates with position",
    pair_label: str = "pair",
    dims_label: str = "dims",
    position_label: str = "position",
    angle_label: str = "angle",
    height: int | None = None,
) -> go.Figure:
    """The unit vector (1, 0) of each chosen pair rotated to every position 0..n_positions-1.

    One panel per pair i (ROPE_PANELS_PER_ROW to a row), titled "pair i" over "(dims 2i, 2i+1)":
    points (cos(p theta_i), sin(p theta_i)) on the unit circle, coloured by position p, with
    theta_i = base^(-2 i / d_model) (see rope_angles).
    """
    if len(pairs) == 0:
        raise ValueError("pairs is empty; choose at least one pair of dimensions")
    angles = rope_angles(d_model, pairs, n_positions, base)  # [P, T]
    positions = np.arange(n_positions, dtype=np.int32)  # [T]
    circle = np.linspace(0, 2 * np.pi, 121)
    n_cols = min(len(pairs), ROPE_PANELS_PER_ROW)
    n_rows = -(-len(pairs) // n_cols)
    h_gap, v_gap, right = 0.04, 0.16, 0.9   # the colour bar sits right of 0.9
    width = (right - h_gap * (n_cols - 1)) / n_cols
    panel_height = (1.0 - v_gap * (n_rows - 1)) / n_rows
    traces, axes, annotations = [], {}, []
    for k, (pair, angle) in enumerate(zip(pairs, angles)):
        row, col = divmod(k, n_cols)
        suffix = "" if k == 0 else str(k + 1)
        x0, top = col * (width + h_gap), 1.0 - row * (panel_height + v_gap)
        traces.append(dict(
            type="scatter", x=np.cos(circle), y=np.sin(circle), mode="lines",
            line=dict(color=theme.GRID_COLOR, width=1), hoverinfo="skip", showlegend=False,
            xaxis=f"x{suffix}", yaxis=f"y{suffix}",
        ))
        traces.append(dict(
            type="scatter", x=np.cos(angle).astype(np.float32), y=np.sin(angle).astype(np.float32),
            mode="markers", name=f"{pair_label} {pair}", showlegend=False, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
            marker=dict(
                size=9, color=positions, colorscale=theme.ATTENTION_COLORSCALE, cmin=0, cmax=max(1, n_positions - 1),
                showscale=k == len(pairs) - 1, colorbar=dict(title=dict(text=position_label)),
            ),
            customdata=np.stack([positions, angle], axis=1).astype(np.float32),
            hovertemplate=(
                f"{pair_label} {pair}<br>{position_label}: %{{customdata[0]}}<br>"
                f"{angle_label}: %{{customdata[1]:.3f}} rad<extra></extra>"
            ),
        ))
        style = dict(range=[-1.2, 1.2], showticklabels=False, zeroline=True, showgrid=False)
        axes[f"xaxis{suffix}"] = dict(style, domain=[round(x0, 6), round(min(right, x0 + width), 6)],
                                      anchor=f"y{suffix}")
        axes[f"yaxis{suffix}"] = dict(style, domain=[round(max(0.0, top - panel_height), 6), round(top, 6)],
                                      anchor=f"x{suffix}", scaleanchor=f"x{suffix}")
        annotations.append(dict(
            text=f"{pair_label} {pair}<br>({dims_label} {2 * pair}, {2 * pair + 1})", x=x0 + width / 2, y=top,
            xref="paper", yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
        ))
    layout = theme.base_layout(
        title, height=height if height is not None else 140 + 280 * n_rows, annotations=annotations,
        margin=dict(l=20, r=20, t=120, b=20), **axes,
    )
    return theme.figure(traces, layout)
