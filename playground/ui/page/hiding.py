"""A teacher's reduced view: `hide=controls,scores` in a link hides those parts of the page.

Each tab declares the parts it can hide (PageNeeds.parts: a name and the CSS selectors of its blocks,
read inside the tab; see page_needs.py), and the page names a few of its own (PAGE_PARTS: the
own-model panel, the tab row, the language control). A link's names are checked against the parts
of the view it opens (and the page's); the others are noted like every ignored parameter (see
links.parse_link). On the page each name becomes a class on <body> (`hide-NAME`, set by HIDE_JS from
the address, which keeps `hide=` as it keeps `present=1`) and hiding_css() hides the blocks of every
part so named: a part of the same name in another tab is hidden there too.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from .page_needs import PageNeeds

PARAM = "hide"
NAME = re.compile(r"[a-z_]{1,24}")
MAX_PARTS = 16                   # names a link may give

# The part most tabs have: their controls, an accordion whose id ends in "-controls".
CONTROLS = {"controls": ("[id$='-controls']",)}


def explanation(*own: str) -> dict[str, tuple[str, ...]]:
    """The part `explanation`: every block of class "explanation" in the tab, and the tab's `own` selectors."""
    return {"explanation": (".explanation", *own)}


# The page's own parts (outside the tabs).
PAGE_PARTS: dict[str, tuple[str, ...]] = {
    "own_model": ("#own-model-panel",),
    "tabs": ("#tabs > .tab-wrapper",),
    "language": ("#language",),
}


def hideable(tab_parts: Iterable[str]) -> list[str]:
    """The names a link to a tab with `tab_parts` may hide, the tab's first."""
    return [*tab_parts, *PAGE_PARTS]


def parse_hide(value: str, tab_parts: Iterable[str]) -> tuple[tuple[str, ...], list[str]]:
    """(the parts of a tab with `tab_parts` (and of the page) that `value` ("controls,scores") names, the
    names it cannot hide there)."""
    known = set(hideable(tab_parts))
    names = [name.strip() for name in value.split(",") if name.strip()][:MAX_PARTS]
    parts = tuple(dict.fromkeys(name for name in names if name in known))
    return parts, [name for name in dict.fromkeys(names) if name not in known]


def hiding_css(tabs: Iterable[PageNeeds]) -> str:
    """CSS that hides every part of the `tabs`, and of the page, whose name is a class `hide-NAME` on <body>."""
    rules = []
    for tab in tabs:
        for name, selectors in tab.parts.items():
            rules.append(", ".join(f"body.hide-{name} #tab-{tab.view} {selector}" for selector in selectors))
    for name, selectors in PAGE_PARTS.items():
        rules.append(", ".join(f"body.hide-{name} {selector}" for selector in selectors))
    return "\n".join(f"{rule} {{ display: none !important; }}" for rule in rules) + "\n"


# Page js: a class `hide-NAME` on <body> for each name in the address's `hide=` (letters and '_' only).
HIDE_JS = f"""
() => {{
  const value = new URLSearchParams(location.search).get('{PARAM}') || '';
  for (const name of value.split(',').slice(0, {MAX_PARTS})) {{
    if (/^{NAME.pattern}$/.test(name.trim())) document.body.classList.add('hide-' + name.trim());
  }}
}}
"""
