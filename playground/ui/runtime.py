"""How handlers run: torch threads sized for a small CPU host, inference mode, and errors that the
page can show.

`guarded` wraps every Gradio-facing function: a bad input (ValueError and friends) becomes a
`gr.Error` carrying its message; anything unexpected is logged and becomes a short `gr.Error`
in the session's language, so a failing event never leaves the page waiting and the session
stays usable.
"""
from __future__ import annotations

import functools
import inspect
import logging
import os
import threading

import gradio as gr
import torch

from playground import viz
from playground.model import count_parameters, gpt2_small_config

from .i18n import normalise_language, text

THREADS_ENV_VAR = "PLAYGROUND_TORCH_THREADS"
DEFAULT_TORCH_THREADS = 1   # a 2-vCPU Space serves several requests at once: one thread each

log = logging.getLogger(__name__)


def torch_threads() -> int:
    """Intra-op threads per request: $PLAYGROUND_TORCH_THREADS (an integer >= 1), else 1."""
    value = os.environ.get(THREADS_ENV_VAR, "")
    if not value.strip():
        return DEFAULT_TORCH_THREADS
    if not value.strip().isdigit() or int(value) < 1:
        raise ValueError(f"${THREADS_ENV_VAR} must be a whole number >= 1, got {value!r}")
    return int(value)


def configure_torch() -> None:
    """Set torch's thread pools once at start-up (inter-op to 1: requests already run in parallel)."""
    torch.set_num_threads(torch_threads())
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass                                  # already started (e.g. in tests); the default is kept


def warm_up() -> None:
    """Pay one-time costs before the first click: torch's meta-device machinery (parameter counts
    without allocating weights) and plotly's validators load lazily on first use."""
    _prepare_thread()
    count_parameters(gpt2_small_config())
    viz.parameter_treemap({"warm-up": 1})


_warm_up_started = threading.Event()


def start_warm_up() -> None:
    """Run warm_up in the background, once per process (called when the first page loads, so
    starting the server is not slowed down)."""
    if not _warm_up_started.is_set():
        _warm_up_started.set()
        threading.Thread(target=warm_up, name="playground-warm-up", daemon=True).start()


def _prepare_thread() -> None:
    threads = torch_threads()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def _language(signature: inspect.Signature, args, kwargs) -> str:
    try:
        return normalise_language(signature.bind_partial(*args, **kwargs).arguments.get("lang"))
    except TypeError:
        return "en"


def _as_gradio_error(error: Exception, lang: str) -> gr.Error:
    if isinstance(error, gr.Error):
        return error
    if isinstance(error, (ValueError, TypeError, KeyError, ArithmeticError)):     # bad input, or a diverged model
        return gr.Error(str(error).strip("'\""), print_exception=False)
    log.error("handler failed", exc_info=error)
    return gr.Error(text(lang, "err_internal", kind=type(error).__name__), print_exception=False)


def guarded(fn):
    """Run `fn` (a function or a generator) with torch set up; turn its exceptions into gr.Error."""
    signature = inspect.signature(fn)

    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generator_wrapper(*args, **kwargs):
            steps = fn(*args, **kwargs)
            while True:                       # Gradio may resume a generator on another thread
                _prepare_thread()
                try:
                    with torch.inference_mode():
                        value = next(steps)
                except StopIteration:
                    return
                except Exception as error:
                    raise _as_gradio_error(error, _language(signature, args, kwargs)) from error
                yield value
        return generator_wrapper

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _prepare_thread()
        try:
            with torch.inference_mode():
                return fn(*args, **kwargs)
        except Exception as error:
            raise _as_gradio_error(error, _language(signature, args, kwargs)) from error
    return wrapper
