"""What the page needs from the Labs tab (see page/page_needs.py): its parts a link can hide, the
figure presenter mode shows first, and its controls left open there: the lab picker and "Run lab",
which the tab's text says to press, sit beside the curves. A link opens at those controls."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

# Presenter mode: the lab's title (the heading of its card, whose explanation is hidden) under the lab picker.
PRESENTER_CSS = """
body.present:not(.hide-explanation) #tab-labs :is(#labs-card, #labs-card .prose) { display: block !important; }
body.present #tab-labs #labs-card .md > :not(h3) { display: none; }
"""

NEEDS = PageNeeds(
    view="labs",
    place=60,
    figure="labs-curves",
    parts={
        **CONTROLS, **explanation(),
        "attention": (".row:has(#labs-variant)", ".row:has(#labs-attention-reference)"),
        "kept": (".row:has(#labs-kept)", "#labs-compare"),
    },
    open_controls=True,
    presenter_css=PRESENTER_CSS,
)
