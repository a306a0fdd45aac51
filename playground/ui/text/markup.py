"""Text from a model or a user placed inside Markdown so that it shows exactly as written."""
from __future__ import annotations

import html
import re

_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def literal(text: str) -> str:
    """`text` for a Markdown message: a token such as "<eos>" stays visible instead of becoming an HTML
    tag, and "*", "_" or "`" are shown instead of starting emphasis or code."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", html.escape(text, quote=False))
