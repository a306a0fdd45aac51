"""What the page needs from the Train tab (see page/page_needs.py): its parts a link can hide and the
figure presenter mode shows first. A link opens at the controls that start the run its figure shows."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="train",
    place=50,
    figure="train-curves",
    parts={
        **CONTROLS, **explanation(),
        "architecture": ("#train-architecture",),
        "optimiser": ("#train-optimiser",),
        "probe": ("#train-probe-kind", "#train-probe"),
        "scores": ("#train-score", "#train-scores"),
        "sample": ("#train-sample",),
        "download": ("#train-download",),
    },
)
