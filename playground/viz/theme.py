"""One look for every figure: fonts, sizes and colour scales readable on a projector at 1280x720."""
import functools
import threading
import unicodedata

import plotly.graph_objects as go
from plotly.colors import sequential

from playground.viz.figure_json import spec_json

FONT_FAMILY = "Inter, Noto Sans CJK SC, Microsoft YaHei, sans-serif"
FONT_SIZE = 15
TITLE_SIZE = 20
SMALL_FONT_SIZE = 12
PRESENT_FONT_SIZE = 18      # figure text in presenter mode (a projector in a lit room)
TEXT_COLOR = "#111111"
GRID_COLOR = "#d0d0d0"

# Sequential, dark (0) to bright (1): keeps its full luminance range on a washed-out projector.
# Written out as stops because figures skip validation, which is what expands a scale's name.
ATTENTION_COLORSCALE = [[i / (len(sequential.Viridis) - 1), c] for i, c in enumerate(sequential.Viridis)]
# Diverging, blue (negative) / white (0) / red (positive), for signed values such as encodings.
DIVERGING_COLORSCALE = [[0.0, "#08306b"], [0.25, "#4a90c9"], [0.5, "#f7f7f7"], [0.75, "#e0603a"], [1.0, "#67000d"]]
# Saturated series colours that stay distinct when the projector drops contrast.
SERIES_COLORS = ["#1f4e9c", "#d1291f", "#2a8a2a", "#e07b00", "#6a3d9a", "#8c564b", "#c2378f", "#0f8fa0"]
# Lines of a chart whose series may coincide: the last drawn (on top) thinner than the others, so a series
# lying under it still shows as a border around it and as rings around its markers.
UNDER_LINE = dict(width=5, marker=10)
TOP_LINE = dict(width=3, marker=7)
MARKER_LIMIT = 60           # points of a series above which it is drawn as a plain line
# Medium-saturation fills for token spans; dark text stays readable on all of them.
SPAN_COLORS = ["#8ec5ff", "#ffb870", "#9be39b", "#ff9e9e", "#c9a7ff", "#ffe066", "#7fdcd2", "#f5a8dc"]
HIGHLIGHT_COLOR = "#d1291f"

TITLE_CELLS = 100           # characters of a title line across a full-width figure at 1280 px
HALF_TITLE_CELLS = 48       # ... across a figure beside another (half the width)
TITLE_LINE_PX = 26
TITLE_Y = 0.985             # the top of a title, as a share of the figure's height from its bottom
TABLE_HEADER_PX = 32
TABLE_ROW_PX = 28           # a table row per line of cell text
TABLE_CELLS = 138           # characters of cell text across a full-width table at 1280 px, a little
                            # under what fits, so a row's estimated height errs on the tall side
TABLE_BORDER_PX = 1         # each row's border adds to its height
TABLE_MARGIN = dict(l=10, r=10, t=70, b=10)

TEMPLATE = go.layout.Template(
    layout=go.Layout(
        font=dict(family=FONT_FAMILY, size=FONT_SIZE, color=TEXT_COLOR),
        title=dict(font=dict(size=TITLE_SIZE), x=0.01, xanchor="left", y=TITLE_Y, yanchor="top", yref="container"),
        paper_bgcolor="white",
        plot_bgcolor="white",
        colorway=SERIES_COLORS,
        hoverlabel=dict(font=dict(family=FONT_FAMILY, size=FONT_SIZE)),
        xaxis=dict(gridcolor=GRID_COLOR, zerolinecolor=GRID_COLOR, linecolor="#444444", automargin=True),
        yaxis=dict(gridcolor=GRID_COLOR, zerolinecolor=GRID_COLOR, linecolor="#444444", automargin=True),
        legend=dict(font=dict(size=FONT_SIZE)),
        margin=dict(l=70, r=30, t=70, b=60),
    )
)


def line_mode(points: int) -> str:
    """Plotly's scatter mode for a series of `points` points: markers on the line up to MARKER_LIMIT."""
    return "lines+markers" if points <= MARKER_LIMIT else "lines"


def nested_line(k: int, n: int) -> dict:
    """The line width and marker size of series k of n drawn in order (UNDER_LINE, TOP_LINE for the last)."""
    return TOP_LINE if k == n - 1 else UNDER_LINE


def base_layout(title: str, height: int | None = None, **extra) -> dict:
    """Layout properties shared by all figures: the template, the title and an optional height in px."""
    layout = dict(template=TEMPLATE, title=dict(text=title), **extra)
    if height is not None:
        layout["height"] = height
    return layout


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def display_width(text: str) -> int:
    """Width in character cells: wide (CJK) characters take two."""
    return len(text) if text.isascii() else sum(2 if _wide(ch) else 1 for ch in text)


def wrap(text: str, max_cells: int) -> list[str]:
    """`text` in lines of at most `max_cells` character cells, broken at spaces or next to a wide
    (CJK) character; a single word longer than a line stays whole."""
    return list(_wrapped(text, max_cells))


@functools.lru_cache(maxsize=4096)           # tables wrap the same stage names and notes in every view
def _wrapped(text: str, max_cells: int) -> tuple[str, ...]:
    if display_width(text) <= max_cells:
        return (text,)
    if text.isascii():
        return tuple(_wrap_words(text, max_cells))
    lines, line = [], ""
    for unit in _units(text):
        if line and display_width(line + unit.rstrip()) > max_cells:
            lines.append(line.rstrip())
            line = unit.lstrip()
        else:
            line += unit
    lines.append(line.rstrip())
    return tuple(lines)


# Punctuation never first on a line (it closes what comes before it) or last (it opens what follows).
_CLOSING = frozenset("，。、：；！？）》」』】〉”’…")
_OPENING = frozenset("（《「『【〈“‘")


def _units(text: str) -> list[str]:
    """The pieces of `text` a line may break between: each wide character, each run of narrow ones
    (with the spaces after it); punctuation stays with what it closes or opens."""
    units: list[str] = []
    for ch in text:
        joins = units and (ch in _CLOSING or ch == " " or units[-1][-1] in _OPENING
                           or (not _wide(ch) and not _wide(units[-1][-1]) and units[-1][-1] != " "))
        if joins:
            units[-1] += ch
        else:
            units.append(ch)
    return units


def _wrap_words(text: str, max_cells: int) -> list[str]:
    """wrap() for text without wide characters: greedy, word by word."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > max_cells:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def table(columns: list[list[str]], headers, columnwidth: list[int], title: str, row_lines: list[int] | None = None,
          max_height: int | None = None, height: int | None = None) -> dict:
    """A Plotly table (striped rows, bold headers) and its layout as {"traces": [...], "layout": {...}}.

    The title wraps at TITLE_CELLS characters. row_lines: lines of text in each row (default: its
    cells wrapped at their column's share of TABLE_CELLS, as Plotly wraps them on a full-width figure).
    Unless `height` is given, the figure is as tall as its rows; with max_height it shows as many
    whole rows as fit and scrolls for the rest, so no row is cut in half.
    """
    lines = wrap(title, TITLE_CELLS)
    margin = dict(TABLE_MARGIN, t=TABLE_MARGIN["t"] + TITLE_LINE_PX * (len(lines) - 1))
    n_rows = len(columns[0]) if columns else 0
    row_px = [TABLE_ROW_PX * n + TABLE_BORDER_PX for n in (row_lines or cell_lines(columns, columnwidth))]
    if height is None:
        room = None if max_height is None else max_height - margin["t"] - margin["b"] - TABLE_HEADER_PX - 4
        shown, used = 0, 0
        while shown < n_rows and (room is None or used + row_px[shown] <= room):
            used += row_px[shown]
            shown += 1
        height = margin["t"] + margin["b"] + TABLE_HEADER_PX + used + 4
    stripes = ["#ffffff" if i % 2 == 0 else "#eef3fb" for i in range(n_rows)]
    trace = dict(
        type="table", columnwidth=columnwidth,
        header=dict(values=[f"<b>{h}</b>" for h in headers], fill=dict(color="#1f4e9c"),
                    font=dict(color="white", size=FONT_SIZE), align="left", height=TABLE_HEADER_PX),
        cells=dict(values=columns, align="left", height=TABLE_ROW_PX, fill=dict(color=[stripes] * len(columns))),
    )
    return dict(traces=[trace], layout=base_layout("<br>".join(lines), height=height, margin=margin))


def cell_lines(columns: list[list[str]], columnwidth: list[int]) -> list[int]:
    """The lines of text of each row of a full-width table: its tallest cell, wrapped at its column's
    share of TABLE_CELLS (a "<br>" in a cell starts a line)."""
    total = sum(columnwidth)
    cells = [max(1, TABLE_CELLS * width // total) for width in columnwidth]
    n_rows = len(columns[0]) if columns else 0
    return [max(sum(len(wrap(part, width)) for part in str(column[i]).split("<br>"))
                for column, width in zip(columns, cells))
            for i in range(n_rows)]


def placeholder(message: str, height: int = 300) -> go.Figure:
    """An empty figure that says, in its middle, what will appear there and how to make it appear."""
    lines = "<br>".join(wrap(message, TITLE_CELLS * 2 // 3))
    axis = dict(visible=False, range=[0, 1], fixedrange=True)
    return figure([], base_layout("", height=height, xaxis=axis, yaxis=axis, annotations=[dict(
        text=lines, x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False,
        font=dict(size=FONT_SIZE, color="#555555"))]))


_building = threading.RLock()        # re-entrant: building reads the figure's own attributes


class SpecFigure(go.Figure):
    """A go.Figure kept as the plain trace and layout dicts it was made from until something reads it.

    Building Plotly's property tree (even unvalidated) costs more than everything else in a view: a
    4 x 4 attention grid takes ~5 ms to build and nothing to keep as dicts. A view the app only sends
    to the page is written straight from the dicts (see `spec`); the first read of any of the
    figure's properties or methods builds the tree, after which it is an ordinary go.Figure.
    """

    def __init__(self, traces: list[dict], layout: dict):     # Plotly's __init__ runs on first use
        object.__setattr__(self, "_spec", (traces, layout))

    def __getattr__(self, name: str):
        # reached only for an attribute the instance lacks: all of Plotly's own until the tree is built
        with _building:                  # one thread builds; another that asked meanwhile then reads
            spec = self.__dict__.pop("_spec", None)
            if spec is not None:
                go.Figure.__init__(self, data=spec[0], layout=spec[1], _validate=False)
        return object.__getattribute__(self, name)

    def to_json(self, *args, **kwargs) -> str:
        """Plotly's JSON of the figure; written straight from the dicts while the tree is unbuilt
        (gr.Plot calls this for every figure it is given)."""
        spec = self.spec
        if spec is None or args or kwargs:
            return super().to_json(*args, **kwargs)
        return spec_json(*spec)

    def __reduce__(self):
        """A copy or a pickle is an ordinary go.Figure of the same content."""
        return go.Figure, (self.to_dict(),)

    @property
    def spec(self) -> tuple[list[dict], dict] | None:
        """(traces, layout) as given, while the property tree is unbuilt; None once it is built."""
        return self.__dict__.get("_spec")


def figure(traces: list[dict], layout: dict) -> go.Figure:
    """A Figure from plain trace dicts (each with its "type") and a layout dict.

    Plotly's per-property validation is skipped: it costs 5-10x the time of the figure itself
    (a 4 x 4 attention grid: ~25 ms validated, ~8 ms without), which a classroom of students
    stepping at once cannot afford; and the property tree is built only when read (SpecFigure).
    tests/viz rebuild every figure with validation to keep the property names honest.
    """
    return SpecFigure(traces, layout)
