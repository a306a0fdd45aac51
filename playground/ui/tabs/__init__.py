"""The page's tabs, one package each (tabs/<tab>/, one shape): layout.py declares its components,
form.py its controls as one value (and its link's parameters), handlers.py what each event draws,
build(ctx) in its __init__ wires them, and page_needs.py declares what the page needs from it (the
parts a link can hide, the figure a link names, presenter mode's layout; see page/page_needs.py).

TABS is the tab row, in order, and VIEWS its views' names; PAGE_NEEDS collects each tab's page_needs,
in the same order, for the page's features (hiding, presenter mode, links) and the server's memory
budget. A new tab is added here, and nowhere else in the page, the benches or the browser tests.
"""
from __future__ import annotations

from importlib import import_module

from . import architecture, attention, generate, inside, labs, lessons, positional, tokenizer, train

# (view, package): the view is the package's name, used in links (`view=`) and the tab's ids (`tab-VIEW`).
TABS = tuple((package.__name__.rpartition(".")[2], package)
             for package in (lessons, attention, inside, generate, train, labs, positional, tokenizer, architecture))
VIEWS = tuple(view for view, _ in TABS)
PAGE_NEEDS = {view: import_module(f"{__name__}.{view}.page_needs").NEEDS for view, _ in TABS}
