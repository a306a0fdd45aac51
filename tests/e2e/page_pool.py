"""Pages kept between browser tests. A new browser context starts a new renderer, which compiles
Gradio's and Plotly's scripts again: opening the app there costs chromium about 3.0 s of CPU, against
1.2-1.4 s in a page that showed it before (measured on the 2-core machine). So a test's page comes
from here: a page given back by an earlier test, its browser storage for every site it visited wiped
(local and session storage, IndexedDB, cookies, caches' storage) and its history, and left on
about:blank, which keeps its renderer and compiled scripts: to the app it is a new student's page.

A page goes back to the pool when the test that took it closes its context, or at the test's end (at
the module's end, for a module's page). It is kept only as it was lent: one page in its context, at
the pool's viewport, without anything a test added to it or its context (an init script, a route, a
permission, a listener, ...: such a page is closed instead)."""
from __future__ import annotations

from urllib.parse import urlsplit

IDLE_PER_LOCALE = 3             # pages kept idle for each (browser, locale); more are closed
# What a test can add to a page or its context that would outlive it in a page given back.
_PAGE_ADDITIONS = ("add_init_script", "route", "route_from_har", "route_web_socket", "expose_function",
                   "expose_binding", "set_extra_http_headers", "on", "once", "emulate_media")
_CONTEXT_ADDITIONS = ("add_init_script", "route", "route_from_har", "route_web_socket", "expose_function",
                      "expose_binding", "set_extra_http_headers", "grant_permissions", "set_offline",
                      "set_geolocation", "on", "once", "new_page")


class PagePool:
    """Pages of `viewport` for a (browser, locale): `take` one, `give_back` it when done."""

    def __init__(self, viewport: dict, timeout_ms: float):
        self._viewport, self._timeout_ms = viewport, timeout_ms
        self._idle: dict[tuple[int, str], list] = {}
        self._lent: list = []                   # pages taken for the test under way (see `lend_to_test`)
        self._lending_to_test = False
        self.opened = self.reused = 0           # pages made, and pages lent again

    def take(self, browser, locale: str):
        """A page of a fresh session for `locale`, on about:blank: a kept one when there is one."""
        idle = self._idle.get((id(browser), locale), [])
        while idle:
            page = idle.pop()
            if browser.is_connected() and not page.is_closed():
                self.reused += 1
                return self._lend(page)
        context = browser.new_context(viewport=self._viewport, locale=locale)
        page = context.new_page()
        page.pool_key, page.pool_origins, page.pool_altered = (id(browser), locale), set(), False
        page.on("framenavigated", lambda frame: _visited(page, frame))
        for obj, names in ((page, _PAGE_ADDITIONS), (context, _CONTEXT_ADDITIONS)):
            for name in names:
                setattr(obj, name, _marking(page, getattr(obj, name)))
        page.pool_close, context.close = context.close, lambda **_: self.give_back(page)
        self.opened += 1
        return self._lend(page)

    def _lend(self, page):
        page.context.set_default_timeout(self._timeout_ms)
        page.set_default_timeout(self._timeout_ms)
        if self._lending_to_test:
            self._lent.append(page)
        return page

    def lend_to_test(self, lending: bool) -> None:
        """While on, the pages taken are the test's, given back by `give_back_lent` (a test's body
        runs with it on; a module fixture's page, taken while it is off, is given back at the module's end)."""
        self._lending_to_test = lending

    def give_back_lent(self) -> None:
        """Give back the pages taken for the test that ended."""
        lent, self._lent = self._lent, []
        for page in lent:
            self.give_back(page)

    def give_back(self, page) -> None:
        """Keep `page` for a later test when it is as lent, else close its context."""
        if page.is_closed():
            page.pool_close()                     # the context of a page the test closed
            return
        if self.is_idle(page):                    # given back already
            return
        context = page.context
        idle = self._idle.setdefault(page.pool_key, [])
        reusable = (not page.pool_altered and context.pages == [page] and page.viewport_size == self._viewport
                    and len(idle) < IDLE_PER_LOCALE)
        if reusable:
            try:
                page.goto("about:blank", timeout=self._timeout_ms)
                cdp = context.new_cdp_session(page)
                for origin in page.pool_origins:
                    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
                cdp.send("Page.resetNavigationHistory")
                cdp.detach()
                page.pool_origins.clear()
            except Exception:                   # a page that crashed or hangs: not kept
                reusable = False
        if reusable:
            idle.append(page)
        else:
            page.pool_close()

    def is_idle(self, page) -> bool:
        return page in self._idle.get(getattr(page, "pool_key", None), [])

    def made(self, page) -> bool:
        return hasattr(page, "pool_key")


def _visited(page, frame) -> None:
    """Note the origin `page` went to (its storage there is wiped when it is given back)."""
    parts = urlsplit(frame.url)
    if frame == page.main_frame and parts.scheme in ("http", "https"):
        page.pool_origins.add(f"{parts.scheme}://{parts.netloc}")


def _marking(page, method):
    """`method`, which marks `page` as altered (not to be given back) when a test calls it."""
    def marked(*args, **kwargs):
        page.pool_altered = True
        return method(*args, **kwargs)
    return marked
