"""Text in the app's two languages, English ("en") and Simplified Chinese ("zh-CN").

One piece of text the library and the app both write (a lab's title, a lesson's explanation) is a
`Bilingual`: both languages side by side, read with `text(lang)` or `text.get(lang)`.
"""
from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "zh-CN")


@dataclass(frozen=True)
class Bilingual:
    """One text in English and Simplified Chinese; neither may be empty."""

    en: str
    zh: str

    def __post_init__(self) -> None:
        for language, value in (("en", self.en), ("zh-CN", self.zh)):
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"the {language} text is empty; every text needs both languages")

    def get(self, lang: str) -> str:
        """The text in `lang` ("en" or "zh-CN")."""
        if lang == "en":
            return self.en
        if lang == "zh-CN":
            return self.zh
        raise ValueError(f"unknown language {lang!r}; use one of {LANGUAGES}")

    __call__ = get
