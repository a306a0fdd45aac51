"""A claim: a number, a setting or a comparison that a text states about a figure, beside what the
figure's own data show.

A lesson or a lab fills its numbers in from the result it draws, and lists the claims its text
makes with `claims(result) -> list[Claim]`; the tests and the benchmark evaluate the same list, so
a sentence that disagrees with its figure fails a test instead of misleading a learner.

    Claim("temperature of the sharper bars", stated=0.2, measured=0.2, tolerance=1e-6).holds   # True
    Claim("the score that rose first", stated="induction", measured="previous-token").holds    # False
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Claim:
    """What the text says (`stated`) and what the data show (`measured`): equal, or for numbers
    within `tolerance` of each other."""

    what: str
    stated: object
    measured: object
    tolerance: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.what, str) or not self.what.strip():
            raise ValueError("a claim needs a description of what it states")
        if not (isinstance(self.tolerance, (int, float)) and self.tolerance >= 0):
            raise ValueError(f"tolerance must be a number >= 0, got {self.tolerance!r}")

    @property
    def holds(self) -> bool:
        stated, measured = self.stated, self.measured
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (stated, measured))
        if numbers:
            return math.isfinite(stated) and math.isfinite(measured) and abs(stated - measured) <= self.tolerance
        return stated == measured

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "DOES NOT HOLD"
        return f"{self.what}: stated {self.stated!r}, measured {self.measured!r} ({verdict})"


def mismatched(claims: Iterable[Claim]) -> list[Claim]:
    """The claims whose data do not bear them out."""
    return [claim for claim in claims if not claim.holds]
