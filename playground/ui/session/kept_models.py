"""The session's trained model, kept in the browser so that it survives a server restart (a Space
restarts on every sleep, rebuild and update, and a session's models live only in its memory).

After every training event the browser is sent the session's latest trained model (the Train tab's or
a lesson's run) as its .safetensors file, base64, under the app's fixed secret, when it is at most
MAX_KEPT_BYTES (a small model; a browser keeps about 5 MB a site); a larger one is recorded by name and
size only. When the page opens, a model the browser kept that the session lacks joins the session's
models again, with the held-out loss and examples its training recorded in the file (kept_entry); a
refused or larger one is named, with why, when a tab asks for it (unknown_model).

    record(workspace)          -> what the browser is to keep now (gr.skip() when it has it already)
    restore(workspace, value)  -> (False, whether it added a model): a ctx.kept reader
    unknown_model(workspace, name, lang) -> the gr.Error of a tab asked for a model the session lacks
"""
from __future__ import annotations

import base64
import binascii
import threading
import weakref

import gradio as gr

from playground.checkpoint import CheckpointError, from_bytes, metadata_from_bytes
from playground.zoo import ModelEntry, freeze, held_out_loss, recorded_examples

from ..inputs.validation import UPLOAD_LIMITS, fail
from ..text.markup import literal
from .training import LESSON_PREFIX, TRAINED_PREFIX
from .workspace import Workspace

STORAGE_KEY = "playground-trained-model"
MAX_KEPT_BYTES = 3_000_000     # a checkpoint's bytes the browser keeps (4 MB as base64); the copy presets take 0.5 MB
_sent: "weakref.WeakKeyDictionary[Workspace, tuple]" = weakref.WeakKeyDictionary()   # what each browser was sent
_lost: "weakref.WeakKeyDictionary[Workspace, dict]" = weakref.WeakKeyDictionary()    # kept names that did not come back
_lock = threading.Lock()


def record(workspace: Workspace):
    """The session's latest trained model as the browser keeps it: {"name", "checkpoint"} (base64), or
    {"name", "bytes"} when it is larger than MAX_KEPT_BYTES; gr.skip() when there is none or the browser
    has it already."""
    session = workspace.training
    entry, path = getattr(session, "entry", None), getattr(session, "download", None)
    if entry is None or path is None or not path.is_file():
        return gr.skip()
    stamp = (entry.name, id(entry))
    with _lock:
        if _sent.get(workspace) == stamp:
            return gr.skip()
        _sent[workspace] = stamp
    payload = path.read_bytes()
    if len(payload) > MAX_KEPT_BYTES:
        return {"name": entry.name, "bytes": len(payload)}
    return {"name": entry.name, "checkpoint": base64.b64encode(payload).decode("ascii")}


def restore(workspace: Workspace, value) -> tuple[bool, bool]:
    """The model the browser kept joins the session's models when the session lacks it (a server that
    restarted); one that cannot come back is remembered with why. (False: it holds no tab's place;
    whether it added a model.)"""
    kept = value if isinstance(value, dict) else {}
    name = kept.get("name")
    if not isinstance(name, str) or not name.startswith((TRAINED_PREFIX, LESSON_PREFIX)) or workspace.model(name):
        return False, False
    if "checkpoint" not in kept:
        _lost[workspace] = {"name": name, "reason": "large", "bytes": int(kept.get("bytes") or 0)}
        return False, False
    try:
        entry = kept_entry(name, base64.b64decode(str(kept["checkpoint"]), validate=True))
    except (binascii.Error, ValueError, CheckpointError):
        _lost[workspace] = {"name": name, "reason": "unreadable"}
        return False, False
    with workspace.lock:
        if workspace.model(name) is None:
            workspace.add_model(entry)
    with _lock:
        _sent[workspace] = (name, id(workspace.model(name)))
    return False, True


def kept_entry(name: str, checkpoint: bytes) -> ModelEntry:
    """The kept model `name` from its checkpoint's bytes (checked within the upload limits), with the
    held-out loss and the examples its training in this app recorded in them (unlike an upload's,
    whose file may come from anywhere: the browser keeps this one encrypted under the app's state
    secret, and what it holds is shown to that browser's session alone)."""
    model, tokenizer, config, card = from_bytes(checkpoint, UPLOAD_LIMITS)
    recorded = metadata_from_bytes(checkpoint)
    return ModelEntry(name, freeze(model), tokenizer, config, card, "session",
                      held_out_loss=held_out_loss(recorded), examples=recorded_examples(recorded))


def unknown_model(workspace: Workspace, name: str, lang: str, generative_only: bool = False) -> gr.Error:
    """Why the session has no model `name`, in `lang`, with the models it has: a model trained in the
    session that the server no longer has says so (a restart, or the session forgotten while idle), and
    what brings it back."""
    choices = ", ".join(workspace.model_names(workspace.registry, generative_only))
    lost = _lost.get(workspace)
    if lost is not None and lost["name"] == name:
        key = "err_kept_model_large" if lost["reason"] == "large" else "err_kept_model_unreadable"
        return fail(lang, key, name=literal(name), size=lost.get("bytes", 0) / 1e6, limit=MAX_KEPT_BYTES / 1e6,
                    choices=choices)
    if isinstance(name, str) and name.startswith((TRAINED_PREFIX, LESSON_PREFIX)):
        return fail(lang, "err_trained_model_gone", name=literal(name), choices=choices)
    return fail(lang, "err_unknown_model", name=name, choices=choices)
