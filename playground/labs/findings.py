"""What a lab run showed, in sentences filled in from the run itself, each with the claims it makes.

A lab's explanation says what the variants change and what to look at; a run's numbers go only
into its findings, so a sentence never states what this run did not show:

    Finding(Bilingual("Its validation loss ended at 2.409, above the reference's 2.366.", "..."),
            (Claim("float mask's final validation loss is above the reference's", "above", "above"),))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from playground.bilingual import Bilingual
from playground.claims import Claim


@dataclass(frozen=True)
class Finding:
    """One sentence about a run, in both languages, and the claims it makes about the run's data."""

    text: Bilingual
    claims: tuple[Claim, ...] = ()


def compared(value: float, reference: float, tolerance: float = 0.0) -> str:
    """"above", "below" or "level" (within `tolerance`): how `value` compares with `reference`."""
    if abs(value - reference) <= tolerance:
        return "level"
    return "above" if value > reference else "below"


WORDS = {
    "en": {"above": "above", "below": "below", "level": "level with"},
    "zh-CN": {"above": "高于", "below": "低于", "level": "持平于"},
}


def word(comparison: str, lang: str) -> str:
    """The word for a comparison ("above", "below", "level") in `lang`."""
    return WORDS[lang][comparison]


def last_value(history: dict[str, list], column: str) -> float | None:
    """The last value of `column` in a variant's history that is not None (what its curve ends at)."""
    values = [v for v in history.get(column, []) if v is not None]
    return values[-1] if values else None


def claims_of(findings: Sequence[Finding]) -> list[Claim]:
    """Every claim the findings make."""
    return [claim for finding in findings for claim in finding.claims]
