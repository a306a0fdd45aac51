"""No Plotly draw for a figure element Gradio is throwing away.

Gradio's Plot component draws every new figure twice: Plotly.react first redraws the element that
shows the old figure (its effect sees the new value), then Gradio's keyed block replaces that element
with a new one and draws the figure again there. The first draw is lost work, a whole redraw of the
figure (a live training's curves, 12 axes, and its per-layer gradients come every 0.5 s, each drawn
twice; a one-plot Gradio app does the same).

SKIP_DISCARDED_DRAWS_SCRIPT (written first in the page's <head> by server/first_script.py) wraps
Plotly.react as Plotly's chunk sets `window.Plotly`: a redraw of an element that already shows a
figure waits for the script under way to end (Gradio's update, which replaces the element), and is
skipped only when by then the element has left the page and another figure element stands in its
place. A first draw is drawn at once; any other redraw as soon as that script ends. The count of
draws skipped is kept in `window.playgroundDiscardedDraws`. Where the chunk does not set
`window.Plotly` (another Gradio build), nothing is wrapped.
"""
from __future__ import annotations

COUNTER = "playgroundDiscardedDraws"

SKIP_DISCARDED_DRAWS_SCRIPT = """
(() => {
  window.%(counter)s = 0;
  const replaced = (gd, parent) => {
    if (gd.isConnected || !parent || !parent.isConnected) return false;
    const standIn = parent.querySelector('[data-testid="plotly"]');
    return standIn !== null && standIn !== gd;
  };
  const wrapped = (plotly) => {
    const react = plotly.react;
    plotly.react = function (gd, ...figure) {
      if (!gd || typeof gd !== 'object' || !gd._fullLayout || !gd.isConnected) return react.call(plotly, gd, ...figure);
      const parent = gd.parentNode;
      return new Promise((resolve, reject) => queueMicrotask(() => {
        if (replaced(gd, parent)) {
          window.%(counter)s += 1;
          resolve(gd);
        } else {
          Promise.resolve(react.call(plotly, gd, ...figure)).then(resolve, reject);
        }
      }));
    };
    plotly.playgroundSkipsDiscardedDraws = true;
    return plotly;
  };
  let plotly;
  Object.defineProperty(window, 'Plotly', {
    configurable: true,
    get: () => plotly,
    set: (value) => {
      const fresh = value && typeof value.react === 'function' && !value.playgroundSkipsDiscardedDraws;
      plotly = fresh ? wrapped(value) : value;
    },
  });
})();
""" % {"counter": COUNTER}
