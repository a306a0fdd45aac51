"""Every figure saves as SVG too: a button beside the camera in each figure's toolbar.

Plotly's config travels to gr.Plot as JSON, so it cannot carry a button's click function, and
Gradio keeps Plotly to itself. The page therefore adds the button to each toolbar Plotly draws
(ADD_SVG_BUTTONS_JS, run by the page script whenever the page changes): a click asks the camera
button's own handler for an SVG, under the PNG's file name (export_config's
`toImageButtonOptions.filename`, e.g. `reverse-attention-cross-head_plot-L1-H2.svg`).
"""
from __future__ import annotations

import json

BUTTON_CLASS = "svg-export"
# A vector icon: two lines meeting at three square handles, filled shapes only (the toolbar colours
# its icons' paths by their fill).
ICON = ('<svg viewBox="0 0 1000 1000" class="icon" height="1em" width="1em">'
        '<path d="M150 250 L440 760 L560 760 L850 250 L760 200 L500 660 L240 200 Z'
        ' M40 100h220v220h-220z M740 100h220v220h-220z M390 680h220v220h-220z"/></svg>')


def add_svg_buttons_js(titles: dict[str, str]) -> str:
    """Page js: `(lang) => ...` adding the SVG button to every figure's toolbar that lacks one;
    `titles`: its tooltip and accessible name by language."""
    return f"""
(lang) => {{
  const titles = {json.dumps(titles, ensure_ascii=False)};
  const title = titles[lang] || titles.en;
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {{
    const bar = gd._fullLayout && gd._fullLayout._modeBar;
    const group = gd.querySelector('.modebar-group');
    if (!bar || !group) continue;
    const old = gd.querySelector('.{BUTTON_CLASS}');
    if (old && old.parentElement && old.parentElement.parentElement) {{
      if (old.dataset.title !== title) {{ old.dataset.title = title; old.setAttribute('aria-label', title); }}
      continue;
    }}
    const button = document.createElement('a');
    button.className = 'modebar-btn {BUTTON_CLASS}';
    button.setAttribute('rel', 'tooltip');
    button.setAttribute('role', 'button');
    button.setAttribute('aria-label', title);
    button.dataset.title = title;
    button.dataset.gravity = 'n';
    button.innerHTML = {json.dumps(ICON)};
    button.addEventListener('click', () => {{
      const camera = bar.buttons.flat().find((config) => config && config.name === 'toImage');
      const options = gd._context.toImageButtonOptions || {{}};
      if (!camera) return;
      gd._context.toImageButtonOptions = {{...options, format: 'svg', scale: 1}};
      try {{ camera.click(gd); }} finally {{ gd._context.toImageButtonOptions = options; }}
    }});
    group.insertBefore(button, group.firstChild);
  }}
}}
"""
