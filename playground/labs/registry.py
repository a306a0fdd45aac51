"""Every lab the app offers, by id: the classic bugs, then the ablations (the 2017 block against the 2024 block last)."""
from __future__ import annotations

from .ablation_labs import ABLATION_LABS
from .bug_labs import BUG_LABS
from .lab import KINDS, Lab
from .llm_block_lab import LLM_BLOCK_LAB

LABS: dict[str, Lab] = {lab.id: lab for lab in BUG_LABS + ABLATION_LABS + (LLM_BLOCK_LAB,)}


def list_labs(kind: str | None = None) -> list[Lab]:
    """The labs in display order; only bugs or only ablations when ``kind`` is "bug" or "ablation"."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS} or None for every lab, got {kind!r}")
    return [lab for lab in LABS.values() if kind is None or lab.kind == kind]


def get_lab(lab_id: str) -> Lab:
    """The lab called ``lab_id``; ValueError listing the ids otherwise."""
    if lab_id not in LABS:
        raise ValueError(f"unknown lab {lab_id!r}; choose one of {list(LABS)}")
    return LABS[lab_id]


def lab_choices(lang: str = "en") -> list[tuple[str, str]]:
    """(title in ``lang``, id) for every lab, in display order: the choices of a lab picker."""
    return [(lab.title.get(lang), lab.id) for lab in list_labs()]
