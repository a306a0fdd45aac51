"""While a tab is drawn from the session (picked, or asked by a header event: the page opening, the
language changed, a model added), the tabs' panels are marked busy with `aria-busy`, so a screen
reader waits, and the pointer shows the page busy; a draw slow enough to notice (over FADE_DELAY_MS)
also fades the panel. The panels stay usable: a click or an edit made during the draw is applied,
after the draw, in the learner's order (tab_order.py), so nothing the learner does is dropped.

A draw event's `js` marks the panels (marking) and a browser-only step chained after it (drawn_js)
unmarks them. A header event marks them too and hands its mark to the draw it asks for
(ask_redraw_js): the panels stay busy from the header event until the tab is drawn. Draws may
overlap, so the page counts them; a draw whose end never reaches the page (a lost connection)
unmarks them after LIMIT_MS.

A draw asked for and not ended after RETRY_MS (an event lost on the way, a page left half-drawn) is
asked for again, at most RETRIES times; after that the page says it could not be drawn and to
reload it (watch_js, run by the page's script). The page's opening is watched the same way: its
hidden reopen button runs the opening again.

Gradio's tab sends its `select` event whenever it becomes the selected tab: a learner's pick, but also
the first tab as the page mounts and the link's tab as the opening's answer selects it, drawn already.
A pick asks for the tab's draw in the browser (pick_js) once the page has opened; the opening records
the select its answer causes (`draws.echo`), which asks for nothing.
"""
from __future__ import annotations

BUSY = "aria-busy"
LIMIT_MS = 30_000
FADE_DELAY_MS = 400
RETRY_MS = 15_000             # a draw or the opening not ended by then is asked for again (a page may set
                              # window.playgroundRetryMs before it opens: the browser tests wait less)
RETRIES = 2
WATCH_EVERY_MS = 1_000
PANELS = "#tabs > .tabitem"
REOPEN_ID = "page-reopen"     # the hidden button that runs the page's opening again
STUCK_ID = "page-stuck"       # what the page says once it has given up
STUCK_CLASS = "page-stuck"    # on <body> once it has

SET_JS = f"""
const draws = window.playgroundDraws || (window.playgroundDraws = {{count: 0, handover: 0, timer: null,
                                                                   asked: {{}}, retries: {{}}, opened: false,
                                                                   opening: null, openingDrawn: null, picked: null,
                                                                   echo: null}});
const show = () => {{
  for (const panel of document.querySelectorAll('{PANELS}')) {{
    if (draws.count > 0) panel.setAttribute('{BUSY}', 'true'); else panel.removeAttribute('{BUSY}');
  }}
}};
const selectedView = () => {{          // the view of the tab selected now ('' when none is)
  const tab = document.querySelector('#tabs [role=tab][aria-selected=true]');
  return tab ? (tab.id || '').replace(/^tab-|-button$/g, '') : '';
}};
const unmark = () => {{
  draws.count = Math.max(0, draws.count - 1);
  if (draws.count === 0) clearTimeout(draws.timer);
  show();
}};
"""

def drawn_js(view: str) -> str:
    """The browser step after the tab `view`'s draw: it has ended (unmark the panels)."""
    return f"""
() => {{
  {SET_JS}
  delete draws.asked['{view}'];
  draws.retries['{view}'] = 0;
  if (draws.openingDrawn === '{view}' && !draws.opened) {{      // the page's opening has been answered
    draws.opened = true;
    const picked = draws.picked;
    draws.picked = null;
    if (picked && picked.id !== 'tab-{view}-button') picked.click();     // a tab the learner picked meanwhile:
                                                                           // the answer selected the link's tab
  }}
  document.body.classList.remove('{STUCK_CLASS}');
  unmark();
}}
"""


def pick_js() -> str:
    """A tab's `select`, in the browser: the tab now selected, once the page has opened, asks for its
    draw (a click of its redraw button); before it (the page mounting its first tab, a pick while the
    opening is on its way: the opening draws, then picks it again) and at the select the opening's
    answer causes, nothing."""
    return f"""
() => {{
  {SET_JS}
  const view = selectedView();
  if (!view) return;
  if (draws.echo === view) {{ draws.echo = null; return; }}
  if (draws.opened) document.getElementById(`${{view}}-redraw`)?.click();
}}
"""


# The cue from the draw's first moment: the pointer over the panels shows the page is busy.
CSS = f"""
{PANELS}[{BUSY}=true] {{ opacity: 0.55; transition: opacity 0.2s linear {FADE_DELAY_MS}ms; }}
#tabs:has(> .tabitem[{BUSY}=true]) {{ cursor: progress; }}
#{STUCK_ID} {{ display: none; }}
body.{STUCK_CLASS} #{STUCK_ID} {{ display: block; }}
"""


def marking(js: str | None = None, view: str | None = None) -> str:
    """An event's `js` that marks the panels busy (taking over the mark a header event handed on, when it
    did), then runs `js` (a JS function of the event's inputs; none: the inputs are passed on as they
    are). `view`: the event draws that tab (the page watches that it ends)."""
    then = f"({js})(...inputs)" if js else "inputs.length === 1 ? inputs[0] : inputs"
    asked = f"draws.asked['{view}'] = performance.now();" if view else ""
    return f"""
async (...inputs) => {{
  {SET_JS}
  if (draws.handover > 0) draws.handover -= 1; else draws.count += 1;
  {asked}
  clearTimeout(draws.timer);
  draws.timer = setTimeout(() => {{ draws.count = 0; draws.handover = 0; show(); }}, {LIMIT_MS});
  show();
  return {then};
}}
"""


def ask_redraw_js(marked: bool = True) -> str:
    """A header event's last browser step: click the redraw button of the tab its input names (a view;
    none or empty: the tab on screen), handing it the header event's busy mark (`marked`: the header
    event marked the panels busy itself)."""
    hand_over = "draws.handover += 1;" if marked else ""
    unmark = "unmark();" if marked else ""
    return f"""
async (view) => {{
  {SET_JS}
  draws.opened = true;
  document.body.classList.remove('{STUCK_CLASS}');
  const shown = (typeof view === 'string' && view) || selectedView();
  const button = shown && document.getElementById(`${{shown}}-redraw`);
  if (button) {{
    {hand_over}
    button.click();
  }} else {{
    {unmark}
  }}
}}
"""


def watch_js() -> str:
    """Page js (see page_script.py): every WATCH_EVERY_MS, ask again for a draw (or the opening) not
    ended after RETRY_MS, at most RETRIES times each; then say that the page could not be drawn."""
    return f"""
() => {{
  const started = performance.now();
  const retryMs = window.playgroundRetryMs || {RETRY_MS};
  let reopened = 0;
  const stuck = () => document.body.classList.add('{STUCK_CLASS}');
  setInterval(() => {{
    {SET_JS}
    const now = performance.now();
    if (!draws.opened && now - started > retryMs * (reopened + 1)) {{
      const reopen = document.getElementById('{REOPEN_ID}');
      if (reopened < {RETRIES} && reopen) {{
        reopened += 1;
        draws.echo = null;             // the lost opening's answer, and the select it was to cause, never came
        unmark();                      // its mark: the opening asked for now marks the panels again
        reopen.click();
      }} else stuck();
    }}
    for (const [view, since] of Object.entries(draws.opened ? draws.asked : {{}})) {{   // before: the opening's watch
      if (now - since < retryMs) continue;
      const tries = draws.retries[view] || 0;
      const redraw = document.getElementById(`${{view}}-redraw`);
      if (tries >= {RETRIES} || !redraw) {{ delete draws.asked[view]; unmark(); stuck(); continue; }}
      draws.retries[view] = tries + 1;
      delete draws.asked[view];
      unmark();                      // the lost draw's mark: the one asked for now marks the panels again
      redraw.click();
    }}
  }}, {WATCH_EVERY_MS});
}}
"""
