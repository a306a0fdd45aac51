"""One look for every figure: fonts, sizes and colour scales readable on a projector at 1280x720."""
import plotly.graph_objects as go

FONT_FAMILY = "Inter, Noto Sans CJK SC, Microsoft YaHei, sans-serif"
FONT_SIZE = 15
TITLE_SIZE = 20
SMALL_FONT_SIZE = 12
TEXT_COLOR = "#111111"
GRID_COLOR = "#d0d0d0"

# Sequential, dark (0) to bright (1): keeps its full luminance range on a washed-out projector.
ATTENTION_COLORSCALE = "Viridis"
# Diverging, blue (negative) / white (0) / red (positive), for signed values such as encodings.
DIVERGING_COLORSCALE = [[0.0, "#08306b"], [0.25, "#4a90c9"], [0.5, "#f7f7f7"], [0.75, "#e0603a"], [1.0, "#67000d"]]
# Saturated series colours that stay distinct when the projector drops contrast.
SERIES_COLORS = ["#1f4e9c", "#d1291f", "#2a8a2a", "#e07b00", "#6a3d9a", "#8c564b", "#c2378f", "#0f8fa0"]
# Medium-saturation fills for token spans; dark text stays readable on all of them.
SPAN_COLORS = ["#8ec5ff", "#ffb870", "#9be39b", "#ff9e9e", "#c9a7ff", "#ffe066", "#7fdcd2", "#f5a8dc"]
HIGHLIGHT_COLOR = "#d1291f"

TEMPLATE = go.layout.Template(
    layout=go.Layout(
        font=dict(family=FONT_FAMILY, size=FONT_SIZE, color=TEXT_COLOR),
        title=dict(font=dict(size=TITLE_SIZE), x=0.01, xanchor="left", y=0.985, yanchor="top", yref="container"),
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


def base_layout(title: str, height: int | None = None, **extra) -> dict:
    """Layout properties shared by all figures: the template, the title and an optional height in px."""
    layout = dict(template=TEMPLATE, title=dict(text=title), **extra)
    if height is not None:
        layout["height"] = height
    return layout
