"""The files of a model repository: from a local folder, or downloaded from the Hugging Face Hub.

`Repository(source)` takes a folder holding the files, or a Hub repository name such as
"openai-community/gpt2". Files are fetched one at a time, when asked for, so a repository
that turns out to be unusable costs only its small config.json. Downloads land in the Hub's
own cache and are reused; without internet a cached file still loads.

Before its first download a repository checks, once, that the Hub accepts a connection within
PROBE_TIMEOUT_S (name lookup included): huggingface_hub retries a host it cannot reach five times
with back-off, about 25 s a file, so a machine without a network waited over a minute to be told.
Out of reach, only the local cache is read.
"""
from __future__ import annotations

import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import huggingface_hub
import huggingface_hub.constants
import huggingface_hub.utils
from huggingface_hub.errors import (EntryNotFoundError, GatedRepoError, HFValidationError, HfHubHTTPError,
                                    LocalEntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError)

PROBE_TIMEOUT_S = 3.0      # how long the Hub may take to accept a connection before it counts as out of reach
WANTED_FILES = "config.json, model.safetensors and tokenizer.json (a GPT-2 may have vocab.json + merges.txt instead)"


class HubImportError(ValueError):
    """A repository that cannot be imported; the message says why and what to do. `reason` names the common
    cases ("unreachable", "not_found", "gated", "too_large", "not_gpt2", "unsupported_family",
    "unsupported_field") and `details` their values, so an interface can say them in its own words; None
    for the rest."""

    def __init__(self, message: str, reason: str | None = None, **details):
        super().__init__(message)
        self.reason = reason
        self.details = details


def hub_reachable(timeout: float = PROBE_TIMEOUT_S) -> bool:
    """Whether the Hub's host accepts a TCP connection within `timeout` seconds in all (the name lookup,
    which socket timeouts do not bound, runs in a thread given up at the deadline); False when the
    Hub is switched off (HF_HUB_OFFLINE)."""
    if huggingface_hub.constants.HF_HUB_OFFLINE:
        return False
    address = urlsplit(huggingface_hub.constants.ENDPOINT)
    host, port = address.hostname, address.port or (443 if address.scheme == "https" else 80)
    answered: list[bool] = []

    def connect() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            answered.append(True)
        except OSError:
            answered.append(False)

    probe = threading.Thread(target=connect, name="hub-probe", daemon=True)
    probe.start()
    probe.join(timeout)
    return bool(answered and answered[0])


class Repository:
    """A model repository: a local folder, or a Hub repository downloaded file by file.

    allow_folder=False always reads `source` as a Hub name (a server must not open its own folders
    for visitors).
    """

    def __init__(self, source: str | Path, cache_dir: str | Path | None = None, allow_folder: bool = True):
        if not isinstance(source, (str, Path)) or not str(source).strip():
            raise HubImportError("give a Hugging Face Hub repository name such as openai-community/gpt2, "
                                 "or a folder holding " + WANTED_FILES)
        self.source = str(source).strip()
        self.cache_dir = cache_dir
        self.folder = Path(self.source) if allow_folder and Path(self.source).is_dir() else None
        self._reachable: bool | None = None       # whether the Hub answered (asked once, at the first download)
        if self.folder is None:
            try:
                huggingface_hub.utils.validate_repo_id(self.source)
            except HFValidationError:
                raise HubImportError(f"{self.source!r} is neither a folder nor a Hugging Face Hub repository name; "
                                     "a repository name looks like openai-community/gpt2") from None

    @property
    def online(self) -> bool:
        """Whether files are downloaded (the Hub answered the probe), else read from the local cache only."""
        if self._reachable is None:
            self._reachable = hub_reachable()
        return self._reachable

    @property
    def name(self) -> str:
        return self.folder.name if self.folder is not None else self.source

    def file(self, filename: str) -> Path | None:
        """The local path of `filename`, downloaded first when needed; None when the repository lacks it."""
        if self.folder is not None:
            path = self.folder / filename
            return path if path.is_file() else None
        try:
            return Path(huggingface_hub.hf_hub_download(self.source, filename, cache_dir=self.cache_dir,
                                                        local_files_only=not self.online))
        except LocalEntryNotFoundError:
            raise HubImportError(
                f"cannot reach the Hugging Face Hub to download {filename} of {self.source}, and it is not in the "
                f"local cache. Connect to the internet and try again; or, once online, put it in the cache with "
                f"`hf download {self.source} config.json model.safetensors tokenizer.json` (it then loads offline), "
                "or download those files into a folder and load that folder", "unreachable") from None
        except EntryNotFoundError:
            return None
        except GatedRepoError:
            raise HubImportError(f"{self.source} is a gated repository: accept its terms on huggingface.co and log "
                                 "in with `hf auth login`, or load a folder holding its files", "gated") from None
        except RepositoryNotFoundError:
            raise HubImportError(f"there is no public repository {self.source} on the Hugging Face Hub; "
                                 "check the name (for example openai-community/gpt2)", "not_found") from None
        except RevisionNotFoundError:
            raise HubImportError(f"{self.source} has no such revision") from None
        except HfHubHTTPError as error:
            raise HubImportError(f"the Hugging Face Hub did not send {filename} of {self.source}: {error}") from None

    def has(self, filename: str) -> bool:
        """Whether the repository holds `filename`, without downloading it (False when that cannot be told)."""
        if self.folder is not None:
            return (self.folder / filename).is_file()
        if not self.online:
            return isinstance(huggingface_hub.try_to_load_from_cache(self.source, filename, cache_dir=self.cache_dir),
                              str)
        try:
            return huggingface_hub.file_exists(self.source, filename)
        except (HfHubHTTPError, OSError, ValueError):
            return False

    def require(self, filename: str, why: str = "") -> Path:
        """The local path of `filename`, or a HubImportError naming the missing file."""
        path = self.file(filename)
        if path is None:
            raise HubImportError(f"{self.name} has no {filename}{why}; a model repository needs {WANTED_FILES}")
        return path
