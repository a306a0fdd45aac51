"""Presenter mode (`?present=1`, a class `present` on <body>): a projector at 1280x720.

The figure a link names (each tab's PageNeeds.figure) is on the first screen: the header is one
line (the title, Copy link, the QR code, the language), every tab's controls are folded (see
links.open_page) unless the tab's text asks for a button in them (PageNeeds.open_controls), and
what competes with the figure (explanations, the own-model panel, the title's subtitle, notes about
accepted inputs, and what each tab adds: examples, notes) is hidden. A tab may lay out its first
screen (PageNeeds.presenter_css). Figure text is at least PRESENT_FONT_PX: by CSS, and for what Plotly
spaces for the size it lays text out at (a legend's entries, an axis's tick labels and title), by laying
each figure's legend, and a one-plot figure's axes, out again at that size (FIGURES_AT_PRESENT_SIZE_JS).
Nothing moves on the server, and a tab looks the same in every session that is not presenting.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Iterable

from playground.viz.matrices import PRESENT_META
from playground.viz.theme import PRESENT_FONT_SIZE

if TYPE_CHECKING:
    from .page_needs import PageNeeds

PRESENT_FONT_PX = PRESENT_FONT_SIZE      # the smallest figure text, for a projector in a lit room

# Outside presenter mode (where the controls and examples come first) a link to a tab whose
# PageNeeds.scrolls_to_figure scrolls to its named figure once it is drawn (scroll_to_named_js).
SCROLL_WAIT_MS = 120_000     # a figure not drawn by then (a cold, loaded server) is left where it is
SCROLL_MARGIN_PX = 8         # above the scrolled-to figure

# What a presenter hides on every tab: text that explains the figure (the presenter does), the
# own-model panel, the subtitle, the language control's caption, notes on accepted inputs.
HIDDEN = (
    "#own-model-panel", ".explanation", ".accepted", "#app-title p", "#language [data-testid=block-info]",
)

# The header in one line: the title without its subtitle, the buttons, the language choices.
_HEADER = """
body.present #page-header { flex-wrap: nowrap; align-items: center; gap: var(--spacing-lg); }
body.present #page-header > * { min-width: 0 !important; }
body.present #page-header > button, body.present #page-header > #language { flex: none !important; white-space: nowrap; }
body.present #app-title h1 { font-size: 1.6rem; margin: 0; white-space: nowrap; }
body.present #language { padding: 0; background: none; border: none; box-shadow: none; }
body.present #page-header .form:has(> #language) { background: none; border: none; box-shadow: none; }
body.present #tabs .tab-container button { font-size: 1.05rem; }
"""


def present_css(tabs: Iterable[PageNeeds]) -> str:
    """The page's CSS for presenter mode, with what each of the `tabs` hides and its layout."""
    tabs = tuple(tabs)
    hidden = ",\n".join([*(f"body.present {selector}" for selector in HIDDEN),
                         *(f"body.present #tab-{tab.view} {selector}" for tab in tabs for selector in tab.presenter_hides)])
    return (f"body.present .js-plotly-plot text, body.present .js-plotly-plot text tspan "
            f"{{ font-size: {PRESENT_FONT_PX}px !important; }}\n"
            f"body.present .js-plotly-plot .gtitle {{ font-size: {PRESENT_FONT_PX + 4}px !important; }}\n"
            f"{hidden} {{ display: none !important; }}\n" + _HEADER + "".join(tab.presenter_css for tab in tabs))


# Page js pass `(lang) => ...` (see page_script.py): in presenter mode, each figure's legend, and the tick
# labels and axis titles of a figure of one plot, that Plotly laid out at less than PRESENT_FONT_PX are laid
# out again at that size, in one relayout per figure. The CSS above enlarges the text without moving it:
# legend entries ran into each other, and tick labels into their neighbours, their axis's title and the
# figure's edge; laid out at the size they are drawn, Plotly turns crowded labels and widens the margins
# (automargin) to hold them. A figure of several panels (a grid of heatmaps) places them at fixed shares
# of the figure, with their titles above them, so turned labels would run into those: its axes are left,
# unless it carries its own relayout for presenter mode (layout.meta, viz.matrices.PRESENT_META: a masks
# grid with room above each row for its key labels turned upright at that size).
FIGURES_AT_PRESENT_SIZE_JS = f"""
(lang) => {{
  if (!document.body.classList.contains('present') || !window.Plotly) return;
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {{
    const full = gd._fullLayout;
    if (!full) continue;
    const meta = gd.layout && gd.layout.meta;
    if (meta && meta.{PRESENT_META}) {{                    // a grid that says how to lay itself out at that size
      if (!meta.presented) window.Plotly.relayout(gd, {{...meta.{PRESENT_META}, 'meta.presented': true}});
      continue;
    }}
    const update = {{}};
    if (full.showlegend && full.legend && full.legend.font.size < {PRESENT_FONT_PX}) {{
      update['legend.font.size'] = {PRESENT_FONT_PX};
    }}
    const axes = Object.keys(full).filter((key) => /^[xy]axis\\d*$/.test(key));
    for (const name of axes.length === 2 ? axes : []) {{        // panels side by side keep their own places
      const axis = full[name];
      if (axis.visible === false) continue;
      if (axis.showticklabels && axis.tickfont.size < {PRESENT_FONT_PX}) {{
        update[`${{name}}.tickfont.size`] = {PRESENT_FONT_PX};
      }}
      if (axis.title && axis.title.text && axis.title.font.size < {PRESENT_FONT_PX}) {{
        update[`${{name}}.title.font.size`] = {PRESENT_FONT_PX};
      }}
    }}
    if (Object.keys(update).length) window.Plotly.relayout(gd, update);
  }}
}}
"""


def scroll_to_named_js(tabs: Iterable[PageNeeds]) -> str:
    """Page js pass `(lang) => ...` (see page_script.py): once, when a link to one of the `tabs` that
    scrolls to its figure opens outside presenter mode, scroll its named figure to the top of the window
    as soon as it is drawn, unless it is already in the upper half of the window or the reader has
    scrolled, tapped or typed first."""
    named = {tab.view: tab.figure for tab in tabs if tab.scrolls_to_figure}
    return f"""
(() => {{
  const params = new URLSearchParams(location.search);
  const view = params.get('view');
  const named = {json.dumps(named)}[view];
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
