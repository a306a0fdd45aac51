"""a11y_serious_violations, a11y_critical_violations: an automated accessibility audit of the app.

axe-core (the copy that axe-playwright-python ships) runs in Debian's chromium at 1280x720 on
every tab, opened in each language, once the tab is drawn; its WCAG 2.1 A/AA and best-practice
rules count the page's violations by impact. The goal for both is 0. The browser tests run the
same audit (tests/e2e/test_rooms_in_browser.py).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from playground.bench.common import result
from playground.bench.deep_link import CHROMIUM, CHROMIUM_ARGS

SUITE = "app"
LANGUAGES = {"en": "en-US", "zh-CN": "zh-CN"}          # the link's language: the browser's locale
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
         "resultTypes": ["violations"]}
DRAWN_MS = 90_000
SETTLE_MS = 1000                  # a tab's figures drawn, the page script's names given (150 ms after)


@dataclass
class Audit:
    """Violations found (elements failing a rule), by impact, and where each serious or critical one
    is ("en attention: color-contrast (serious) [...]")."""

    counts: Counter = field(default_factory=Counter)
    found: list[str] = field(default_factory=list)

    def add(self, where: str, violations: list[dict]) -> None:
        for violation in violations:
            self.counts[violation["impact"]] += len(violation["nodes"])
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"][:3]]
                self.found.append(f"{where}: {violation['id']} ({violation['impact']}) {targets}")


def tab_views() -> tuple[str, ...]:
    """The app's tabs, in the tab row's order (read from the app, which imports gradio: so only when asked)."""
    from playground.ui.tabs import VIEWS
    return VIEWS


def audit_page(page, views: tuple[str, ...] | None = None, audit: Audit | None = None, where: str = "") -> Audit:
    """Run axe on `page` (the app, open) after showing each of `views` (every tab) in turn."""
    audit = audit or Audit()
    for view in views or tab_views():
        page.click(f"#tab-{view}-button")
        page.wait_for_selector(f"#tab-{view}", state="visible")
        page.wait_for_selector(f"#tab-{view} .js-plotly-plot", timeout=DRAWN_MS)      # the tab drawn
        page.wait_for_timeout(SETTLE_MS)
        audit.add(f"{where} {view}".strip(), violations(page))
    return audit


def violations(page, scope: str | None = None, skip: tuple[str, ...] = ()) -> list[dict]:
    """axe's violations of RULES on `page`, or on the part of it `scope` (a CSS selector) names;
    `skip`: rules left out (e.g. "color-contrast", three quarters of axe's time, where the colours
    were checked already)."""
    from axe_playwright_python.sync_playwright import Axe

    options = {**RULES, "rules": {rule: {"enabled": False} for rule in skip}} if skip else RULES
    return Axe().run(page, context=scope, options=options).response["violations"]


def audit_app(url: str) -> Audit:
    """The audit of every tab of the app at `url`, in each language."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run tests/install_chromium.sh to audit the page")
    from playwright.sync_api import sync_playwright

    audit = Audit()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for lang, locale in LANGUAGES.items():
                context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
                page = context.new_page()
                page.goto(f"{url.rstrip('/')}/?lang={lang}")
                page.wait_for_selector("#lesson-figure-0 .js-plotly-plot", timeout=DRAWN_MS)
                audit_page(page, audit=audit, where=lang)
                context.close()
        finally:
            browser.close()
    return audit


def accessibility_lines(url: str) -> list[dict]:
    """a11y_serious_violations and a11y_critical_violations of the app at `url`."""
    audit = audit_app(url)
    context = {"views": len(tab_views()), "languages": list(LANGUAGES), "moderate": audit.counts["moderate"],
               "minor": audit.counts["minor"], "found": audit.found[:20]}
    return [result(SUITE, f"a11y_{impact}_violations", audit.counts[impact], "violations", 0, "lower", **context)
            for impact in ("serious", "critical")]
