"""The page on a phone (PHONE_MAX_PX wide or less, e.g. 390x844 and 360x740).

The title keeps its words whole on one or two lines; the header's buttons and the language sit
under it; every tab's name shows in the tab row, wrapped onto as many lines as it needs (the
Tabs' `overflow_behavior="wrap"` in app.py), so each is one tap away; rows of controls stack;
nothing is wider than the screen, so the page never scrolls sideways (a wide table scrolls inside
its own box). Only CSS, in the page's <head> (launch's `head`): Gradio scopes the `css` it is
given to its own blocks, and inside a media query keeps only the scoped copy, which cannot reach
the page's outer padding.
"""
from __future__ import annotations

PHONE_MAX_PX = 640

_RULES = """
.gradio-container .main.app { padding-left: var(--size-2) !important; padding-right: var(--size-2) !important; }
#header { flex-wrap: wrap; gap: var(--spacing-md); }
#header > #app-title { flex: 1 1 100% !important; min-width: 100% !important; }
#app-title h1 { font-size: 1.75rem; line-height: 1.2; overflow-wrap: normal; word-break: keep-all; hyphens: none; }
#app-title p { font-size: 0.95rem; }
#header > button { flex: 0 0 auto !important; min-width: 0 !important; white-space: nowrap; }
#header > #language { flex: 1 1 100% !important; }
#tabs .tab-container button { padding: var(--size-1) var(--size-2); }
.row { flex-wrap: wrap !important; }
.row > .column, .row > .block:not(button), .row > .form { flex: 1 1 100% !important; min-width: 0 !important; }
.row > button { flex: 1 1 auto !important; min-width: fit-content !important; }
.column > * { max-width: 100%; }
.js-plotly-plot, .plot-container { max-width: 100%; }
.table-wrap, .prose table { overflow-x: auto; max-width: 100%; }
.prose pre, .prose code { white-space: pre-wrap; overflow-wrap: anywhere; }
.prose { overflow-wrap: break-word; }
"""


def phone_css() -> str:
    """The page's CSS for screens at most PHONE_MAX_PX wide (for the page's <head>)."""
    return f"@media (max-width: {PHONE_MAX_PX}px) {{\n{_RULES}}}\n"
