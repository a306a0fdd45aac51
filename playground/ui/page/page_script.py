"""The page's own script (launch's `js`), run once when the page opens.

It follows the Settings menu's language (language.FOLLOW_SETTINGS_JS), marks the parts a link hides
(hiding.HIDE_JS), asks again for a draw that never ended (drawing.watch_js), and keeps what the page
draws usable by everyone: whenever the page changes (a figure drawn, a tab shown, the language
switched), at most once per SETTLE_MS, it adds the SVG button to new figure toolbars (export.py),
names Gradio's controls in the page's language (accessibility.py), fits the figures and their text
to the screen and lets a table that scrolls take the keyboard's focus (phone.py), lays legends and
axes out at presenter mode's size and, when a link opens, scrolls to the figure it names
(present.py). One observer of the whole page does all of these; it also runs them when a panel stops
being busy (drawing.BUSY), which may end a draw with no other change to the page (the link's scroll
waits for it).
"""
from __future__ import annotations

from typing import Iterable

from ..text.i18n import LANGUAGES, text
from . import accessibility, drawing, export, hiding, phone, present
from .language import FOLLOW_SETTINGS_JS
from .page_needs import PageNeeds

SETTLE_MS = 150


def page_js(tabs: Iterable[PageNeeds]) -> str:
    """The page's script for the `tabs`' page: a JS function of no arguments."""
    svg_titles = {lang: text(lang, "a11y_svg_export") for lang in LANGUAGES}
    return f"""
() => {{
  ({FOLLOW_SETTINGS_JS})();
  ({hiding.HIDE_JS})();
  ({drawing.watch_js()})();
  const passes = [{export.add_svg_buttons_js(svg_titles)}, {accessibility.names_js()},
                  {phone.NARROW_FIGURES_JS}, {phone.FIT_FIGURES_JS}, {phone.SCROLLING_TABLES_JS},
                  {present.FIGURES_AT_PRESENT_SIZE_JS}, {present.scroll_to_named_js(tabs)}];
  let pending = null;
  const run = () => {{
    pending = null;
    const lang = document.documentElement.dataset.lang || 'en';
    for (const pass of passes) {{
      try {{ pass(lang); }} catch (error) {{ console.warn('page script', error); }}
    }}
  }};
  new MutationObserver(() => {{ if (pending === null) pending = setTimeout(run, {SETTLE_MS}); }})
    .observe(document.documentElement, {{subtree: true, childList: true, attributes: true,
                                         attributeFilter: ['aria-label', 'data-lang', '{drawing.BUSY}']}});
  run();
}}
"""
