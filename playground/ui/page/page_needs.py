"""What the page needs from a tab, declared by the tab in its own package (tabs/<tab>/page_needs.py)
and collected, in tab order, by playground.ui.tabs.PAGE_NEEDS (a tab's package is found by its
page_needs.py: a new tab is written in its own folder and named nowhere else in the page).

The page's features read it and know no tab by name: hiding.py and links.py (the parts a link's
`hide=` names), present.py (presenter mode's hidden blocks and layout, the figure a link scrolls
to), the page's opening (the controls presenter mode folds) and the server's memory budget
(playground.ui.budget: the tab's shared caches). The ids in it are the tab's own elem_ids.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .hiding import NAME, PAGE_PARTS


@dataclass(frozen=True)
class PageNeeds:
    """One tab's declaration.

    view: the tab's name in a link (`view=`): its package's name; its panel is `#tab-VIEW`.
    place: where the tab stands in the tab row (lowest first; the first tab is the page's default view).
    figure: the elem_id of the figure a link to the tab names: presenter mode puts it on the first screen.
    parts: what `hide=NAME` hides in the tab: NAME -> the CSS selectors of its blocks, inside the tab.
    scrolls_to_figure: a link opened outside presenter mode scrolls to the figure once it is drawn.
    open_controls: presenter mode leaves the tab's controls open (its text says to press a button there).
    presenter_hides: CSS selectors of the tab's blocks presenter mode hides besides the page's (examples, notes).
    presenter_css: the tab's own presenter layout (rules under `body.present #tab-VIEW`).
    caches: the tab's caches shared by every session, name -> bound in bytes (the server's memory budget).
    """

    view: str
    place: int
    figure: str
    parts: Mapping[str, tuple[str, ...]]
    scrolls_to_figure: bool = False
    open_controls: bool = False
    presenter_hides: tuple[str, ...] = ()
    presenter_css: str = ""
    caches: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.parts:
            if not NAME.fullmatch(name) or name in PAGE_PARTS:
                raise ValueError(f"tab {self.view!r}: a part may not be named {name!r} "
                                 f"(letters and '_', not one of the page's: {', '.join(PAGE_PARTS)})")
