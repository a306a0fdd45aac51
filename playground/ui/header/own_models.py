"""A session's own models: a checkpoint uploaded as one .safetensors file joins the session's
models (for this session only), and the session works with it from then on."""
from __future__ import annotations

import re
from pathlib import Path

import gradio as gr

from playground.checkpoint import CheckpointError, CheckpointTooLarge, from_bytes
from playground.zoo import ModelEntry, freeze

from ..page.context import PRIVATE, AppContext, uploading
from ..page.runtime import guarded
from ..page.drawing import ask_redraw_js
from ..inputs.validation import MAX_UPLOAD_BYTES, UPLOAD_LIMITS, fail
from ..text.i18n import label, text
from ..text.markup import literal
from ..tabs.lessons.layout import state_secret
from ..session import kept_models
from . import hub_models

OWN_PREFIX = "mine-"
FIELD_LABELS = {"parameters": "upload_field_parameters", "tokenizer_bytes": "upload_field_tokenizer_bytes"}


def own_name(filename: str) -> str:
    """"My Model (2).safetensors" -> "mine-My-Model-2": never the name of a shared model."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(filename).stem).strip("-.") or "model"
    return OWN_PREFIX + stem[:40]


def load_own_model(path: str | Path, lang: str) -> ModelEntry:
    """Read an uploaded checkpoint file, checking its size and contents (never unpickling); a model
    beyond UPLOAD_LIMITS is refused from its config, before any weight is allocated."""
    path = Path(path)
    if path.suffix.lower() != ".safetensors":
        raise fail(lang, "err_upload_type", name=path.name)
    size = path.stat().st_size
    if size > MAX_UPLOAD_BYTES:
        raise fail(lang, "err_upload_size", size=size // 2**20, limit=MAX_UPLOAD_BYTES // 2**20)
    try:
        model, tokenizer, config, card = from_bytes(path.read_bytes(), UPLOAD_LIMITS)
    except CheckpointTooLarge as error:
        field = text(lang, FIELD_LABELS[error.field]) if error.field in FIELD_LABELS else error.field
        raise fail(lang, "err_upload_too_large", field=field, value=f"{error.value:,}", limit=f"{error.limit:,}") from None
    except CheckpointError as error:
        if error.reason is not None:                      # a common case, said in the page's language
            raise fail(lang, f"err_upload_{error.reason}", **error.details) from None
        raise fail(lang, "err_upload_checkpoint", error=str(error)) from None
    return ModelEntry(own_name(path.name), freeze(model), tokenizer, config, card, "session")


def build(ctx: AppContext) -> tuple[gr.File, gr.Markdown, tuple]:
    """The upload panel and the Hub row (declared above the tabs), and their parts for `wire`."""
    with gr.Accordion(label("lbl_own_model"), open=False, elem_id="own-model-panel"):
        gr.Markdown(label("own_model_explanation"))
        upload = gr.File(file_types=[".safetensors"], file_count="single", type="filepath",
                         label=label("lbl_upload"), elem_id="model-upload")
        status = gr.Markdown(elem_id="model-upload-status")
        ctx.header_notes[status.elem_id] = status
        hub = hub_models.build(ctx)
    ctx.kept_model = gr.BrowserState({}, storage_key=kept_models.STORAGE_KEY, secret=state_secret())
    return upload, status, hub


def wire(ctx: AppContext, upload: gr.File, status: gr.Markdown, hub: tuple) -> None:
    """Loading a file adds the model to this session: the session works with it from now on, and the
    tab on screen is drawn for it (the others when next shown; see page.showing). The same for the Hub row."""

    @guarded
    def on_upload(path, lang, request: gr.Request):
        if not path:
            return gr.skip()
        workspace = ctx.workspace(request)
        entry = load_own_model(path, lang)
        workspace.add_model(entry)
        name, arch, params = literal(entry.name), entry.config.arch, f"{entry.n_parameters:,}"   # not the model
        return ctx.say_in_header(workspace, status, lambda lang: text(
            lang, "upload_done", name=name, arch=text(lang, f"arch_{arch}"), params=params), lang)

    loaded = upload.upload(on_upload, [upload, ctx.language], [status], api_name="upload_model",
                           **uploading(status))
    loaded.success(None, js=ask_redraw_js(marked=False), **PRIVATE)  # the tab on screen drawn for it
    loaded.failure(None, None, [upload], js="() => null", **PRIVATE)     # refused: the box takes another file
    ctx.kept.append((ctx.kept_model, kept_models.restore, None))         # read after the tabs' own records
    hub_models.wire(ctx, *hub)
