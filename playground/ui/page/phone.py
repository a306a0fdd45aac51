"""The page on a phone (PHONE_MAX_PX wide or less, e.g. 390x844 and 360x740).

The title keeps its words whole on one or two lines; the header's buttons and the language sit under
it; every tab's name shows in the tab row, wrapped onto as many lines as it needs (the Tabs'
`overflow_behavior="wrap"` in app.py), so each is one tap away; rows of controls stack; nothing is
wider than the screen, so the page never scrolls sideways (a wide table scrolls inside its own box,
its cells on one line each, so a number is never split); a slider takes a line of its own, so its
label and note do not break mid-word. The CSS goes in the page's <head> (launch's `head`): Gradio
scopes the `css` it is given to its own blocks, and inside a media query keeps only the scoped copy,
which cannot reach the page's outer padding. A table that scrolls takes the keyboard's focus
(SCROLLING_TABLES_JS), so it can be scrolled without a pointer.

Figures are drawn for the width they get. Panels side by side (worked attention's steps, LayerNorm
against BatchNorm, a grid of masks) would have a few dozen pixels each: on a phone, NARROW_FIGURES_JS
stacks them one above the other, by the relayout the figure carries (viz.matrices.NARROW_META).
On a phone a touch screen cannot hover, so Plotly shows
every figure's toolbar all the time, over the title: there it keeps only its first group (save as
PNG, as SVG). FIT_FIGURES_JS (run by the page script whenever the page changes) fits each figure's
text to a phone: a title or note wider than its figure gets a smaller font (down to
MIN_FIGURE_FONT_PX); on a wider screen a title that runs under the toolbar (shown on hover) gets
a smaller font too, down to MIN_TITLE_FONT_PX. At any width, heatmap cell text that overlaps its
neighbours (presenter mode's larger font, a wide glyph) gets a font small enough to keep them
apart; where that, or the size Plotly fitted to the cells, is below MIN_CELL_FONT_PX, the heatmap
shows its colours alone (a hover or a tap on a cell still shows its text). In presenter mode no
figure text goes below PRESENT_FONT_PX: a title keeps it, cell text too small is hidden.
"""
from __future__ import annotations

from playground.viz.matrices import NARROW_META

from .present import PRESENT_FONT_PX

PHONE_MAX_PX = 640
MIN_FIGURE_FONT_PX = 11      # the smallest font a title or note of a figure gets on a phone
MIN_TITLE_FONT_PX = 14       # the smallest font a title gets to keep clear of the toolbar, wider than a phone
MIN_CELL_FONT_PX = 9         # heatmap cell text Plotly fits to smaller cells than this is hidden, at any width
CROWDED_CLASS = "crowded-numbers"

_RULES = """
.gradio-container .main.app { padding-left: var(--size-2) !important; padding-right: var(--size-2) !important; }
#page-header { flex-wrap: wrap; gap: var(--spacing-md); }
#page-header > #app-title { flex: 1 1 100% !important; min-width: 100% !important; }
#app-title h1 { font-size: 1.75rem; line-height: 1.2; overflow-wrap: normal; word-break: keep-all; hyphens: none; }
#app-title p { font-size: 0.95rem; }
#page-header > button { flex: 0 0 auto !important; min-width: 0 !important; white-space: nowrap; }
#page-header > #language { flex: 1 1 100% !important; }
#tabs .tab-container button { padding: var(--size-1) var(--size-2); }
.row { flex-wrap: wrap !important; }
.row > .column, .row > .block:not(button), .row > .form { flex: 1 1 100% !important; min-width: 0 !important; }
.row > button { flex: 1 1 auto !important; min-width: fit-content !important; }
.form > .block:has(input[type=range]) { min-width: min(100%, 300px) !important; }
.column > * { max-width: 100%; }
.js-plotly-plot, .plot-container { max-width: 100%; }
.js-plotly-plot .modebar-group:not(:first-child) { display: none !important; }
.table-wrap, .prose table { display: block; overflow-x: auto; max-width: 100%; }
.prose pre, .prose code { white-space: pre-wrap; overflow-wrap: anywhere; }
.prose { overflow-wrap: break-word; }
.prose td, .prose th { white-space: nowrap; }
"""


def phone_css() -> str:
    """The page's CSS for screens at most PHONE_MAX_PX wide (for the page's <head>), and the rule that
    hides crowded heatmap cell text at any width."""
    crowded = f".js-plotly-plot .{CROWDED_CLASS} .heatmap-label {{ display: none; }}\n"
    return f"@media (max-width: {PHONE_MAX_PX}px) {{\n{_RULES}}}\n{crowded}"


# Page js `(lang) => ...`: on a phone, a figure of panels side by side that carries the relayout stacking
# them (layout.meta) is laid out by it, once per figure drawn (a new figure from the server comes without
# the mark).
NARROW_FIGURES_JS = f"""
(lang) => {{
  if (innerWidth > {PHONE_MAX_PX} || !window.Plotly) return;
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {{
    const meta = gd.layout && gd.layout.meta;
    const narrow = meta && meta.{NARROW_META};
    if (!narrow || meta.narrowed) continue;
    window.Plotly.relayout(gd, {{...narrow, 'meta.narrowed': true}});
  }}
}}
"""

# Page js `(lang) => ...`: a table wider than its box (on a phone) scrolls inside it, so the keyboard can
# reach it (focusable, arrow keys scroll it); one that fits is left out of the tab order.
SCROLLING_TABLES_JS = """
(lang) => {
  for (const table of document.querySelectorAll('.prose table')) {
    const scrolls = table.scrollWidth > table.clientWidth + 1;
    if (scrolls && !table.hasAttribute('tabindex')) table.setAttribute('tabindex', '0');
    else if (!scrolls && table.getAttribute('tabindex') === '0') table.removeAttribute('tabindex');
  }
}
"""

# Page js `(lang) => ...`: on a phone, each figure's title and notes (annotations) fit their figure, the
# title beside the toolbar (wider, the title alone, down to MIN_TITLE_FONT_PX); at any width (presenter mode's larger text too), heatmap cell text made
# small enough not to overlap, or hidden below MIN_CELL_FONT_PX (a class on its layer).
FIT_FIGURES_JS = f"""
(lang) => {{
  const phone = innerWidth <= {PHONE_MAX_PX};
  const presenting = document.body.classList.contains('present');     // no figure text below its minimum
  const leastTitle = presenting ? {PRESENT_FONT_PX} : phone ? {MIN_FIGURE_FONT_PX} : {MIN_TITLE_FONT_PX};
  const leastCell = presenting ? {PRESENT_FONT_PX} : {MIN_CELL_FONT_PX};
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {{
    const svg = gd.querySelector('.main-svg');
    const figure = svg && svg.getBoundingClientRect();
    if (!figure || figure.width === 0) continue;
    const bar = gd.querySelector('.modebar');
    const barWidth = bar ? bar.getBoundingClientRect().width : 0;
    for (const text of gd.querySelectorAll(phone ? '.gtitle, .annotation-text' : '.gtitle')) {{
      const box = text.getBoundingClientRect();
      const right = figure.right - (text.classList.contains('gtitle') ? barWidth : 0);
      if (box.width === 0 || (box.left >= figure.left && box.right <= right)) continue;
      const room = text.classList.contains('gtitle') ? right - Math.max(box.left, figure.left) : figure.width;
      const size = parseFloat(getComputedStyle(text).fontSize);
      const fitted = Math.max(leastTitle, Math.floor(size * room / box.width));
      if (fitted < size) text.style.setProperty('font-size', fitted + 'px', 'important');
    }}
    for (const layer of gd.querySelectorAll('.heatmaplayer')) {{
      const labels = Array.from(layer.querySelectorAll('.heatmap-label text'));
      const drawn = `${{labels.length}} ${{labels[0] ? labels[0].style.fontSize : ''}} ${{figure.width}}`;
      if (layer.dataset.fitted === drawn) continue;          // checked as drawn now (a redraw checks again)
      layer.classList.remove('{CROWDED_CLASS}');
      const rows = new Map();
      for (const label of labels) {{
        const box = label.getBoundingClientRect();
        if (box.width === 0 || !label.textContent.trim()) continue;
        const row = Math.round(box.top + box.height / 2);
        if (!rows.has(row)) rows.set(row, []);
        rows.get(row).push(box);
      }}
      let scale = 1;                                          // the font's share that keeps neighbours apart
      for (const boxes of rows.values()) {{
        boxes.sort((a, b) => a.left - b.left);
        for (let i = 1; i < boxes.length; i++) {{
          const apart = (boxes[i].left + boxes[i].right - boxes[i - 1].left - boxes[i - 1].right) / 2;
          const needed = (boxes[i].width + boxes[i - 1].width) / 2 + 2;
          scale = Math.min(scale, apart / needed);
        }}
      }}
      const size = labels.length ? parseFloat(getComputedStyle(labels[0]).fontSize) : 0;
      const fitted = Math.floor(size * scale);
      if (labels.length && (fitted < leastCell || size < {MIN_CELL_FONT_PX})) {{
        layer.classList.add('{CROWDED_CLASS}');
      }} else if (scale < 1) {{
        for (const label of labels) label.style.setProperty('font-size', `${{fitted}}px`, 'important');
      }}
      layer.dataset.fitted = `${{labels.length}} ${{labels[0] ? labels[0].style.fontSize : ''}} ${{figure.width}}`;
    }}
  }}
}}
"""
