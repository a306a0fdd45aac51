"""Every figure saves as SVG too: a button beside the camera in each figure's toolbar.

Plotly's config travels to gr.Plot as JSON, so it cannot carry a button's click function, and
Gradio keeps Plotly to itself. The page therefore adds the button to each toolbar Plotly draws
(ADD_SVG_BUTTONS_JS, run by the page script whenever the page changes): a click asks the camera
button's own handler for an SVG, under the PNG's file name (export_config's
`toImageButtonOptions.filename`, e.g. `reverse-attention-cross-head_plot-L1-H2.svg`).

Plotly draws a heatmap as a bitmap, in an SVG too: one pixel a cell where the cells are even, which a
slide tool scales up blurred. The SVG button therefore rewrites the file Plotly hands to the browser
(VECTOR_CELLS_JS): each heatmap bitmap of at most MAX_VECTOR_CELLS pixels becomes one rectangle per
pixel, in its colour, so the cells stay sharp at any size; a larger one stays a bitmap.
"""
from __future__ import annotations

import json

MAX_VECTOR_CELLS = 16_384       # heatmap pixels written as rectangles (a 128 x 128 attention map)
SVG_WAIT_MS = 15_000            # how long the SVG button waits for Plotly's file

BUTTON_CLASS = "svg-export"
# A vector icon: two lines meeting at three square handles, filled shapes only (the toolbar colours
# its icons' paths by their fill).
ICON = ('<svg viewBox="0 0 1000 1000" class="icon" height="1em" width="1em">'
        '<path d="M150 250 L440 760 L560 760 L850 250 L760 200 L500 660 L240 200 Z'
        ' M40 100h220v220h-220z M740 100h220v220h-220z M390 680h220v220h-220z"/></svg>')


# `(svg) => Promise<svg>`: each heatmap's bitmap (a PNG data URL in an <image>) of at most
# MAX_VECTOR_CELLS pixels replaced by a group of rectangles, one a pixel, over the same box.
VECTOR_CELLS_JS = f"""
async (svg) => {{
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const ns = 'http://www.w3.org/2000/svg';
  for (const image of Array.from(doc.querySelectorAll('.hm image'))) {{
    const href = image.getAttribute('xlink:href') || image.getAttribute('href') || '';
    if (!href.startsWith('data:image/png')) continue;
    const bitmap = new Image();
    bitmap.src = href;
    await bitmap.decode();
    const [n, m] = [bitmap.naturalWidth, bitmap.naturalHeight];
    if (n * m === 0 || n * m > {MAX_VECTOR_CELLS}) continue;
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [n, m];
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const pixels = context.getImageData(0, 0, n, m).data;
    const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((a) => parseFloat(image.getAttribute(a)) || 0);
    const cells = doc.createElementNS(ns, 'g');
    cells.setAttribute('class', 'vector-cells');
    if (image.getAttribute('style')) cells.setAttribute('style', image.getAttribute('style').replace(/image-rendering:[^;]*;?/g, ''));
    for (let j = 0; j < m; j++) {{
      for (let i = 0; i < n; i++) {{
        const k = 4 * (j * n + i);
        if (pixels[k + 3] === 0) continue;
        const rect = doc.createElementNS(ns, 'rect');
        rect.setAttribute('x', x + i * width / n);
        rect.setAttribute('y', y + j * height / m);
        rect.setAttribute('width', width / n);
        rect.setAttribute('height', height / m);
        rect.setAttribute('fill', `rgb(${{pixels[k]}},${{pixels[k + 1]}},${{pixels[k + 2]}})`);
        if (pixels[k + 3] < 255) rect.setAttribute('fill-opacity', (pixels[k + 3] / 255).toFixed(3));
        rect.setAttribute('shape-rendering', 'crispEdges');
        cells.appendChild(rect);
      }}
    }}
    image.replaceWith(cells);
  }}
  return new XMLSerializer().serializeToString(doc);
}}
"""

# `() => void`, called just before the camera button saves an SVG: the next SVG file Plotly makes
# (a Blob given to URL.createObjectURL, then an <a download> clicked) is saved rewritten by
# VECTOR_CELLS_JS instead (as it was if that fails). Both are put back after it, or after SVG_WAIT_MS.
CATCH_SVG_JS = f"""
() => {{
  const create = URL.createObjectURL, click = HTMLAnchorElement.prototype.click;
  let made = null;
  const restore = () => {{ URL.createObjectURL = create; HTMLAnchorElement.prototype.click = click; }};
  const timer = setTimeout(restore, {SVG_WAIT_MS});
  URL.createObjectURL = function (object) {{
    if (object instanceof Blob && object.type.startsWith('image/svg')) made = object;
    return create.call(URL, object);
  }};
  HTMLAnchorElement.prototype.click = function () {{
    if (!made || !(this.download || '').endsWith('.svg')) return click.call(this);
    clearTimeout(timer);
    restore();
    const [name, file] = [this.download, made];
    file.text().then({VECTOR_CELLS_JS}).then((svg) => new Blob([svg], {{type: file.type}}), () => file)
      .then((saved) => {{
        const anchor = document.createElement('a');
        anchor.href = create.call(URL, saved);
        anchor.download = name;
        document.body.appendChild(anchor);
        click.call(anchor);
        anchor.remove();
        setTimeout(() => URL.revokeObjectURL(anchor.href), 1000);
      }});
  }};
}}
"""


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
      ({CATCH_SVG_JS})();
      try {{ camera.click(gd); }} finally {{ gd._context.toImageButtonOptions = options; }}
    }});
    group.insertBefore(button, group.firstChild);
  }}
}}
"""
