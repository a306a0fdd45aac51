"""A page that asks for no frames while nothing on it moves.

Gradio's status tracker counts the seconds of a pending event in a requestAnimationFrame loop that
ends when the event does, or never when the tracker leaves the page while pending. Gradio 6's
page-wide loading tracker does, on every page load, so every open page asked for a frame at each
screen refresh for as long as it stayed open: 8% of a core of Chromium per idle page (measured), a
student's laptop battery's and a projector machine's for the whole lesson.

FRAMES_SCRIPT (written first in the page's <head> by server/first_script.py, so it runs before
Gradio's scripts read requestAnimationFrame) lets a status tracker's frame run only while some tracker is shown on the page; once none is, the loop that
asked ends with that frame. A shown tracker's timer counts on as before; every other caller (Plotly,
Gradio's transitions) is untouched.
"""
from __future__ import annotations

# The status tracker's code is Gradio's `statustracker-<hash>.js` chunk: its calls carry the name.
TRACKER_CHUNK = "statustracker"
SHOWN_TRACKER = '[data-testid="status-tracker"]:not(.hide)'

FRAMES_SCRIPT = f"""
(() => {{
  const ask = window.requestAnimationFrame.bind(window);
  const askedByTracker = () => (new Error().stack || '').includes('{TRACKER_CHUNK}');
  const trackerShown = () => document.querySelector('{SHOWN_TRACKER}') !== null;
  window.requestAnimationFrame = (callback) => askedByTracker()
    ? ask((time) => {{ if (trackerShown()) callback(time); }})
    : ask(callback);
}})();
"""
