"""Text corpora: the bundled text, the nursery rhyme and the Tang poems shipped with the project, and tiny Shakespeare.

The rhyme is the 407-character text the first tutorial (seed 000) trains its character model on,
character for character (its lines keep the four-space indent they have in the tutorial's code).

The Tang poems (tang_poems.txt, 297 KB, Simplified Chinese, one poem per paragraph: its title, then
one couplet per line) are the 唐诗三百首 and 1,599 quatrains and regulated verses of the 全唐诗. The
poems are in the public domain; the compilation is the chinese-poetry collection
(https://github.com/chinese-poetry/chinese-poetry, npm package chinese-poetry 2.0.1, MIT licence).
tang_poems.md beside it states the licence and how the text was made from that package.

Tiny Shakespeare is not shipped. It is looked for, in order, at
the path in $PLAYGROUND_SHAKESPEARE, in the user cache ($XDG_CACHE_HOME or ~/.cache, under
transformer-playground/), and in the shared copy next to the repository (../shared/data/). Only
then is it downloaded (within DOWNLOAD_TIMEOUT_S in all, and not again for RETRY_AFTER_S after a
failure), checked against its SHA-256 and cached. Copies in the cache or the shared folder that fail the checksum are
ignored; the file named by the environment variable is trusted as the user's choice.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

BUNDLED_PATH = Path(__file__).with_name("bundled.txt")
RHYME_PATH = Path(__file__).with_name("rhyme.txt")
TANG_POEMS_PATH = Path(__file__).with_name("tang_poems.txt")

SHAKESPEARE_ENV_VAR = "PLAYGROUND_SHAKESPEARE"
SHAKESPEARE_URL = "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt"
SHAKESPEARE_SHA256 = "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"
SHAKESPEARE_BYTES = 1_115_394
SHARED_SHAKESPEARE_PATH = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tinyshakespeare.txt"
DOWNLOAD_TIMEOUT_S = 10.0         # the whole download, name lookup included
RETRY_AFTER_S = 600.0             # a failed download is not tried again sooner: no event waits on it twice


class CorpusUnavailable(RuntimeError):
    """A corpus could not be found locally or downloaded; the bundled text always works."""


_download_lock = threading.Lock()    # one download at a time: the events that need it wait for its outcome
_last_failure: list = []            # [monotonic time, error] of the last failed download


def bundled_text() -> str:
    """The project's own short English text (prose about attention and simple stories)."""
    return BUNDLED_PATH.read_text(encoding="utf-8")


def rhyme_text() -> str:
    """"Twinkle, twinkle, little star" as the first tutorial's character model reads it (407 characters)."""
    return RHYME_PATH.read_text(encoding="utf-8")


def tang_poems_text() -> str:
    """1,938 Tang poems in Simplified Chinese (106,173 characters), bundled, so they work offline."""
    return TANG_POEMS_PATH.read_text(encoding="utf-8")


def shakespeare_cache_path() -> Path:
    """Where a downloaded tiny Shakespeare is kept."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "transformer-playground" / "tinyshakespeare.txt"


def download_bytes(url: str, timeout: float) -> bytes:
    """The body of ``url`` (HTTP GET) within ``timeout`` seconds in all; TimeoutError after that.

    urllib's own timeout bounds each read but not the name lookup, which on a machine without a
    network can take a minute: the download runs in a thread of its own and is given up at the deadline."""
    outcome: dict[str, object] = {}

    def fetch() -> None:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                outcome["body"] = response.read()
        except BaseException as exc:  # handed to the caller
            outcome["error"] = exc

    worker = threading.Thread(target=fetch, name="corpus-download", daemon=True)
    worker.start()
    worker.join(timeout)
    if "body" in outcome:
        return outcome["body"]
    if "error" in outcome:
        raise outcome["error"]
    raise TimeoutError(f"no answer within {timeout:.0f} s")


def _is_genuine(data: bytes) -> bool:
    return len(data) == SHAKESPEARE_BYTES and hashlib.sha256(data).hexdigest() == SHAKESPEARE_SHA256


def _read_verified(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data if _is_genuine(data) else None


def _write_cache(data: bytes) -> None:
    """Store ``data`` in the cache atomically; a cache that cannot be written is skipped."""
    path = shakespeare_cache_path()
    partial: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".part") as tmp:
            partial = Path(tmp.name)
            tmp.write(data)
        os.replace(partial, path)
    except OSError:
        if partial is not None:
            partial.unlink(missing_ok=True)


def tiny_shakespeare(allow_download: bool = True) -> str:
    """Karpathy's tiny Shakespeare (about 1 MB), from a local copy or downloaded once.

    Raises CorpusUnavailable, saying that the bundled text can be used instead, when no copy
    is found and downloading is off or fails, or when a download fails the checksum.
    """
    fallback = "Use the bundled text instead (it works offline)."
    override = os.environ.get(SHAKESPEARE_ENV_VAR)
    if override:
        try:
            return Path(override).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CorpusUnavailable(
                f"${SHAKESPEARE_ENV_VAR} is {override!r}, which is not a readable UTF-8 text file ({exc}); "
                f"fix the path or unset the variable. {fallback}"
            ) from exc

    for path in (shakespeare_cache_path(), SHARED_SHAKESPEARE_PATH):
        data = _read_verified(path)
        if data is not None:
            return data.decode("utf-8")

    searched = f"${SHAKESPEARE_ENV_VAR}, {shakespeare_cache_path()}, {SHARED_SHAKESPEARE_PATH}"
    if not allow_download:
        raise CorpusUnavailable(f"Tiny Shakespeare was not found ({searched}) and downloading is off. {fallback}")
    with _download_lock:
        if _last_failure and time.monotonic() < _last_failure[0] + RETRY_AFTER_S:
            raise CorpusUnavailable(f"Tiny Shakespeare was not found ({searched}) and could not be downloaded "
                                    f"a moment ago ({_last_failure[1]}). {fallback}")
        try:
            data = download_bytes(SHAKESPEARE_URL, DOWNLOAD_TIMEOUT_S)
        except OSError as exc:  # urllib's URLError, socket timeouts and the deadline are OSErrors
            _last_failure[:] = [time.monotonic(), exc]
            raise CorpusUnavailable(
                f"Tiny Shakespeare was not found ({searched}) and could not be downloaded ({exc}). {fallback}"
            ) from exc
    if not _is_genuine(data):
        raise CorpusUnavailable(
            f"The downloaded tiny Shakespeare failed its checksum (expected SHA-256 {SHAKESPEARE_SHA256}, "
            f"{SHAKESPEARE_BYTES} bytes; got {len(data)} bytes) and was not cached. {fallback}"
        )
    _write_cache(data)
    return data.decode("utf-8")


CORPORA = ("bundled", "tiny_shakespeare", "rhyme", "tang_poems")

# Where each corpus comes from and under what terms, as a model card states it.
CORPUS_SOURCES = {
    "bundled": "The project's own text, under the project's licence.",
    "tiny_shakespeare": "Tiny Shakespeare (Andrej Karpathy's char-rnn data set): about 40,000 lines of "
                        "Shakespeare's plays, which are in the public domain.",
    "rhyme": "\"Twinkle, Twinkle, Little Star\" (Jane Taylor, 1806; public domain) as the first tutorial writes it.",
    "tang_poems": "Tang poems (618-907; public domain) from the chinese-poetry collection "
                  "(https://github.com/chinese-poetry/chinese-poetry, npm package chinese-poetry 2.0.1; the "
                  "compilation is under the MIT licence, copyright (c) 2016 JackeyGao). Made as follows: the "
                  "唐诗三百首 file, one version of each poem (339 poems); then, from the 全唐诗 files in order, "
                  "every fifth quatrain or regulated verse (2 or 4 couplets, lines of 5 or 7 characters) written "
                  "only with characters of those 339 poems and not among them, until the text would exceed "
                  "300,000 bytes (1,599 poems); editorial brackets dropped; converted to Simplified Chinese with "
                  "OpenCC's t2s table (opencc-python-reimplemented 0.1.7). One poem per paragraph: its title, then "
                  "one couplet per line. The script and the licence are in playground/data/tang_poems.md.",
}


def load_corpus(name: str, allow_download: bool = True) -> str:
    """The text of a named corpus, one of ``CORPORA``."""
    if name == "bundled":
        return bundled_text()
    if name == "rhyme":
        return rhyme_text()
    if name == "tang_poems":
        return tang_poems_text()
    if name == "tiny_shakespeare":
        return tiny_shakespeare(allow_download=allow_download)
    raise ValueError(f"unknown corpus {name!r}; choose one of {list(CORPORA)}")
