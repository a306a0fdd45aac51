"""The page's tabs, one package each (tabs/<tab>/, one shape): layout.py declares its components,
form.py its controls as one value (and its link's parameters), handlers.py what each event draws,
build(ctx) in its __init__ wires them, and page_needs.py declares what the page needs from it (its
place in the tab row, the parts a link can hide, the figure a link names, presenter mode's layout;
see page/page_needs.py).

The tab row is collected from the packages here: every one with a page_needs.py is a tab, placed by
its declared place. TABS is the tab row, in order, VIEWS its views' names and PAGE_NEEDS each tab's
declaration, in the same order, for the page's features (hiding, presenter mode, links) and the
server's memory budget. A new tab is its own folder, named nowhere else in the page, the benches or
the browser tests.
"""
from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from pkgutil import iter_modules
from types import ModuleType
from typing import Iterable


def tab_row(package: str, paths: Iterable[str]) -> tuple[tuple[str, ModuleType], ...]:
    """(view, package) for each tab package in the package `package` (found on `paths`), in the order of
    the places they declare; a package without a page_needs.py is not a tab."""
    placed = []
    for found in iter_modules(list(paths)):
        name = f"{package}.{found.name}"
        if not found.ispkg or find_spec(f"{name}.page_needs") is None:
            continue
        needs = import_module(f"{name}.page_needs").NEEDS
        if needs.view != found.name:
            raise ValueError(f"{name}.page_needs declares the view {needs.view!r}: a tab's view is its package's name")
        placed.append((needs.place, found.name, import_module(name)))
    places = [place for place, _, _ in placed]
    if len(set(places)) != len(places):
        raise ValueError(f"two tabs in {package} declare the same place: {sorted(p[:2] for p in placed)}")
    return tuple((view, module) for _, view, module in sorted(placed, key=lambda p: p[:2]))


# (view, package): the view is the package's name, used in links (`view=`) and the tab's ids (`tab-VIEW`).
TABS = tab_row(__name__, __path__)
VIEWS = tuple(view for view, _ in TABS)
PAGE_NEEDS = {view: package.page_needs.NEEDS for view, package in TABS}        # imported by tab_row
