"""Plotly's code fetched while the page starts and run while the server draws the page's opening.

Gradio's Plot component imports its Plotly chunk (`PlotlyPlot-<hash>.js`, 1.1 MB) only when the
first figure is mounted: a page waited for the server's draw of its opening, then fetched the chunk
and ran its module code (0.5 to 0.7 s of the browser's main thread), then drew. EARLY_PLOTLY_SCRIPT
(written first in the app page's <head> by server/first_script.py) asks for the chunk as a module
preload once the page's <base> is known, and gives the opening (links.py) a function that runs it
as the opening leaves: the module's code then runs while the server draws, and Gradio's own import
finds the module loaded (one module per address). Measured with an attention draw held 1 s by the
server, as on a loaded class server: a link drawn in 2.34 s instead of 3.07 s; with a quiet server
the two are alike, the browser's main thread being busy throughout.

Gradio names the chunk with a hash of its build; where its build has no single such chunk (another
Gradio version), the script is empty and the page loads Plotly as Gradio does.
"""
from __future__ import annotations

import json
from pathlib import Path

import gradio

CHUNK_PATTERN = "PlotlyPlot-*.js"
LOAD_FUNCTION = "playgroundLoadPlotly"          # runs the chunk's code: called by the opening (links.py)
ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"


def plotly_chunk(assets: Path = ASSETS) -> str | None:
    """The name of Gradio's Plotly chunk in `assets`, or None when there is not exactly one."""
    found = sorted(path.name for path in assets.glob(CHUNK_PATTERN))
    return found[0] if len(found) == 1 else None


def early_plotly_script(chunk: str | None) -> str:
    """A script that, once the <base> is parsed (it sets where Gradio's own scripts come from), preloads
    `chunk` from the page's assets and defines window.LOAD_FUNCTION, which runs it; empty when there is
    no chunk."""
    if chunk is None:
        return ""
    address = json.dumps(f"assets/{chunk}")
    return f"""
document.addEventListener('DOMContentLoaded', () => {{
  const href = new URL({address}, document.baseURI).href;
  const preload = Object.assign(document.createElement('link'), {{ rel: 'modulepreload', href }});
  document.head.appendChild(preload);
  window.{LOAD_FUNCTION} = () => import(href).catch(() => {{}});
}}, {{ once: true }});
"""


EARLY_PLOTLY_SCRIPT = early_plotly_script(plotly_chunk())
