"""Presenter mode (`?present=1`, a class `present` on <body>): a projector at 1280x720.

The figure a link names is on the first screen: the header is one line (the title, Copy link, the
QR code, the language), every tab's controls are folded (see links.open_page) unless the tab's text
asks for a button in them (OPEN_CONTROLS), and what competes with the figure (explanations, examples,
the own-model panel, the title's subtitle, notes about accepted inputs) is hidden. Figure text is at least PRESENT_FONT_PX. Only CSS: nothing moves on the
server, and a tab looks the same in every session that is not presenting.
"""
from __future__ import annotations

PRESENT_FONT_PX = 18         # the smallest figure text, for a projector in a lit room

# The figure each tab's link names: what presenter mode puts on the first screen.
NAMED_FIGURES = {
    "lessons": "lesson-figure-0",
    "attention": "attention-head-plot",        # the enlarged head: a link names its layer and head
    "inside": "inside-emb-neighbours",         # the first section's first figure
    "generate": "generate-candidates",
    "train": "train-curves",
    "labs": "labs-curves",
    "positional": "pos-heatmap",
    "tokenizer": "tok-char-spans",
    "architecture": "arch-treemap",
}

# Views whose named figure is drawn when their link opens: outside presenter mode (where the controls
# and examples come first) the page scrolls to it once it is drawn (SCROLL_TO_NAMED_JS). A lesson
# opens at its text, Train and Labs at the controls that start the run their figure shows.
SCROLLED_VIEWS = ("attention", "inside", "positional", "tokenizer", "architecture", "generate")
SCROLL_WAIT_MS = 120_000     # a figure not drawn by then (a cold, loaded server) is left where it is
SCROLL_MARGIN_PX = 8         # above the scrolled-to figure

# Tabs whose controls stay open in presenter mode: what the tab says to press is in them (Labs: the lab
# picker and "Run lab", beside the curves, so the figure stays where it is).
OPEN_CONTROLS = ("labs",)

# What a presenter hides: text that explains the figure (the presenter does), examples to click,
# the own-model panel, the subtitle, the language control's caption, notes on accepted inputs.
HIDDEN = (
    "#own-model-panel", ".explanation", "#generate-explanation-panel", "#attention-examples",
    "#generate-examples", "#tok-examples", ".accepted", "#inside-emb-note", "#inside-mask-note", "#inside-fill-note", "#app-title p", "#language [data-testid=block-info]",
)

# Attention: the grid (left) and the enlarged head (right) side by side on the first screen, the
# summary under the grid and the layer and head sliders under the head (all one row lower when the
# tab's note shows above them); every other row follows at full width. The two rows that hold them
# give their columns to the tab's grid.
_ATTENTION = """
body.present #tab-attention > .column {
  display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: var(--layout-gap); align-items: start;
}
body.present #tab-attention > .column > * { grid-column: 1 / -1; }
body.present #tab-attention > .column > .row:has(#attention-grid),
body.present #tab-attention > .column > .row:has(#attention-head-plot) { display: contents; }
body.present #tab-attention .row:has(#attention-grid) > .column:first-child { grid-column: 1; grid-row: 1; }
body.present #tab-attention .row:has(#attention-head-plot) > .column:first-child { grid-column: 2; grid-row: 1; }
body.present #tab-attention .row:has(#attention-grid) > .column:last-child { grid-column: 1; grid-row: 2; }
body.present #tab-attention .row:has(#attention-head-plot) > .column:last-child { grid-column: 2; grid-row: 2; }
body.present #tab-attention > .column:has(> .tab-note) > .tab-note { grid-row: 1; }
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-grid) > .column:first-child,
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-head-plot) > .column:first-child { grid-row: 2; }
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-grid) > .column:last-child,
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-head-plot) > .column:last-child { grid-row: 3; }
"""

# Generate: the candidates (or the beam tree) on the right of the prompt, the buttons and the text so
# far, the folded controls under them: the first row's two columns give their blocks to one grid.
_GENERATE = """
body.present #tab-generate .row:has(#generate-candidates) {
  display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: var(--layout-gap); align-items: start;
}
body.present #tab-generate .row:has(#generate-candidates) > .column { display: contents; }
body.present #tab-generate .row:has(#generate-candidates) > .column > * { grid-column: 1; }
body.present #tab-generate .row:has(#generate-candidates) > .column > :is(#generate-candidates, #generate-beam-tree) {
  grid-column: 2; grid-row: 1 / span 8;
}
"""

# The header in one line: the title without its subtitle, the buttons, the language choices.
_HEADER = """
body.present #header { flex-wrap: nowrap; align-items: center; gap: var(--spacing-lg); }
body.present #header > * { min-width: 0 !important; }
body.present #header > button, body.present #header > #language { flex: none !important; white-space: nowrap; }
body.present #app-title h1 { font-size: 1.6rem; margin: 0; white-space: nowrap; }
body.present #language { padding: 0; background: none; border: none; box-shadow: none; }
body.present #header .form:has(> #language) { background: none; border: none; box-shadow: none; }
body.present #tabs .tab-container button { font-size: 1.05rem; }
"""


# Labs: the lab's title (the heading of its card, whose explanation is hidden) under the lab picker.
_LABS = """
body.present:not(.hide-explanation) #tab-labs :is(#labs-card, #labs-card .prose) { display: block !important; }
body.present #tab-labs #labs-card .md > :not(h3) { display: none; }
"""


def present_css() -> str:
    """The page's CSS for presenter mode."""
    hidden = ",\n".join(f"body.present {selector}" for selector in HIDDEN)
    return (f"body.present .js-plotly-plot text, body.present .js-plotly-plot text tspan "
            f"{{ font-size: {PRESENT_FONT_PX}px !important; }}\n"
            f"body.present .js-plotly-plot .gtitle {{ font-size: {PRESENT_FONT_PX + 4}px !important; }}\n"
            f"{hidden} {{ display: none !important; }}\n" + _HEADER + _ATTENTION + _GENERATE + _LABS)


def scroll_to_named_js() -> str:
    """Page js pass `(lang) => ...` (see page_script.py): once, when a link to a SCROLLED_VIEWS view opens
    outside presenter mode, scroll its named figure to the top of the window as soon as it is drawn,
    unless it is already in the upper half of the window or the reader has scrolled, tapped or typed
    first."""
    named = {view: NAMED_FIGURES[view] for view in SCROLLED_VIEWS}
    return f"""
(() => {{
  const params = new URLSearchParams(location.search);
  const view = params.get('view');
  const named = {named!r}[view];
  let done = !named || params.get('present') === '1';
  const started = performance.now();
  for (const kind of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {{
    addEventListener(kind, () => {{ done = true; }}, {{capture: true, passive: true, once: true}});
  }}
  return () => {{
    if (done) return;
    if (performance.now() - started > {SCROLL_WAIT_MS}) {{ done = true; return; }}
    const panel = document.getElementById(`tab-${{view}}`);
    const target = document.getElementById(named);
    if (!panel || panel.offsetParent === null || panel.hasAttribute('aria-busy') || !target) return;
    if (!target.querySelector('.js-plotly-plot .main-svg')) return;
    done = true;
    if (scrollY === 0 && target.getBoundingClientRect().top > innerHeight / 2) {{
      scrollTo({{top: scrollY + target.getBoundingClientRect().top - {SCROLL_MARGIN_PX}, behavior: 'instant'}});
    }}
  }};
}})()
"""
