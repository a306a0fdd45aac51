"""What the page needs from the Lessons tab (see page/page_needs.py): its parts a link can hide and
the figure presenter mode shows first. A link opens at the lesson's text."""
from __future__ import annotations

from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="lessons",
    place=10,
    figure="lesson-figure-0",                  # the lesson's first figure
    parts={
        "navigation": (".row:has(#lesson-picker)",),
        "explanation": ("#lesson-explanation", "#lesson-notes", "#lesson-look-for"),
        "experiment": ("#lesson-experiment-heading", "#lesson-prediction", ".row:has(#lesson-run)",
                       "#lesson-live-status", "[id^='lesson-outcome-']", "#lesson-verdict", "#lesson-reveal"),
        "check": ("#lesson-check-heading", "#lesson-answer", "#lesson-feedback"),
        "explore": ("#lesson-explore",),
        "game": ("#lesson-game-panel",),
    },
)
