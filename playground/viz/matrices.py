"""Small matrices drawn with their numbers (attention by hand, LayerNorm against BatchNorm) and
attention masks drawn as grids of allowed / hidden (query, key) pairs.

Panels sit side by side, each as wide as its number of columns, so a 4 x 16 Q and a 4 x 4
score matrix keep cells of one size. A panel whose rows are its left neighbour's (the same queries)
leaves their labels to it: repeated, they ran into the neighbour's last column once figure text was
enlarged for a projector.

On a phone, panels side by side have a few dozen pixels each: their titles ran into each other and
their numbers were hidden. A figure of panels side by side therefore carries, in `layout.meta`, the
relayout that stacks them one above the other (NARROW_META); the page applies it to a figure drawn
narrower than a phone's width (ui/page/phone.py).
"""
import html
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
MASK_ROW_PX = 24            # a stacked mask panel's row
NARROW_META = "narrow"      # layout.meta's key: the relayout that stacks a figure's panels
PRESENT_META = "present"    # layout.meta's key: the relayout that lays a grid out at presenter mode's text size
PRESENT_FIGURE_PX = 1150    # a full-width figure's width in presenter mode (1280 px, the page's margins off)
PRESENT_CHAR_EM = 0.6       # a label's character, in ems: the room a turned label needs
NARROW_TITLE_CELLS = 40     # a figure title's line on a phone, in character cells
NARROW_TITLE_LINE_PX = 22
MULTILINE_SHIFT_EM = 0.65   # Plotly lifts a title by this much of its font size for each line after the first
NARROW_PLOT_PX = 230        # a stacked mask panel's width on a 360 px phone (the figure's margins off)


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


def stacked_domains(heights: Sequence[float], gap: float = 0.02) -> list[list[float]]:
    """Vertical domains for panels one above the other, the first at the top, each as tall as its
    share of `heights`."""
    return column_domains(list(heights)[::-1], gap=gap)[::-1]


def narrow_relayout(title: str, n_panels: int, y_domains: Sequence[Sequence[float]], annotations: list[dict],
                    height: int, y_titles_cleared: bool = False) -> dict:
    """A Plotly relayout that stacks a figure's `n_panels` panels (axes x/y, x2/y2, ...) at `y_domains`
    across the whole width, each labelling its own rows, with `annotations` as their titles and the
    figure's `title` wrapped to a phone's width."""
    lines = theme.wrap(title, NARROW_TITLE_CELLS) if title else []
    height += NARROW_TITLE_LINE_PX * max(0, len(lines) - 1)
    # Plotly centres a title's lines on its anchor: lowered by half the extra lines, its first stays on the figure
    lowered = MULTILINE_SHIFT_EM * theme.TITLE_SIZE * max(0, len(lines) - 1) / height
    update: dict = {"height": height, "annotations": annotations, "title.text": "<br>".join(lines),
                    "title.y": round(theme.TITLE_Y - lowered, 4), "margin.t": 50 + NARROW_TITLE_LINE_PX * len(lines)}
    for k in range(n_panels):
        suffix = "" if k == 0 else str(k + 1)
        update[f"xaxis{suffix}.domain"] = [0.0, 1.0]
        update[f"yaxis{suffix}.domain"] = [float(v) for v in y_domains[k]]
        update[f"yaxis{suffix}.showticklabels"] = True
        update[f"yaxis{suffix}.ticks"] = None                 # back to the template's tick marks
        if y_titles_cleared:
            update[f"yaxis{suffix}.title.text"] = ""
    return update


def stacked_title(text: str, y: float) -> dict:
    """A stacked panel's title: at the left, its top at `y` (paper), above its column labels."""
    return dict(text=f"<b>{text}</b>", x=0.0, y=y, xref="paper", yref="paper", xanchor="left", yanchor="top",
                align="left", showarrow=False)


def label_widths(tokens: Sequence[str]) -> list[int]:
    """The width of each token's axis label as drawn, in character cells."""
    return [theme.display_width(html.unescape(label)) for label in axis_categories(tokens)[1]]


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
    stacked_y, stacked_title_ys = _stacked_panels(matrices)
    if stacked:
        y_domains, title_ys = stacked_y, stacked_title_ys
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
        annotations.append(stacked_title(name, title_y) if stacked else
                           dict(text=f"<b>{panel_title_lines(name)}</b>", x=sum(domain) / 2, y=title_y, xref="paper",
                                yref="paper", xanchor="center", yanchor="bottom", showarrow=False))
    stacked_height = 120 + ROW_PX * sum(m.shape[0] + 2 for m in matrices)
    default_height = stacked_height if stacked else 200 + 38 * max(m.shape[0] for m in matrices)
    layout = theme.base_layout(title, height=height or default_height, annotations=annotations,
                               plot_bgcolor=HIDDEN_COLOR, margin=dict(l=60, r=20, t=80, b=20), **axes)
    if not stacked and len(panels) > 1:
        titles = [stacked_title(name, y) for (name, _, _, _), y in zip(panels, stacked_title_ys)]
        layout["meta"] = {NARROW_META: narrow_relayout(title, len(panels), stacked_y, titles, stacked_height)}
    return theme.figure(traces, layout)


def _stacked_panels(matrices: Sequence[np.ndarray]) -> tuple[list[list[float]], list[float]]:
    """Stacked panels' vertical domains (each matrix below its column labels) and their titles' tops."""
    allotted = stacked_domains([m.shape[0] + 2 for m in matrices])             # top panel first
    y_domains = [[y0, round(y0 + (y1 - y0) * m.shape[0] / (m.shape[0] + 2), 6)] for (y0, y1), m in zip(allotted, matrices)]
    return y_domains, [y1 for _, y1 in allotted]


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
    layout["meta"] = {PRESENT_META: _present_mask_grid(layout, x_domains, key_tokens, n_cols)}
    if n_rows * n_cols > 1:
        layout["meta"][NARROW_META] = _narrow_mask_grid(title, row_titles, column_titles, n_query, key_tokens)
    return theme.figure(traces, layout)


def _present_mask_grid(layout: dict, x_domains: Sequence[Sequence[float]], key_tokens: Sequence[Sequence[str]],
                       n_cols: int) -> dict:
    """The relayout that lays a mask grid's key labels out at presenter mode's text size: upright where
    they would not fit side by side, each row of panels lowered to leave them room under the titles
    above (laid out at the small size and enlarged, turned labels ran into each other)."""
    size, margin = theme.PRESENT_FONT_SIZE, layout["margin"]
    plot_px = layout["height"] - margin["t"] - margin["b"]
    panel_px = PRESENT_FIGURE_PX * (x_domains[0][1] - x_domains[0][0])
    rooms, angles = [], []
    for tokens in key_tokens:
        widths = label_widths(tokens)
        upright = max(widths) * PRESENT_CHAR_EM * size + 4 > panel_px / len(widths)
        angles.append(-90 if upright else 0)
        rooms.append((max(widths) * PRESENT_CHAR_EM * size if upright else size) + 22)      # labels, ticks, a gap
    cell = (plot_px - sum(rooms)) / len(key_tokens)
    update, top = {}, plot_px
    for r, (room, angle) in enumerate(zip(rooms, angles)):
        top -= room
        for c in range(n_cols):
            suffix = "" if r == 0 and c == 0 else str(r * n_cols + c + 1)
            update[f"yaxis{suffix}.domain"] = [round(max(0.0, top - cell) / plot_px, 6), round(top / plot_px, 6)]
            update[f"xaxis{suffix}.tickfont.size"] = size
            update[f"xaxis{suffix}.tickangle"] = angle
        top -= cell
    return update


def _narrow_mask_grid(title: str, row_titles: Sequence[str], column_titles: Sequence[str], n_query: int,
                      key_tokens: Sequence[Sequence[str]]) -> dict:
    """The relayout that stacks a mask grid's panels in one column, an input's masks together, each
    titled with its mask and input (two lines) above its key labels, and its rows labelled by its own
    queries."""
    heads = []                                    # rows above each panel's matrix: its title, its key labels
    for r in range(len(row_titles)):
        widths = label_widths(key_tokens[r])
        widest, column_px = max(widths), NARROW_PLOT_PX / len(widths)
        turned = any((a + b) / 2 * PRESENT_CHAR_EM * theme.SMALL_FONT_SIZE + 4 > column_px      # as Plotly turns them:
                     for a, b in zip(widths, widths[1:]))                                         # neighbours overlap
        heads += [2 + (1 + -(-widest * 7 // MASK_ROW_PX) if turned else 1)] * len(column_titles)
    allotted = stacked_domains([n_query + head for head in heads], gap=0.01)
    y_domains = [[y0, round(y0 + (y1 - y0) * n_query / (n_query + head), 6)] for (y0, y1), head in zip(allotted, heads)]
    titles = [stacked_title(f"{column}<br>{row}", y1) for (row, column), (_, y1)
              in zip(((r, c) for r in row_titles for c in column_titles), allotted)]
    height = 60 + MASK_ROW_PX * sum(n_query + head for head in heads)
    return narrow_relayout(title, len(heads), y_domains, titles, height, y_titles_cleared=True)
