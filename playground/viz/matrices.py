"""Small matrices drawn with their numbers (attention by hand, LayerNorm against BatchNorm) and
attention masks drawn as grids of allowed / hidden (query, key) pairs.

Panels sit side by side, each as wide as its number of columns, so a 4 x 16 Q and a 4 x 4
score matrix keep cells of one size. A panel whose rows are its left neighbour's (the same queries)
leaves their labels to it: repeated, they ran into the neighbour's last column once figure text was
enlarged for a projector.
"""
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from playground.viz import theme
from playground.viz.labels import axis_categories, number_text

# Light ends keep dark numbers readable on every cell.
NUMBER_COLORSCALE = [[0.0, "#5b9bd5"], [0.5, "#ffffff"], [1.0, "#e8836b"]]
HIDDEN_COLOR, VISIBLE_COLOR, EMPTY_ROW_COLOR = "#e4e4e4", "#1f4e9c", "#d1291f"
MASK_COLORSCALE = [[0.0, EMPTY_ROW_COLOR], [0.33, EMPTY_ROW_COLOR], [0.33, HIDDEN_COLOR], [0.67, HIDDEN_COLOR],
                   [0.67, VISIBLE_COLOR], [1.0, VISIBLE_COLOR]]
MAX_NUMBER_COLUMNS = 40     # cells wider than this at 1280 px cannot hold a number
CROWDED_COLUMNS = 9         # more columns across the figure: numbers in the small font
SHORT_NUMBER_COLUMNS = 16   # more: one digit fewer in the cells
ROW_PX = 30                 # a stacked panel's row: one line of numbers
ROW_TITLE_STANDOFF = 24     # px between a mask row's token labels and its title: room for the labels at 18 px


def column_domains(widths: Sequence[float], gap: float = 0.04, left: float = 0.0,
                   right: float = 1.0) -> list[list[float]]:
    """Horizontal domains for panels side by side, each as wide as its share of `widths`."""
    room = right - left - gap * (len(widths) - 1)
    total = float(sum(widths))
    domains, x = [], left
    for width in widths:
        end = x + room * width / total
        domains.append([round(max(0.0, x), 6), round(min(1.0, end), 6)])
        x = end + gap
    return domains


def panel_title_lines(name: str) -> str:
    """A side-by-side panel's title, broken after its colon ("LayerNorm: each row"): three such titles
    on one line ran into each other over the panels of a half-width figure."""
    for colon in (": ", "："):
        head, found, rest = name.partition(colon)
        if found and head and rest:
            return f"{head}{colon.strip()}<br>{rest}"
    return name


def row_labels(shown: bool) -> dict:
    """A panel's row-axis properties: its labels drawn, or neither labels nor tick marks (a panel whose
    rows a neighbour labels)."""
    return {"showticklabels": True} if shown else {"showticklabels": False, "ticks": ""}


def matrix_panels(
    panels: Sequence[tuple[str, object, Sequence[str], Sequence[str]]],
    title: str = "",
    digits: int = 2,
    value_label: str = "value",
    stacked: bool = False,
    height: int | None = None,
) -> go.Figure:
    """Matrices side by side (or one above the other when `stacked`), every cell showing its number.

    panels: (panel title, matrix [R, C] (may hold ±inf or NaN, shown as text on a grey cell),
    row labels [R], column labels [C]). Each panel has its own colour scale centred on 0. Numbers
    are written in the cells when a panel has at most MAX_NUMBER_COLUMNS columns (hover always).
    """
    if not panels:
        raise ValueError("panels is empty; pass at least one matrix")
    matrices = [np.asarray(m, dtype=np.float64) for _, m, _, _ in panels]
    for (name, _, rows, cols), m in zip(panels, matrices):
        if m.ndim != 2 or m.shape != (len(rows), len(cols)):
            raise ValueError(f"panel {name!r}: matrix of shape {m.shape} needs {m.shape[0:1]} row and column labels, "
                             f"got {len(rows)} rows and {len(cols)} columns")
    if stacked:
        allotted = column_domains([m.shape[0] + 2 for m in matrices][::-1], gap=0.02)[::-1]   # top panel first
        y_domains = [[y0, round(y0 + (y1 - y0) * m.shape[0] / (m.shape[0] + 2), 6)]   # the matrix below its labels
                     for (y0, y1), m in zip(allotted, matrices)]
        title_ys = [y1 for _, y1 in allotted]
        domains = [[0.0, 1.0]] * len(matrices)
    else:
        domains = column_domains([max(m.shape[1], 2) for m in matrices])
        y_domains = [[0.0, 0.8]] * len(matrices)
        title_ys = [1.0] * len(matrices)
    # Columns across the figure's width: side by side they share it, so cells are narrower and their
    # numbers are written smaller and shorter (hover keeps every digit).
    across = max(m.shape[1] for m in matrices) if stacked else sum(m.shape[1] for m in matrices)
    size = theme.SMALL_FONT_SIZE if across > CROWDED_COLUMNS else theme.FONT_SIZE
    cell_digits = digits if across <= SHORT_NUMBER_COLUMNS else max(1, digits - 1)
    traces, axes, annotations = [], {}, []
    for k, ((name, _, rows, cols), m, domain, y_domain, title_y) in enumerate(
            zip(panels, matrices, domains, y_domains, title_ys)):
        suffix = "" if k == 0 else str(k + 1)
        finite = m[np.isfinite(m)]
        bound = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
        row_cats, row_text = axis_categories(rows)
        col_cats, col_text = axis_categories(cols)
        rows_as_left = not stacked and k > 0 and list(rows) == list(panels[k - 1][2])
        shown = np.where(np.isfinite(m), m, np.nan)
        text = [[number_text(v, digits) for v in row] for row in m]
        cells = text if cell_digits == digits else [[number_text(v, cell_digits) for v in row] for row in m]
        trace = dict(
            type="heatmap", z=shown, x=col_cats, y=row_cats, zmin=-bound, zmax=bound, colorscale=NUMBER_COLORSCALE,
            showscale=False, hoverongaps=False, xgap=1, ygap=1, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
            customdata=text,
            hovertemplate=f"{name}<br>%{{y}} · %{{x}}<br>{value_label}: %{{customdata}}<extra></extra>",
        )
        if m.shape[1] <= MAX_NUMBER_COLUMNS:
            trace.update(text=cells, texttemplate="%{text}", textfont=dict(size=size, color=theme.TEXT_COLOR))
        traces.append(trace)
        every = max(1, -(-len(cols) // 16))
        axes[f"xaxis{suffix}"] = dict(domain=domain, anchor=f"y{suffix}", type="category", showgrid=False,
                                      tickmode="array", tickvals=col_cats[::every], ticktext=col_text[::every],
                                      side="top", tickfont=dict(size=theme.SMALL_FONT_SIZE))
        axes[f"yaxis{suffix}"] = dict(anchor=f"x{suffix}", type="category", autorange="reversed", showgrid=False,
                                      tickmode="array", tickvals=row_cats, ticktext=row_text,
                                      domain=y_domain, **row_labels(not rows_as_left))
        shown_name = name if stacked else panel_title_lines(name)
        annotations.append(dict(text=f"<b>{shown_name}</b>", x=0.0 if stacked else sum(domain) / 2, y=title_y,
                                xref="paper", yref="paper", xanchor="left" if stacked else "center",
                                yanchor="top" if stacked else "bottom", showarrow=False))
    if stacked:
        default_height = 120 + ROW_PX * sum(m.shape[0] + 2 for m in matrices)
    else:
        default_height = 200 + 38 * max(m.shape[0] for m in matrices)
    layout = theme.base_layout(title, height=height or default_height, annotations=annotations,
                               plot_bgcolor=HIDDEN_COLOR, margin=dict(l=60, r=20, t=80, b=20), **axes)
    return theme.figure(traces, layout)


def mask_grid(
    masks,
    row_titles: Sequence[str],
    column_titles: Sequence[str],
    query_tokens: Sequence[Sequence[str]],
    key_tokens: Sequence[Sequence[str]],
    empty_rows=None,
    title: str = "Attention masks",
    query_label: str = "query",
    key_label: str = "key",
    visible_label: str = "visible",
    hidden_label: str = "hidden",
    empty_label: str = "no key visible",
    height: int | None = None,
) -> go.Figure:
    """Masks as a grid: masks [R, C, Tq, Tk] bool (True = the query may attend to the key), one row
    per batch item (its own query / key tokens) and one column per kind of mask. Visible pairs are
    dark, hidden ones light; empty_rows [R, C, Tq] bool paints a row with no visible key red."""
    m = np.asarray(masks, dtype=bool)
    if m.ndim != 4:
        raise ValueError(f"masks must have 4 dimensions [R, C, Tq, Tk], got shape {m.shape}")
    n_rows, n_cols, n_query, n_key = m.shape
    if len(row_titles) != n_rows or len(column_titles) != n_cols:
        raise ValueError(f"need {n_rows} row titles and {n_cols} column titles, "
                         f"got {len(row_titles)} and {len(column_titles)}")
    if len(query_tokens) != n_rows or any(len(t) != n_query for t in query_tokens):
        raise ValueError(f"query_tokens must be {n_rows} lists of {n_query} tokens")
    if len(key_tokens) != n_rows or any(len(t) != n_key for t in key_tokens):
        raise ValueError(f"key_tokens must be {n_rows} lists of {n_key} tokens")
    empty = np.zeros(m.shape[:3], dtype=bool) if empty_rows is None else np.asarray(empty_rows, dtype=bool)
    z = np.where(m, 1, np.where(empty[..., None], -1, 0)).astype(np.int8)   # [R, C, Tq, Tk]
    words = np.array([hidden_label, visible_label, empty_label], dtype=object)
    x_domains = column_domains([1] * n_cols, gap=0.05)
    y_gap = 0.12
    cell = (1.0 - y_gap * (n_rows - 1) - 0.06) / n_rows
    traces, axes, annotations = [], {}, []
    for r in range(n_rows):
        top = 0.94 - r * (cell + y_gap)
        q_cats, q_text = axis_categories(query_tokens[r])
        k_cats, k_text = axis_categories(key_tokens[r])
        for c in range(n_cols):
            k = r * n_cols + c + 1
            suffix = "" if k == 1 else str(k)
            labels = words[np.where(z[r, c] == -1, 2, z[r, c])]
            traces.append(dict(
                type="heatmap", z=z[r, c], x=k_cats, y=q_cats, zmin=-1, zmax=1, colorscale=MASK_COLORSCALE,
                showscale=False, xgap=2, ygap=2, xaxis=f"x{suffix}", yaxis=f"y{suffix}", customdata=labels,
                hovertemplate=f"{row_titles[r]} · {column_titles[c]}<br>{query_label}: %{{y}}<br>{key_label}: %{{x}}"
                              f"<br>%{{customdata}}<extra></extra>",
            ))
            axes[f"xaxis{suffix}"] = dict(domain=x_domains[c], anchor=f"y{suffix}", type="category", showgrid=False,
                                          tickmode="array", tickvals=k_cats, ticktext=k_text, side="top",
                                          tickfont=dict(size=theme.SMALL_FONT_SIZE))
            axes[f"yaxis{suffix}"] = dict(domain=[round(max(0.0, top - cell), 6), round(top, 6)], anchor=f"x{suffix}",
                                          type="category", autorange="reversed", showgrid=False, tickmode="array",
                                          tickvals=q_cats, ticktext=q_text, tickfont=dict(size=theme.SMALL_FONT_SIZE),
                                          title=dict(text=row_titles[r] if c == 0 else "", standoff=ROW_TITLE_STANDOFF,
                                                     font=dict(size=theme.SMALL_FONT_SIZE)),
                                          **row_labels(c == 0))              # a row's panels share its queries
            if r == 0:
                annotations.append(dict(text=f"<b>{column_titles[c]}</b>", x=sum(x_domains[c]) / 2, y=1.0, xref="paper",
                                        yref="paper", xanchor="center", yanchor="bottom", showarrow=False))
    layout = theme.base_layout(title, height=height or int(min(760, 200 + n_rows * (70 + 20 * n_query))),
                               annotations=annotations, margin=dict(l=90, r=20, t=110, b=20), **axes)
    return theme.figure(traces, layout)
