"""Generation figures: candidate next tokens at each sampling stage, and the beam-search tree."""
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import as_float32, axis_categories, visible_token


CHOSEN_COLOR = theme.TEXT_COLOR      # the chosen token's outline: unlike any stage's bar colour


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
    the top_n by raw probability plus the chosen one. The chosen token's bars get a thick outline and
    an arrow annotation in CHOSEN_COLOR, a colour no stage's bars have.
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
            marker=dict(color=theme.SERIES_COLORS[k % len(theme.SERIES_COLORS)], line=dict(color=CHOSEN_COLOR, width=outline)),
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
        yaxis=dict(title=dict(text=probability_label), range=[0, min(top, 1.0) * 1.12 + 0.02],   # room for the marker
                   **(dict(dtick=0.2) if top > 0.5 else {})),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        margin=dict(l=70, r=30, t=110, b=60),
        annotations=[dict(
            x=categories[chosen_at], y=top * 1.06 + 0.01, xref="x", yref="y", text=f"▼ {chosen_label}",
            showarrow=False, font=dict(color=CHOSEN_COLOR, size=theme.FONT_SIZE), yanchor="bottom",
        )],
    )
    return theme.figure(traces, layout)


LABEL_CELLS = 150           # characters of node labels across the plot's width, shared by the columns
ROW_PX = 30                 # a row of the beam tree: a node and the label above it


def _short(label: str, cells: int) -> str:
    """`label` cut to `cells` characters, the cut marked with "…"."""
    return label if len(label) <= cells else label[:cells - 1] + "…"


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


def _chains(parsed: list[BeamNode]) -> list[list[BeamNode]]:
    """The tree cut into chains, each drawn along one row: the first chain is the best path from the root;
    every other chain starts at a child that branches off and continues through its best-scored child.
    Chains come in the order they start (by depth), so a chain's parent row is placed before it."""
    children: dict[int | None, list[BeamNode]] = {}
    for n in parsed:
        children.setdefault(n.parent, []).append(n)
    for kids in children.values():
        kids.sort(key=lambda n: (not n.best, -n.score, n.id))      # the best path first, then by score
    chains, depth = [], {}
    starts = [children[None][0]]
    while starts:
        chain, node = [], starts.pop(0)
        while node is not None:
            depth[node.id] = 0 if node.parent is None else depth[node.parent] + 1
            chain.append(node)
            kids = children.get(node.id, [])
            starts.extend(kids[1:])
            node = kids[0] if kids else None
        chains.append(chain)
        starts.sort(key=lambda n: (depth[n.parent], not n.best, -n.score))
    return chains


def beam_layout(nodes: Sequence) -> dict[int, tuple[int, int]]:
    """(step, row) of every node, left to right: the best path straight along row 0, the other
    hypotheses fanning out from it.

    Each chain (see _chains) takes the free row nearest its parent's, alternately below and above,
    where "free" means no other chain's nodes lie between the parent's step and the chain's end,
    so no two nodes, and no two labels, share a place.
    """
    parsed = _as_beam_nodes(nodes)
    position: dict[int, tuple[int, int]] = {}
    taken: dict[int, list[tuple[int, int]]] = {}          # row -> (first, last) steps in use
    for chain in _chains(parsed):
        head = chain[0]
        if head.parent is None:
            row, first = 0, 0
        else:
            parent_step, parent_row = position[head.parent]
            first = parent_step + 1
            last = first + len(chain) - 1
            row = next(r for r in _rows_near(parent_row)
                       if all(end < parent_step or start > last for start, end in taken.get(r, [])))
        for offset, node in enumerate(chain):
            position[node.id] = (first + offset, row)
        taken.setdefault(row, []).append((first - (head.parent is not None), first + len(chain) - 1))
    return position


def _rows_near(row: int):
    """row + 1, row - 1, row + 2, row - 2, ... (away from the best path first)."""
    away = 1 if row >= 0 else -1
    distance = 1
    while True:
        yield row + away * distance
        yield row - away * distance
        distance += 1


def beam_tree(
    nodes: Sequence,
    title: str = "Beam search tree",
    step_label: str = "step",
    score_label: str = "score",
    logprob_label: str = "log-prob",
    height: int | None = None,
) -> go.Figure:
    """The beam tree left to right, one column per decoding step from step 0 (the root), laid out by
    beam_layout: the best path a straight line, the other hypotheses fanning out from it.

    nodes: BeamNode tuples, 7-tuples in BeamNode field order, or mappings with those keys
    (id, parent, token, logprob, score, finished, best). Edges and nodes on the best path are drawn
    thick and red; finished hypotheses are squares, the others circles. Each token is written above
    its node, shortened (with "…") where the columns are narrow; the hover gives it in full.
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
    n_steps = max(step for step, _ in position.values()) + 1
    rows = [row for _, row in position.values()]
    many = n_steps > 20
    traces.append(dict(
        type="scatter",
        x=[position[n.id][0] for n in order], y=[position[n.id][1] for n in order],
        mode="markers+text", text=[visible_token(_short(n.token, max(3, LABEL_CELLS // n_steps))) for n in order],
        textposition="top center", textfont=dict(size=theme.SMALL_FONT_SIZE if many else theme.FONT_SIZE),
        showlegend=False,
        marker=dict(
            size=[12 if n.best else 8 for n in order] if many else [16 if n.best else 11 for n in order],
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
    n_rows = max(rows) - min(rows) + 1
    layout = theme.base_layout(
        title, height=height if height is not None else max(360, 170 + ROW_PX * n_rows),
        xaxis=dict(title=dict(text=step_label), range=[-0.6, n_steps - 0.3], tick0=0, dtick=5 if many else 1,
                   showgrid=False, zeroline=False),
        yaxis=dict(visible=False, range=[max(rows) + 0.6, min(rows) - 0.9]),   # downwards, room for the top labels
    )
    return theme.figure(traces, layout)
