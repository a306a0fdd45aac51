"""Gradio's cost of serving a page and an event, made smaller without changing what it computes.

Every page load makes Gradio ask each of the app's ~500 blocks for its config, and every event that
updates a component's properties builds that component anew, on the server's event loop. Parts of
that work repeat what cannot have changed, and one part repeats on every event:

- each block reads its class's __init__ signature (inspect.signature) and its class's source file
  (inspect.getfile), rebuilt every time; gradio.blocks reads both through caches here, keyed
  weakly by the function or class (anything else is read as before);
- every component an event builds (Gradio rebuilds one for each property update an event sends, and
  a handler builds its updates as components) reads each of its classes' __init__ argument names
  (inspect.getfullargspec) anew; gradio.component_meta reads them through the same cache;
- every block built (the rebuilds above too) asks for Gradio's upload folder, the system's temporary
  folder resolved on disk each time (a realpath: system calls per path part) unless $GRADIO_TEMP_DIR
  names it; the process sets $GRADIO_TEMP_DIR to that same folder, resolved once;
- each plot tries `import bokeh`, and each event `import matplotlib` (twice), and a failed import
  searches the whole path again every time; where a library is not installed, the process records
  that once, so its import fails at once.

Why it is kept: measured when it was made (~500 blocks on one page), a new session cost Gradio
50-90 ms of the event loop without it and 18 ms with it (not measured again since the page was split
by tab); the caches hold only what cannot change while the app runs. The argument names: an
attention view or a generation step builds about 20 components (13 of them Gradio's rebuilds), and
reading their argument names was ~60% of building them (cProfile, thread CPU time, 60 calls).

(A session's own state is made lean by playground.ui.server.session_state.)
"""
from __future__ import annotations

import importlib.util
import inspect
import os
import sys
import tempfile
import threading
import types
import weakref
from pathlib import Path

import gradio.blocks
import gradio.component_meta

UPLOAD_FOLDER_ENV = "GRADIO_TEMP_DIR"                   # where Gradio keeps files; its own default as below
ABSENT_LIBRARIES_LOOKED_FOR = ("bokeh", "matplotlib")   # tried by Gradio's plots and by every event
_known: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # (function or class) -> what was read
_lock = threading.Lock()


def _remembered(kind: str, key, read):
    with _lock:
        found = _known.get(key, {}).get(kind)
    if found is None:
        found = read()
        with _lock:
            _known.setdefault(key, {})[kind] = found
    return found


def cached_signature(obj, *args, **kwargs) -> inspect.Signature:
    """inspect.signature(obj, ...), remembered for a plain function asked without options."""
    if args or kwargs or not isinstance(obj, types.FunctionType):
        return inspect.signature(obj, *args, **kwargs)
    return _remembered("signature", obj, lambda: inspect.signature(obj))


def cached_getfile(obj) -> str:
    """inspect.getfile(obj), remembered for a class (an error is raised each time, as before)."""
    if not isinstance(obj, type):
        return inspect.getfile(obj)
    return _remembered("file", obj, lambda: inspect.getfile(obj))


def cached_getfullargspec(obj) -> inspect.FullArgSpec:
    """inspect.getfullargspec(obj), remembered for a plain function (its argument names as a tuple)."""
    if not isinstance(obj, types.FunctionType):
        return inspect.getfullargspec(obj)

    def read() -> inspect.FullArgSpec:
        spec = inspect.getfullargspec(obj)
        return spec._replace(args=tuple(spec.args))
    return _remembered("argspec", obj, read)


class _CachingInspect(types.ModuleType):
    """The inspect module as gradio.blocks and gradio.component_meta see it: signature(), getfile() and
    getfullargspec() cached, the rest as is."""

    signature = staticmethod(cached_signature)
    getfile = staticmethod(cached_getfile)
    getfullargspec = staticmethod(cached_getfullargspec)

    def __getattr__(self, name: str):
        return getattr(inspect, name)


def install() -> None:
    """Apply them, once per process."""
    for module in (gradio.blocks, gradio.component_meta):
        if not isinstance(module.inspect, _CachingInspect):
            module.inspect = _CachingInspect("inspect")
    os.environ.setdefault(UPLOAD_FOLDER_ENV, str((Path(tempfile.gettempdir()) / "gradio").resolve()))
    for library in ABSENT_LIBRARIES_LOOKED_FOR:
        if library not in sys.modules and importlib.util.find_spec(library) is None:
            sys.modules[library] = None        # Python's own record of a module that cannot be imported
