"""Gradio's per-session work, cached in the app where it cannot change: the same session state,
with signatures and class files read once, and a missing bokeh or matplotlib looked for once."""
import functools
import gc
import importlib.util
import inspect
import json
import os
import sys
import weakref

import gradio.blocks
import pytest
from gradio.state_holder import SessionState

from playground.ui import create_app
from playground.ui.server import session_costs


def test_a_new_sessions_state_is_the_same_with_the_cache(pretrained_dir, monkeypatch):
    demo = create_app(pretrained_dir)
    assert isinstance(gradio.blocks.inspect, session_costs._CachingInspect)   # installed by the app
    cached = SessionState(demo).config_values
    monkeypatch.setattr(gradio.blocks, "inspect", inspect)
    plain = SessionState(demo).config_values
    assert len(cached) > 400
    assert json.dumps(cached, sort_keys=True, default=repr) == json.dumps(plain, sort_keys=True, default=repr)


def test_a_functions_signature_is_read_once_and_anything_else_as_before():
    def handler(a, b=2, *, c):
        return a

    first = session_costs.cached_signature(handler)
    assert first == inspect.signature(handler) and session_costs.cached_signature(handler) is first

    class Unhashable:
        __hash__ = None

        def __call__(self, x, y):
            return x

    assert list(session_costs.cached_signature(Unhashable()).parameters) == ["x", "y"]
    assert list(session_costs.cached_signature(functools.partial(handler, 1), follow_wrapped=False)
                .parameters) == ["b", "c"]
    assert session_costs._CachingInspect("inspect").isfunction(handler)   # the rest of inspect


def test_the_cache_keeps_no_function_alive():
    def gone(x):
        return x

    session_costs.cached_signature(gone)
    alive = weakref.ref(gone)
    del gone
    gc.collect()
    assert alive() is None


def test_a_class_file_is_read_once_and_a_builtin_class_still_refused():
    class Local:
        pass

    assert session_costs.cached_getfile(Local) == inspect.getfile(Local) == __file__
    assert session_costs._known[Local]["file"] == __file__
    with pytest.raises(TypeError):
        session_costs.cached_getfile(int)
    with pytest.raises(TypeError):
        session_costs.cached_getfile(int)


@pytest.mark.parametrize("library", session_costs.ABSENT_LIBRARIES_LOOKED_FOR)
def test_a_missing_library_is_looked_for_once(library, monkeypatch):
    if importlib.util.find_spec(library) is not None:
        pytest.skip(f"{library} is installed here: the app leaves its import alone")
    monkeypatch.delitem(sys.modules, library, raising=False)
    session_costs.install()
    assert sys.modules[library] is None
    with pytest.raises(ImportError):
        importlib.import_module(library)


def test_a_component_built_in_an_event_reads_its_argument_names_once(pretrained_dir, monkeypatch):
    """Gradio rebuilds a component for every property update an event sends, and each __init__ of its
    classes read its argument names anew (inspect.getfullargspec): about half of that rebuild."""
    import gradio as gr
    import gradio.component_meta

    create_app(pretrained_dir)
    assert isinstance(gradio.component_meta.inspect, session_costs._CachingInspect)   # installed by the app
    init = gr.Slider.__init__.__wrapped__
    first = session_costs.cached_getfullargspec(init)
    assert first.args == tuple(inspect.getfullargspec(init).args) and session_costs.cached_getfullargspec(init) is first
    cached = gr.Slider(0, 9, 3, step=1, label="layer", render=False).constructor_args
    monkeypatch.setattr(gradio.component_meta, "inspect", inspect)
    assert gr.Slider(0, 9, 3, step=1, label="layer", render=False).constructor_args == cached


def test_gradios_upload_folder_is_resolved_once_and_is_the_same_folder(monkeypatch):
    """Every block built asks for the folder; without $GRADIO_TEMP_DIR Gradio resolves it on disk each time."""
    import gradio.utils

    monkeypatch.delenv(session_costs.UPLOAD_FOLDER_ENV, raising=False)
    resolved_each_time = gradio.utils.get_upload_folder()
    session_costs.install()
    assert os.environ[session_costs.UPLOAD_FOLDER_ENV] == resolved_each_time == gradio.utils.get_upload_folder()
