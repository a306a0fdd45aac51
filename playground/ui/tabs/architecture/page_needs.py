"""What the page needs from the Architecture tab (see page/page_needs.py): its parts a link can hide
and the figure a link names."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="architecture",
    place=90,
    figure="arch-treemap",
    parts={
        **CONTROLS, **explanation(),
        "summary": ("#arch-summary",),
        "config": ("#arch-config",),
        "diagram": ("#arch-diagram",),
        "costs": ("#arch-costs",),
    },
    scrolls_to_figure=True,
)
