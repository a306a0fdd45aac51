"""The page for everyone: readable contrast, names a screen reader says in the session's language,
and no motion for those who asked their system for none.

- THEME: the app's Gradio theme with every text colour at WCAG AA contrast (4.5:1) against what it
  sits on (Soft's indigo labels, white on indigo buttons and grey hints fall short of it).
- Gradio names a slider's two inputs and its reset button in English whatever the page's language
  ("range slider for Temperature", "Reset to default value"); NAMES_JS, run by the page script
  whenever the page changes, names them in the page's language instead, and makes a panel of text
  that scrolls reachable with the keyboard (tabindex), so its end can be read.
- REDUCED_MOTION_CSS: no transitions or animations (Gradio's spinners and progress bars, the
  accordions) when the system asks for reduced motion. The figures never animate.
"""
from __future__ import annotations

import json

import gradio as gr

from ..text.i18n import LANGUAGES, text


def theme() -> gr.themes.Base:
    """The app's theme: Soft in indigo and amber, its text colours darkened to AA contrast."""
    return gr.themes.Soft(primary_hue="indigo", secondary_hue="amber").set(
        block_label_text_color="*primary_700",
        block_title_text_color="*primary_700",
        block_info_text_color="*neutral_600",
        body_text_color_subdued="*neutral_600",
        checkbox_label_background_fill_selected="*primary_600",
        button_primary_background_fill="*primary_600",
        button_primary_background_fill_hover="*primary_700",
        color_accent="*primary_600",
        link_text_color="*secondary_800",
        link_text_color_hover="*secondary_900",
        link_text_color_visited="*secondary_800",
        link_text_color_active="*secondary_800",
    )


REDUCED_MOTION_CSS = """
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after {
    animation-duration: 0.01ms !important; animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important; scroll-behavior: auto !important;
  }
}
"""


def names_js() -> str:
    """Page js `(lang) => ...`: Gradio's English names of a slider's inputs and reset button in `lang`;
    a scrolling text panel focusable."""
    templates = {lang: {"range": text(lang, "a11y_range_slider"), "number": text(lang, "a11y_number_input"),
                        "reset": text(lang, "a11y_reset_slider")} for lang in LANGUAGES}
    return f"""
(lang) => {{
  const all = {json.dumps(templates, ensure_ascii=False)};
  const names = all[lang] || all.en;
  const patterns = [['range', /^range slider for (.*)$/s], ['number', /^number input for (.*)$/s]];
  for (const element of document.querySelectorAll('[aria-label^="range slider for "], [aria-label^="number input for "]')) {{
    for (const [kind, pattern] of patterns) {{
      const match = element.getAttribute('aria-label').match(pattern);
      if (match) {{
        element.dataset.a11yKind = kind;
        element.dataset.a11yLabel = match[1];
      }}
    }}
  }}
  for (const element of document.querySelectorAll('[data-a11y-kind]')) {{
    const named = names[element.dataset.a11yKind].replace('{{label}}', element.dataset.a11yLabel);
    if (element.getAttribute('aria-label') !== named) element.setAttribute('aria-label', named);
  }}
  for (const element of document.querySelectorAll('[aria-label="Reset to default value"], .reset-button')) {{
    if (element.getAttribute('aria-label') !== names.reset) element.setAttribute('aria-label', names.reset);
  }}
  for (const element of document.querySelectorAll('.prose, .explanation, .md')) {{
    const scrolls = element.scrollHeight > element.clientHeight
      && ['auto', 'scroll'].includes(getComputedStyle(element).overflowY);
    if (scrolls && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '0');
  }}
}}
"""
