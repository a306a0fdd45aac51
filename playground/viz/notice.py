"""A figure that holds a sentence instead of data: what is missing, and why."""
import plotly.graph_objects as go

from .theme import base_layout, figure, wrap

NOTICE_HEIGHT = 260
NOTICE_CELLS = 70        # characters per line of the notice


def notice_figure(title: str, message: str, height: int = NOTICE_HEIGHT) -> go.Figure:
    """An empty plot titled `title` with `message` written in its middle."""
    hidden = dict(visible=False, showgrid=False, zeroline=False)
    note = dict(text="<br>".join(wrap(message, NOTICE_CELLS)), x=0.5, y=0.5, xref="paper", yref="paper",
                showarrow=False)
    return figure([], base_layout(title, height, xaxis=hidden, yaxis=hidden, annotations=[note]))
