"""What the page needs from the Tokenizer tab (see page/page_needs.py): its parts a link can hide,
the figure a link names and the examples presenter mode hides."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="tokenizer",
    place=80,
    figure="tok-char-spans",
    parts={
        **CONTROLS, **explanation(),
        "examples": ("#tok-examples",),
        "counts": ("#tok-counts",),
        "bpe": ("#tok-bpe-spans",),
        "merges": (".row:has(#tok-merges)",),
    },
    scrolls_to_figure=True,
    presenter_hides=("#tok-examples",),
)
