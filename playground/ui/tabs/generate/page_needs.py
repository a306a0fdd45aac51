"""What the page needs from the Generate tab (see page/page_needs.py): its parts a link can hide,
the figure a link names (the candidates) and its first screen in presenter mode."""
from __future__ import annotations

from ...page.hiding import CONTROLS, explanation
from ...page.page_needs import PageNeeds

# Presenter mode: the candidates (or the beam tree) on the right of the prompt, the buttons and the
# text so far, the folded controls under them: the first row's two columns give their blocks to one grid.
PRESENTER_CSS = """
body.present #tab-generate .row:has(#generate-candidates) {
  display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: var(--layout-gap); align-items: start;
}
body.present #tab-generate .row:has(#generate-candidates) > .column { display: contents; }
body.present #tab-generate .row:has(#generate-candidates) > .column > * { grid-column: 1; }
body.present #tab-generate .row:has(#generate-candidates) > .column > :is(#generate-candidates, #generate-beam-tree) {
  grid-column: 2; grid-row: 1 / span 8;
}
"""

NEEDS = PageNeeds(
    view="generate",
    place=40,
    figure="generate-candidates",
    parts={
        **CONTROLS, **explanation("#generate-explanation-panel"),
        "examples": ("#generate-examples",),
        "attention": (".row:has(#generate-token-cross)",),
        "filling": (".row:has(#generate-filling)",),
        "heads_off": ("#generate-heads-off-panel",),
        "lens": ("#generate-lens-panel",),
        "exposure": ("#generate-exposure-panel",),
        "game": ("#generate-game-panel",),
    },
    scrolls_to_figure=True,
    presenter_hides=("#generate-explanation-panel", "#generate-examples"),
    presenter_css=PRESENTER_CSS,
)
