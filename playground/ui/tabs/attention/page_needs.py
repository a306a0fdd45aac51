"""What the page needs from the Attention tab (see page/page_needs.py): its parts a link can hide,
the figure a link names (the enlarged head) and its first screen in presenter mode."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds
from ...views.attention_passes import DEFAULT_MAX_BYTES as PASS_CACHE_BYTES

# Presenter mode: the grid (left) and the enlarged head (right) side by side on the first screen, the
# summary under the grid and the layer and head sliders under the head (all one row lower when the
# tab's note shows above them); every other row follows at full width. The two rows that hold them
# give their columns to the tab's grid.
PRESENTER_CSS = """
body.present #tab-attention > .column {
  display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: var(--layout-gap); align-items: start;
}
body.present #tab-attention > .column > * { grid-column: 1 / -1; }
body.present #tab-attention > .column > .row:has(#attention-grid),
body.present #tab-attention > .column > .row:has(#attention-head-plot) { display: contents; }
body.present #tab-attention .row:has(#attention-grid) > .column:first-child { grid-column: 1; grid-row: 1; }
body.present #tab-attention .row:has(#attention-head-plot) > .column:first-child { grid-column: 2; grid-row: 1; }
body.present #tab-attention .row:has(#attention-grid) > .column:last-child { grid-column: 1; grid-row: 2; }
body.present #tab-attention .row:has(#attention-head-plot) > .column:last-child { grid-column: 2; grid-row: 2; }
body.present #tab-attention > .column:has(> .tab-note) > .tab-note { grid-row: 1; }
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-grid) > .column:first-child,
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-head-plot) > .column:first-child { grid-row: 2; }
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-grid) > .column:last-child,
body.present #tab-attention > .column:has(> .tab-note) .row:has(#attention-head-plot) > .column:last-child { grid-row: 3; }
"""

NEEDS = PageNeeds(
    view="attention",
    place=20,
    figure="attention-head-plot",              # the enlarged head: a link names its layer and head
    parts={
        **CONTROLS, **explanation("#timeline-explanation"),
        "examples": ("#attention-examples",),
        "summary": ("#attention-summary",),
        "timeline": ("#attention-timeline-panel",),
        "grid": ("#attention-grid",),
        "head": (".row:has(#attention-head-plot)",),
        "scores": (".row:has(#attention-scores)",),
        "shapes": ("#attention-shapes-panel",),
        "heads_off": ("#attention-heads-off-panel",),
        "lens": ("#attention-lens-panel",),
        "patching": ("#attention-patching-panel",),
        "probes": ("#attention-probes-panel",),
    },
    scrolls_to_figure=True,
    presenter_hides=("#attention-examples",),
    presenter_css=PRESENTER_CSS,
    caches={"pass cache": PASS_CACHE_BYTES},
)
