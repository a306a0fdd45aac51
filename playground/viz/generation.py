"""Generation figures: candidate next tokens at each sampling stage, and the beam-search tree."""
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, axis_categories, visible_token


def top_candidates(stages: Mapping[str, np.ndarray], chosen: int, top_n: int) -> np.ndarray:
    """Token ids shown as bars: the top_n by raw (first-stage) probability, always including `chosen`,
    in descending raw probability."""
    first = next(iter(stages.values()))
    order = np.argsort(-first, kind="stable")[:top_n]  # [N]
    if chosen not in order:
        order = np.append(order[:-1], chosen)
        order = order[np.argsort(-first[order], kind="stable")]
    return order


def candidate_bars(
    token_texts: Sequence[str],
    stages: Mapping[str, Sequence[float]],
    chosen: int,
    top_n: int = 10,
    title: str = "Candidate next tokens",
    chosen_label: str = "chosen",
    token_label: str = "token",
    probability_label: str = "probability",
    height: int | None = None,
) -> go.Figure:
    """Grouped bars: one bar group per candidate token, one bar per stage, the chosen token marked.

    token_texts: the V vocabulary texts; stages: stage name -> probabilities [V] in pipeline order
    (e.g. "raw", "temperature", "top-k", "top-p"); chosen: the sampled token id. The candidates are
    the top_n by raw probability plus the chosen one. The chosen token's bars get a thick red
    outline and an arrow annotation.
    """
    if len(stages) == 0:
        raise ValueError("stages is empty; pass at least the raw probabilities")
    vocab = len(token_texts)
    probs = {name: as_float32(p, f"stages['{name}']", 1) for name, p in stages.items()}  # name -> [V]
    for name, p in probs.items():
        if p.shape[0] != vocab:
            raise ValueError(f"stages['{name}'] has {p.shape[0]} probabilities but there are {vocab} token_texts")
        if p.min() < 0 or p.max() > 1 + 1e-3:
            raise ValueError(f"stages['{name}'] must hold probabilities in [0, 1]; apply softmax first")
    if not 0 <= chosen < vocab:
        raise ValueError(f"chosen must be a token id in 0..{vocab - 1}, got {chosen}")
    if top_n < 1:
        raise ValueError(f"top_n must be at least 1, got {top_n}")
    ids = top_candidates(probs, chosen, min(top_n, vocab))  # [N]
    categories, tick_text = axis_categories([token_texts[i] for i in ids])
    chosen_at = int(np.flatnonzero(ids == chosen)[0])
    outline = np.where(np.arange(len(ids)) == chosen_at, 4, 0).astype(np.int8)  # [N]
    traces = [
        dict(
            type="bar",
            x=categories, y=p[ids], name=name,
            marker=dict(color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)], line=dict(color=theme.HIGHLIGHT_COLOR, width=outline)),
            hovertemplate=f"{name}<br>{token_label}: %{{x}}<br>{probability_label}: %{{y:.4f}}<extra></extra>",
        )
        for k, (name, p) in enumerate(probs.items())
    ]
    top = float(max(p[ids].max() for p in probs.values()))
    layout = theme.base_layout(
        title, height=height if height is not None else 460, barmode="group",
        xaxis=dict(
            title=dict(text=token_label), type="category", tickmode="array",
            tickvals=categories, ticktext=tick_text,
        ),
        yaxis=dict(title=dict(text=probability_label), range=[0, top * 1.25 + 0.02]),   # room for the marker
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        margin=dict(l=70, r=30, t=110, b=60),
        annotations=[dict(
            x=categories[chosen_at], y=top * 1.12, xref="x", yref="y", text=f"▼ {chosen_label}",
            showarrow=False, font=dict(color=theme.HIGHLIGHT_COLOR, size=theme.FONT_SIZE),
        )],
    )
    return theme.figure(traces, layout)


class BeamNode(NamedTuple):
    """One hypothesis in a beam search: it extends `parent` (None for the root) by `token`."""

    id: int
    parent: int | None
    token: str
    logprob: float
    score: float
    finished: bool
    best: bool


def _as_beam_nodes(nodes: Sequence) -> list[BeamNode]:
    parsed = [BeamNode(**n) if isinstance(n, Mapping) else BeamNode(*n) for n in nodes]
    if not parsed:
        raise ValueError("nodes is empty; pass at least the root of the beam tree")
    ids = {n.id for n in parsed}
    if len(ids) != len(parsed):
        raise ValueError("node ids must be unique")
    roots = [n for n in parsed if n.parent is None]
    if len(roots) != 1:
        raise ValueError(f"the beam tree needs exactly one root (parent None), found {len(roots)}")
    for n in parsed:
        if n.parent is not None and n.parent not in ids:
            raise ValueError(f"node {n.id} names parent {n.parent}, which is not in nodes")
    return parsed


def beam_layout(nodes: Sequence) -> dict[int, tuple[int, float]]:
    """(depth, row) of every node: depth = steps from the root; leaves take rows 0, 1, 2, ... in
    depth-first order and each parent sits at the mean row of its children."""
    parsed = _as_beam_nodes(nodes)
    children: dict[int | None, list[int]] = {}
    for n in parsed:
        children.setdefault(n.parent, []).append(n.id)
    position: dict[int, tuple[int, float]] = {}
    next_leaf = 0
    root = children[None][0]
    stack = [(root, 0, False)]
    while stack:  # iterative post-order walk
        node, depth, expanded = stack.pop()
        kids = children.get(node, [])
        if not kids:
            position[node] = (depth, float(next_leaf))
            next_leaf += 1
        elif expanded:
            position[node] = (depth, float(np.mean([position[k][1] for k in kids])))
        else:
            stack.append((node, depth, True))
            stack.extend((k, depth + 1, False) for k in reversed(kids))
    return position


def beam_tree(
    nodes: Sequence,
    title: str = "Beam search tree",
    step_label: str = "step",
    score_label: str = "score",
    logprob_label: str = "log-prob",
    height: int | None = None,
) -> go.Figure:
    """The beam tree, root on the left, one column per decoding step.

    nodes: BeamNode tuples, 7-tuples in BeamNode field order, or mappings with those keys
    (id, parent, token, logprob, score, finished, best). Edges and nodes on the best path are drawn
    thick and red; finished hypotheses are squares, the others circles.
    """
    parsed = _as_beam_nodes(nodes)
    position = beam_layout(parsed)
    by_id = {n.id: n for n in parsed}
    traces = []
    for on_best in (False, True):
        xs, ys = [], []
        for n in parsed:
            if n.parent is None or (n.best and by_id[n.parent].best) != on_best:
                continue
            (x0, y0), (x1, y1) = position[n.parent], position[n.id]
            xs += [x0, x1, None]
            ys += [y0, y1, None]
        traces.append(dict(
            type="scatter",
            x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False,
            line=dict(color=theme.HIGHLIGHT_COLOR if on_best else "#9a9a9a", width=4 if on_best else 1.5),
        ))
    order = sorted(parsed, key=lambda n: n.id)
    traces.append(dict(
        type="scatter",
        x=[position[n.id][0] for n in order], y=[position[n.id][1] for n in order],
        mode="markers+text", text=[visible_token(n.token) for n in order], textposition="middle right",
        showlegend=False,
        marker=dict(
            size=[16 if n.best else 11 for n in order],
            symbol=["square" if n.finished else "circle" for n in order],
            color=[theme.HIGHLIGHT_COLOR if n.best else theme.SERIES_COLORS[0] for n in order],
            line=dict(color="white", width=1),
        ),
        customdata=[[visible_token(n.token), n.logprob, n.score] for n in order],
        hovertemplate=(
            f"%{{customdata[0]}}<br>{logprob_label}: %{{customdata[1]:.3f}}<br>"
            f"{score_label}: %{{customdata[2]:.3f}}<extra></extra>"
        ),
    ))
    n_rows = max(row for _, row in position.values()) + 1
    layout = theme.base_layout(
        title, height=height if height is not None else int(min(720, max(360, 140 + 34 * n_rows))),
        xaxis=dict(title=dict(text=step_label), dtick=1, showgrid=False, zeroline=False),
        yaxis=dict(visible=False, autorange="reversed"),
    )
    return theme.figure(traces, layout)
