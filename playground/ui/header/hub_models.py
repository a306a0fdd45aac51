"""Load from the Hugging Face Hub: a GPT-2-, Llama- or Qwen2-family repository imported into the
playground's own model, loaded once and shared read-only by every session that asks for it.

At most MAX_HUB_MODELS such models are in memory at once, each at most MAX_HUB_PARAMETERS
parameters. A session that loads one keeps a reference among its own models; a model stays in
memory while the cache or some session holds it, and a new repository is refused (naming the
models in use) while MAX_HUB_MODELS others are still held.
"""
from __future__ import annotations

import gc
import re
import threading
import weakref
from collections import OrderedDict
from typing import Callable

import gradio as gr

from playground.hub import HubImportError, ImportedModel, load_model
from playground.zoo import ModelEntry, freeze

from ..page.context import PRIVATE, AppContext, heavy
from ..page.refusals import KeptRefusals
from ..page.runtime import guarded
from ..page.drawing import ask_redraw_js
from ..inputs.validation import fail
from ..text.i18n import label, text
from ..text.markup import literal

HUB_PREFIX = "hub-"
DEFAULT_REPOSITORY = "gpt2"
MAX_HUB_MODELS = 2
MAX_HUB_PARAMETERS = 500_000_000     # Qwen2.5-0.5B (494 M, 2 GB in float32) fits; gpt2-large (774 M) is refused
STATUS_HEIGHT = 44                   # px: room for the progress of a load (downloads take a while) under it
MAX_REPOSITORY_CHARS = 96            # owner (<= 39) / name (<= 96) on the Hub; longer is a typo


def hub_name(repository: str) -> str:
    """"openai-community/gpt2" -> "hub-openai-community-gpt2": never the name of a shipped or uploaded model."""
    return HUB_PREFIX + re.sub(r"[^A-Za-z0-9_.-]+", "-", repository).strip("-.")


def hub_download(repository: str, max_parameters: int) -> ImportedModel:
    """A model from the Hub (or the Hub's local cache), never from a folder of the server."""
    return load_model(repository, max_parameters, allow_folder=False)


class HubModels:
    """Hub models shared by every session: one load per repository, at most `capacity` in memory.

    loader(repository, max_parameters) -> ImportedModel; the default, hub_download, reads the Hub.
    """

    def __init__(self, loader: Callable[..., ImportedModel] | None = None, capacity: int = MAX_HUB_MODELS,
                 max_parameters: int = MAX_HUB_PARAMETERS):
        self.loader, self.capacity, self.max_parameters = loader or hub_download, capacity, max_parameters
        self._kept: OrderedDict[str, ModelEntry] = OrderedDict()           # the cache's own references
        self._alive: weakref.WeakValueDictionary[str, ModelEntry] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def in_memory(self) -> list[str]:
        """Repositories whose model is in memory (kept here or held by a session)."""
        return sorted(self._alive.keys())

    def get(self, repository: str, lang: str) -> ModelEntry:
        """The shared model of `repository`, imported on first use; a gr.Error says why it cannot be."""
        with self._lock:
            entry = self._alive.get(repository)
            if entry is None:
                self._make_room()
                entry = self._import(repository, lang)
                self._alive[repository] = entry
            self._kept.pop(repository, None)
            self._kept[repository] = entry
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)
            return entry

    def _make_room(self) -> None:
        while len(self._kept) >= self.capacity:
            self._kept.popitem(last=False)
        if len(self._alive) >= self.capacity:      # only then can it matter: a full collection costs a whole heap's walk
            gc.collect()                                                      # sessions that let go are gone now

    def _import(self, repository: str, lang: str) -> ModelEntry:
        if len(self._alive) >= self.capacity:
            raise fail(lang, "err_hub_busy", limit=self.capacity, models=", ".join(self.in_memory()))
        try:
            imported = self.loader(repository, max_parameters=self.max_parameters)
        except HubImportError as error:
            if error.reason is not None:                  # a common case, said in the page's language
                raise fail(lang, f"err_hub_{error.reason}", repository=repository, **error.details) from None
            raise fail(lang, "err_hub_import", repository=repository, error=str(error)) from None
        return ModelEntry(hub_name(repository), freeze(imported.model), imported.tokenizer, imported.config,
                          imported.card, "hub")


def check_repository(value, lang: str) -> str:
    """A Hub repository name ("gpt2", "owner/name"); folders on the server are not offered to visitors."""
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > MAX_REPOSITORY_CHARS or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?", name):
        raise fail(lang, "err_hub_name", name=str(value)[:MAX_REPOSITORY_CHARS])
    return name


def build(ctx: AppContext, hub: HubModels | None = None) -> tuple:
    """The "Load from the Hugging Face Hub" row (inside the own-model panel); its parts for `wire`."""
    hub = hub or HubModels()
    gr.Markdown(label("hub_explanation"))
    with gr.Row():
        repository = gr.Textbox(DEFAULT_REPOSITORY, label=label("lbl_hub_repository"), max_lines=1, scale=3,
                                elem_id="hub-repository")
        load = gr.Button(label("btn_hub_load"), scale=1, elem_id="hub-load")
    status = gr.Markdown(elem_id="hub-status", min_height=STATUS_HEIGHT)
    ctx.header_notes[status.elem_id] = status
    return hub, repository, load, status


def wire(ctx: AppContext, hub: HubModels, repository: gr.Textbox, load: gr.Button, status: gr.Markdown) -> None:
    """Loading adds the shared model to this session's models: the session works with it from now on,
    and the tab on screen is drawn for it (the others when next shown; see page.showing)."""

    refusals = KeptRefusals()

    @guarded
    def on_load(value, lang, request: gr.Request):
        workspace = ctx.workspace(request)
        with refusals.keeping(workspace):
            entry = hub.get(check_repository(value, lang), lang)
        workspace.add_model(entry)
        said = dict(name=literal(entry.name), layers=entry.config.n_decoder_layers, heads=entry.config.n_heads,
                    params=f"{entry.n_parameters:,}")               # not the model: the session may let it go
        return ctx.say_in_header(workspace, status, lambda lang: text(lang, "hub_done", **said), lang)

    @guarded
    def on_refused(lang, request: gr.Request):
        """Why the load failed, in the status line, where it stays once the error's toast has gone."""
        workspace = ctx.workspace(request)
        reason = refusals.taken(workspace)
        return ctx.say_in_header(workspace, status, lambda lang: text(lang, "hub_failed", reason=reason(lang)), lang)

    loading = load.click(on_load, [repository, ctx.language], [status], api_name="load_hub_model",
                         **heavy(status))
    loading.success(None, js=ask_redraw_js(marked=False), **PRIVATE)  # the tab on screen drawn for it
    loading.failure(on_refused, [ctx.language], [status], show_progress="hidden", **PRIVATE)
