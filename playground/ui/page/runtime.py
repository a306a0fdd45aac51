"""How handlers run: torch threads sized for a small CPU host, inference mode, and errors that the
page can show.

`guarded` wraps every Gradio-facing function: a bad input (ValueError and friends) becomes a
`gr.Error` carrying its message; anything unexpected is logged and becomes a short `gr.Error`
in the session's language, so a failing event never leaves the page waiting and the session
stays usable. `guarded_training` does the same for handlers that train: autograd on, and
$PLAYGROUND_TRAINING_THREADS intra-op threads.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import threading

import gradio as gr
import torch

from playground import viz
from playground.model import count_parameters, gpt2_small_config

from ..inputs.validation import fail
from ..session.threads import torch_threads, training_threads
from ..session.workspace import SessionsFull
from ..text.i18n import normalise_language, text
from ..text.markup import literal

log = logging.getLogger(__name__)


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
    _prepare_thread(torch_threads())
    count_parameters(gpt2_small_config())
    viz.parameter_treemap({"warm-up": 1})


_warm_up_started = threading.Event()


def start_warm_up() -> None:
    """Run warm_up in the background, once per process (called when the first page loads, so
    starting the server is not slowed down)."""
    if not _warm_up_started.is_set():
        _warm_up_started.set()
        threading.Thread(target=warm_up, name="playground-warm-up", daemon=True).start()


def _prepare_thread(threads: int) -> None:
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def _language(signature: inspect.Signature, args, kwargs) -> str:
    try:
        return normalise_language(signature.bind_partial(*args, **kwargs).arguments.get("lang"))
    except TypeError:
        return "en"


def as_gradio_error(error: Exception, lang: str) -> gr.Error:
    """What the page shows for `error`: its message for a bad input, else that the app failed (logged)."""
    if isinstance(error, gr.Error):
        return error
    if isinstance(error, SessionsFull):                # a newcomer on a full server, told so
        return fail(lang, "err_server_full", n=error.sessions)
    if isinstance(error, (ValueError, TypeError, KeyError, ArithmeticError)):     # bad input, or a diverged model
        return gr.Error(literal(str(error).strip("'\"")), title=text(lang, "err_title"), print_exception=False)
    log.error("handler failed", exc_info=error)
    return fail(lang, "err_internal", kind=type(error).__name__)


def _guard(fn, mode, threads):
    """`fn` (a function or a generator) run under the torch `mode` context with `threads()` intra-op
    threads, its exceptions turned into gr.Error; a closed generator closes `fn`'s generator too."""
    signature = inspect.signature(fn)

    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generator_wrapper(*args, **kwargs):
            steps = fn(*args, **kwargs)
            try:
                while True:                   # Gradio may resume a generator on another thread
                    _prepare_thread(threads())
                    try:
                        with mode():
                            value = next(steps)
                    except StopIteration:
                        return
                    except Exception as error:
                        raise as_gradio_error(error, _language(signature, args, kwargs)) from error
                    yield value
            finally:
                steps.close()
        return generator_wrapper

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _prepare_thread(threads())
        try:
            with mode():
                return fn(*args, **kwargs)
        except Exception as error:
            raise as_gradio_error(error, _language(signature, args, kwargs)) from error
    return wrapper


def guarded(fn):
    """Run `fn` (a function or a generator) with torch set up and without autograd; turn its
    exceptions into gr.Error."""
    return _guard(fn, torch.inference_mode, torch_threads)


@contextlib.contextmanager
def _autograd():
    """Out of inference mode, gradients on: tensors made here can be trained."""
    with torch.inference_mode(False), torch.enable_grad():
        yield


def guarded_training(fn):
    """Like `guarded`, for handlers that build or train models: autograd on (models made here can
    be trained) and the training thread count."""
    return _guard(fn, _autograd, training_threads)
