"""One entry for every family the playground imports: config.json's model_type picks the importer."""
from __future__ import annotations

from pathlib import Path

from .fetch import HubImportError, Repository
from .gpt2 import CONFIG_FILE, ImportedModel, import_gpt2, read_raw_config
from .llama import FAMILIES, import_llama

SUPPORTED_FAMILIES = ("gpt2", *FAMILIES)


def import_model(repository: Repository, max_parameters: int | None = None) -> ImportedModel:
    """A GPT-2, Llama- or Qwen2-family repository in the playground's own model, or a HubImportError saying why not."""
    raw = read_raw_config(repository.require(CONFIG_FILE))
    family = raw.get("model_type")
    if family == "gpt2":
        return import_gpt2(repository, max_parameters)
    if family in FAMILIES:
        return import_llama(repository, raw, max_parameters)
    kind = str(family if family is not None else "unknown")[:40]
    raise HubImportError(f"this is a {kind!r} model; the playground imports the families {list(SUPPORTED_FAMILIES)} "
                         "(config.json model_type)", "unsupported_family", kind=kind)


def load_model(source: str | Path, max_parameters: int | None = None, cache_dir: str | Path | None = None,
               allow_folder: bool = True) -> ImportedModel:
    """A model from a Hugging Face Hub repository name (e.g. "HuggingFaceTB/SmolLM2-135M") or a local folder."""
    return import_model(Repository(source, cache_dir, allow_folder), max_parameters)
