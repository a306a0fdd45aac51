"""Tokenizer figures: the text as coloured token spans, and a BPE tokenizer's merges in order."""
from collections.abc import Sequence

import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import visible_token

MERGES_MAX_HEIGHT = 720


def overlap_groups(spans: Sequence[tuple]) -> list[list[int]]:
    """Token indices grouped into runs whose character spans overlap (a split multi-byte character)."""
    groups: list[list[int]] = []
    group_end = -1
    for i, (_, start, end, _) in enumerate(spans):
        if groups and start < group_end and end > start:
            groups[-1].append(i)
            group_end = max(group_end, end)
        else:
            groups.append([i])
            group_end = end
    return groups


def span_labels(text: str, spans: Sequence[tuple]) -> list[str]:
    """The label drawn for each token: its slice of the original text (whitespace made visible).

    spans: (piece, start, end, token id) with character offsets into `text`. Byte-level BPE can
    split one multi-byte character into several tokens that all carry that character's offsets;
    such a run of overlapping spans is labelled "中 1/3", "中 2/3", "中 3/3". A token with an empty
    span (start == end) is labelled with its piece.
    """
    for i, span in enumerate(spans):
        if len(span) != 4:
            raise ValueError(f"span {i} has {len(span)} fields; each span is (piece, start, end, token id)")
        _, start, end, _ = span
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"span {i} has offsets ({start}, {end}) outside the text of length {len(text)}")
    labels = [""] * len(spans)
    for group in overlap_groups(spans):
        for k, i in enumerate(group):
            piece, start, end, _ = spans[i]
            shown = visible_token(text[start:end]) if end > start else visible_token(str(piece))
            labels[i] = shown if len(group) == 1 else f"{shown} {k + 1}/{len(group)}"
    return labels


def token_spans(
    text: str,
    spans: Sequence[tuple],
    title: str = "Tokens",
    id_label: str = "id",
    piece_label: str = "piece",
    offsets_label: str = "characters",
    line_width: int = 48,
    height: int | None = None,
) -> go.Figure:
    """The text as a row of coloured boxes, one per token, wrapped at `line_width` character cells.

    spans: (piece, start, end, token id) per token, offsets into `text` (see span_labels for how
    overlapping spans of a split multi-byte character are shown; their boxes get a dashed border).
    Each box shows the text slice and the token id; the hover adds the raw piece and the offsets.
    """
    if line_width < 4:
        raise ValueError(f"line_width must be at least 4 character cells, got {line_width}")
    labels = span_labels(text, spans)
    overlapping = [False] * len(spans)
    for group in overlap_groups(spans):
        for i in group:
            overlapping[i] = len(group) > 1
    shapes, xs, ys, texts, hover = [], [], [], [], []
    x, line = 0.0, 0
    for i, ((piece, start, end, token_id), label) in enumerate(zip(spans, labels)):
        width = max(theme.display_width(label), len(str(token_id))) * 0.62 + 0.8
        if x > 0 and x + width > line_width * 0.62:
            x, line = 0.0, line + 1
        shapes.append(dict(
            type="rect", x0=x, x1=x + width - 0.15, y0=line - 0.42, y1=line + 0.42,
            fillcolor=theme.SPAN_COLORS[i % len(theme.SPAN_COLORS)],
            line=dict(color="#333333", width=2 if overlapping[i] else 1, dash="dash" if overlapping[i] else "solid"),
            layer="below",
        ))
        xs.append(x + (width - 0.15) / 2)
        ys.append(line)
        texts.append(f"{label}<br><span style='font-size:{theme.SMALL_FONT_SIZE - 1}px'>{token_id}</span>")
        hover.append([visible_token(str(piece)), str(token_id), f"{start}–{end}"])
        x += width
    trace = dict(
        type="scatter",
        x=xs, y=ys, mode="markers+text", text=texts, textposition="middle center",
        marker=dict(size=24, opacity=0, symbol="square"), showlegend=False, customdata=hover,
        textfont=dict(size=theme.FONT_SIZE, color=theme.TEXT_COLOR),
        hovertemplate=(
            f"{piece_label}: %{{customdata[0]}}<br>{id_label}: %{{customdata[1]}}<br>"
            f"{offsets_label}: %{{customdata[2]}}<extra></extra>"
        ),
    )
    lines = line + 1
    layout = theme.base_layout(
        title, height=height if height is not None else int(min(720, 130 + 62 * lines)),
        shapes=shapes, margin=dict(l=10, r=10, t=70, b=10),
        xaxis=dict(visible=False, range=[-0.2, line_width * 0.62 + 0.5]),
        yaxis=dict(visible=False, range=[lines - 0.5, -0.6]),
    )
    return theme.figure([trace], layout)


def merges_table(
    merges: Sequence[tuple[str, str]],
    title: str = "BPE merges, in the order they were learned",
    headers: Sequence[str] = ("rank", "left", "right", "merged"),
    height: int | None = None,
) -> go.Figure:
    """merges: (left, right) pairs in learning order -> a table of rank, left, right and the merged token.

    At most MERGES_MAX_HEIGHT px tall, showing whole rows; the rest scroll inside the table."""
    if len(headers) != 4:
        raise ValueError(f"headers needs 4 column names (rank, left, right, merged), got {len(headers)}")
    for i, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError(f"merge {i} has {len(merge)} parts; each merge is a (left, right) pair")
    columns = [
        [str(i) for i in range(len(merges))],
        [visible_token(left) for left, _ in merges],
        [visible_token(right) for _, right in merges],
        [visible_token(left + right) for left, right in merges],
    ]
    table = theme.table(columns, headers, [1, 2, 2, 3], title, max_height=MERGES_MAX_HEIGHT, height=height)
    return theme.figure(table["traces"], table["layout"])
