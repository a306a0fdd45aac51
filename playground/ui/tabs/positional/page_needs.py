"""What the page needs from the Positional encoding tab (see page/page_needs.py): its parts a link
can hide and the figure a link names."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="positional",
    place=70,
    figure="pos-heatmap",
    parts={
        **CONTROLS, **explanation(),
        "curves": (".row:has(#pos-curves)",),
        "learned": (".row:has(#pos-model)", ".row:has(#pos-model-heatmap)"),
        "rope": (".row:has(#rope-plot)",),
        "shuffle": (".row:has(#shuffle-run)", "#shuffle-table"),
    },
    scrolls_to_figure=True,
)
