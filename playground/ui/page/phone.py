"""The page on a phone (PHONE_MAX_PX wide or less, e.g. 390x844 and 360x740).

The title keeps its words whole on one or two lines; the header's buttons and the language sit
under it; every tab's name shows in the tab row, wrapped onto as many lines as it needs (the
Tabs' `overflow_behavior="wrap"` in app.py), so each is one tap away; rows of controls stack;
nothing is wider than the screen, so the page never scrolls sideways (a wide table scrolls inside
its own box); a slider takes a line of its own, so its label and note do not break mid-word. The
CSS goes in the page's <head> (launch's `head`): Gradio scopes the `css` it is given to its own
blocks, and inside a media query keeps only the scoped copy, which cannot reach the page's outer
padding.

Figures are drawn for the width they get. On a phone a touch screen cannot hover, so Plotly shows
every figure's toolbar all the time, over the title: there it keeps only its first group (save as
PNG, as SVG). FIT_FIGURES_JS (run by the page script whenever the page changes) fits each figure's
text to a phone: a title or note wider than its figure gets a smaller font (down to
MIN_FIGURE_FONT_PX), and a heatmap whose numbers overlap their neighbours shows its colours alone
(a tap on a cell still shows its number).
"""
from __future__ import annotations

PHONE_MAX_PX = 640
MIN_FIGURE_FONT_PX = 11      # the smallest font a title or note of a figure gets on a phone
CROWDED_CLASS = "crowded-numbers"

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
.form > .block:has(input[type=range]) { min-width: min(100%, 300px) !important; }
.column > * { max-width: 100%; }
.js-plotly-plot, .plot-container { max-width: 100%; }
.js-plotly-plot .modebar-group:not(:first-child) { display: none !important; }
.table-wrap, .prose table { overflow-x: auto; max-width: 100%; }
.prose pre, .prose code { white-space: pre-wrap; overflow-wrap: anywhere; }
.prose { overflow-wrap: break-word; }
"""


def phone_css() -> str:
    """The page's CSS for screens at most PHONE_MAX_PX wide (for the page's <head>)."""
    crowded = f".js-plotly-plot .{CROWDED_CLASS} .heatmap-label {{ display: none; }}\n"
    return f"@media (max-width: {PHONE_MAX_PX}px) {{\n{_RULES}{crowded}}}\n"


# Page js `(lang) => ...`, on a phone only: each figure's title and notes (annotations) fit their
# figure, the title beside the toolbar; heatmap numbers that overlap hidden (a class on their layer).
FIT_FIGURES_JS = f"""
(lang) => {{
  if (innerWidth > {PHONE_MAX_PX}) return;
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {{
    const svg = gd.querySelector('.main-svg');
    const figure = svg && svg.getBoundingClientRect();
    if (!figure || figure.width === 0) continue;
    const bar = gd.querySelector('.modebar');
    const barWidth = bar ? bar.getBoundingClientRect().width : 0;
    for (const text of gd.querySelectorAll('.gtitle, .annotation-text')) {{
      const box = text.getBoundingClientRect();
      const right = figure.right - (text.classList.contains('gtitle') ? barWidth : 0);
      if (box.width === 0 || (box.left >= figure.left && box.right <= right)) continue;
      const room = text.classList.contains('gtitle') ? right - Math.max(box.left, figure.left) : figure.width;
      const size = parseFloat(getComputedStyle(text).fontSize);
      const fitted = Math.max({MIN_FIGURE_FONT_PX}, Math.floor(size * room / box.width));
      if (fitted < size) text.style.fontSize = fitted + 'px';
    }}
    for (const layer of gd.querySelectorAll('.heatmaplayer')) {{
      if (layer.classList.contains('{CROWDED_CLASS}')) continue;
      const rows = new Map();
      for (const label of layer.querySelectorAll('.heatmap-label text')) {{
        const box = label.getBoundingClientRect();
        if (box.width === 0 || !label.textContent.trim()) continue;
        const row = Math.round(box.top + box.height / 2);
        if (!rows.has(row)) rows.set(row, []);
        rows.get(row).push(box);
      }}
      const overlaps = Array.from(rows.values()).some((boxes) => boxes.sort((a, b) => a.left - b.left)
        .some((box, i) => i > 0 && box.left < boxes[i - 1].right - 1));
      if (overlaps) layer.classList.add('{CROWDED_CLASS}');
    }}
  }}
}}
"""
