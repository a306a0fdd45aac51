"""No Plotly draw for a figure element Gradio is about to throw away.

Gradio's Plot component draws every new figure twice: Plotly.react first redraws the element that
shows the old figure, then Gradio replaces that element with a new one and draws the figure again
there. The first draw is lost work, a whole redraw of the figure (measured in chromium: a live
training's curves, 12 axes, and its per-layer gradients come every 0.5 s, each drawn twice; a
one-plot Gradio app does the same).

SKIP_DISCARDED_DRAWS_SCRIPT (written first in the page's <head> by server/first_script.py) wraps
Plotly.react as Plotly's chunk sets `window.Plotly`: a redraw of an element that already shows a
figure waits for the script under way to end (Gradio's update, which replaces the element) and
happens only if the element is still in the page. A first draw is drawn at once, a redraw of an
element that stays as soon as that script ends. Measured with a live training in chromium: 54
draws of 10 s skipped and the browser's CPU 3.7-3.9 s instead of 4.7-4.8; a tab switch and a
link's opening as fast as before. The count of draws skipped is kept in
`window.playgroundDiscardedDraws`. Where the chunk does not set `window.Plotly` (another Gradio
build), nothing is wrapped.
"""
from __future__ import annotations

COUNTER = "playgroundDiscardedDraws"

SKIP_DISCARDED_DRAWS_SCRIPT = """
(() => {
  window.%(counter)s = 0;
  const wrapped = (plotly) => {
    const react = plotly.react;
    plotly.react = function (gd, ...figure) {
      if (!gd || typeof gd !== 'object' || !gd._fullLayout) return react.call(plotly, gd, ...figure);
      return new Promise((resolve, reject) => queueMicrotask(() => {
        if (!gd.isConnected) {
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
