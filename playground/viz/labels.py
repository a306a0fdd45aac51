"""Token text for axes and hovers, and checks on the arrays the figures receive."""
from collections.abc import Sequence

import numpy as np

# Plotly reads text as HTML-like markup (<b>, <i>, <br>, <a href>, <span style>, entities): these three
# written as entities show as themselves.
_PLOTLY_MARKUP = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
# Bidirectional controls (embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069) would reorder
# the figure's own text around the value: each is shown as its code point instead, "<U+202E>".
_PLOTLY_MARKUP.update({chr(code): f"&lt;U+{code:04X}&gt;" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))})
_VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍", **_PLOTLY_MARKUP}


def plotly_text(value) -> str:
    """Text from a user or a file (a model's name, typed text) for a Plotly string: a title, tick,
    hover or annotation shows "<a href=...>" or "<b>" as written instead of as a link or bold, and a
    bidirectional control as "<U+202E>"."""
    return "".join(_PLOTLY_MARKUP.get(ch, ch) for ch in str(value))


def visible_token(token: str) -> str:
    """Token text as Plotly shows it: whitespace as symbols (space -> ␣, newline -> ↵), "<", ">", "&"
    escaped as in plotly_text, empty -> ∅."""
    if token == "":
        return "∅"
    return "".join(_VISIBLE.get(ch, ch) for ch in token)


def number_text(value: float, digits: int = 2) -> str:
    """A number as text with a true minus sign: "−1.25", "−∞", "NaN"; never "−0.00"."""
    if np.isnan(value):
        return "NaN"
    if np.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{round(float(value), digits) + 0.0:.{digits}f}".replace("-", "−")


def axis_categories(tokens: Sequence[str]) -> tuple[list[str], list[str]]:
    """Unique axis categories and their tick text for a token sequence.

    Plotly merges equal categories, so two "a" tokens would collapse onto one row. Each category is
    "position: token" (unique, shown in hovers); the tick text is the token alone.
    Returns (categories, tick_text), both of length len(tokens).
    """
    shown = [visible_token(str(t)) for t in tokens]
    return [f"{i}: {s}" for i, s in enumerate(shown)], shown


def as_float32(values, name: str, ndim: int) -> np.ndarray:
    """`values` as a float32 array with `ndim` dimensions and only finite entries, else ValueError."""
    array = np.asarray(values, dtype=np.float32)
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty (shape {array.shape}); pass at least one value")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values; pass finite numbers")
    return array


def check_weights(weights: np.ndarray, name: str) -> None:
    """Raise ValueError unless every value is an attention weight in [0, 1] (rounding slack 1e-3)."""
    if weights.min() < -1e-3 or weights.max() > 1 + 1e-3:
        raise ValueError(
            f"{name} must hold attention weights in [0, 1], got values in "
            f"[{weights.min():.4g}, {weights.max():.4g}]; pass softmax outputs, not raw scores"
        )


def check_tokens(tokens: Sequence[str], length: int, name: str, axis: str) -> None:
    """Raise ValueError unless there is one token per position along `axis`."""
    if len(tokens) != length:
        raise ValueError(f"{name} has {len(tokens)} tokens but the weights have {length} {axis} positions")
