"""While an event draws the tab on screen (a tab picked, the language changed, the page opening), the
tabs' panels are marked busy: `inert`, so nothing in them can be clicked or typed into, and
`aria-busy`, so a screen reader waits. A click or an edit made during the draw would otherwise run
on the values from before it and then be replaced by the draw arriving after it. The pointer shows
the page busy from the start; a draw slow enough to notice (over FADE_DELAY_MS) also fades the panel.

The event's `js` marks the panels (marking(js)) and a browser-only step chained after it (DRAWN_JS)
unmarks them. Draws may overlap, so the page counts them; a draw whose end never reaches the page
(a lost connection) unmarks them after LIMIT_MS.
"""
from __future__ import annotations

BUSY = "aria-busy"
LIMIT_MS = 30_000
FADE_DELAY_MS = 400
PANELS = "#tabs > .tabitem"

_SET = f"""
const draws = window.playgroundDraws || (window.playgroundDraws = {{count: 0, timer: null}});
const show = () => {{
  for (const panel of document.querySelectorAll('{PANELS}')) {{
    panel.inert = draws.count > 0;
    if (draws.count > 0) panel.setAttribute('{BUSY}', 'true'); else panel.removeAttribute('{BUSY}');
  }}
}};
"""

DRAWN_JS = f"""
() => {{
  {_SET}
  draws.count = Math.max(0, draws.count - 1);
  if (draws.count === 0) clearTimeout(draws.timer);
  show();
}}
"""

# The cue from the draw's first moment: the pointer over the (inert) panels shows the page is busy.
CSS = f"""
{PANELS}[{BUSY}=true] {{ opacity: 0.55; transition: opacity 0.2s linear {FADE_DELAY_MS}ms; }}
#tabs:has(> .tabitem[{BUSY}=true]) {{ cursor: progress; }}
"""


def marking(js: str | None = None) -> str:
    """An event's `js` that marks the panels busy, then runs `js` (a JS function of the event's
    inputs; none: the inputs are passed on as they are)."""
    then = f"({js})(...inputs)" if js else "inputs.length === 1 ? inputs[0] : inputs"
    return f"""
async (...inputs) => {{
  {_SET}
  draws.count += 1;
  clearTimeout(draws.timer);
  draws.timer = setTimeout(() => {{ draws.count = 0; show(); }}, {LIMIT_MS});
  show();
  return {then};
}}
"""
