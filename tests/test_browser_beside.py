"""Which runs hand the browser tests to a second process, and what each process then collects."""
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import browser_beside
from tests.browser_beside import BROWSER_TESTS, HALF, ONE_PROCESS

TESTS = BROWSER_TESTS.parent
REPO = TESTS.parent


def session(*args: str, ignore: tuple[str, ...] = (), collectonly: bool = False, xmlpath: str | None = None):
    """A pytest session's stand-in, run from the repository with `args` and options."""
    option = SimpleNamespace(collectonly=collectonly, xmlpath=xmlpath)
    config = SimpleNamespace(args=list(args), option=option, invocation_params=SimpleNamespace(dir=REPO),
                             getoption=lambda name: list(ignore) if name == "ignore" else None)
    return SimpleNamespace(config=config)


@pytest.fixture(autouse=True)
def a_first_process(monkeypatch):
    monkeypatch.delenv(HALF, raising=False)
    monkeypatch.delenv(ONE_PROCESS, raising=False)


@pytest.mark.parametrize("args", [("tests",), (".",), ("tests/ui/test_links.py", "tests/e2e/test_links_in_browser.py"),
                                  ("tests/test_checkpoint.py::test_x", "tests/e2e")])
def test_a_run_of_both_kinds_hands_the_browser_tests_on(args):
    assert browser_beside._asks_for_both(session(*args))


@pytest.mark.parametrize("args, options", [
    (("tests/e2e",), {}),                                             # browser tests alone
    (("tests/e2e/test_links_in_browser.py", "tests/e2e/test_views_in_browser.py"), {}),
    (("tests/ui", "tests/model"), {}),                                # no browser test
    (("tests",), {"ignore": ("tests/e2e",)}),                         # the README's first half
    (("tests",), {"collectonly": True}),
    (("tests",), {"xmlpath": "report.xml"}),                          # one JUnit file, one writer
])
def test_a_run_of_one_kind_or_that_cannot_share_stays_in_one_process(args, options):
    assert not browser_beside._asks_for_both(session(*args, **options))


def test_one_process_when_asked(monkeypatch):
    monkeypatch.setenv(ONE_PROCESS, "1")
    assert not browser_beside._asks_for_both(session("tests"))


def test_each_process_collects_its_own_half(monkeypatch):
    config = session("tests").config
    ui, e2e_file = TESTS / "ui" / "test_links.py", BROWSER_TESTS / "test_links_in_browser.py"
    monkeypatch.setattr(browser_beside, "_half", object())                  # this process handed them on
    assert browser_beside.pytest_ignore_collect(BROWSER_TESTS, config) is True
    assert browser_beside.pytest_ignore_collect(e2e_file, config) is True
    assert browser_beside.pytest_ignore_collect(ui, config) is None
    monkeypatch.setattr(browser_beside, "_half", None)
    monkeypatch.setenv(HALF, "browser")                                     # the second process
    assert browser_beside.pytest_ignore_collect(ui, config) is True
    assert browser_beside.pytest_ignore_collect(TESTS / "test_checkpoint.py", config) is True
    for kept in (TESTS, BROWSER_TESTS, e2e_file):
        assert browser_beside.pytest_ignore_collect(kept, config) is None, kept
    assert browser_beside.runs_browser_tests_alone(config)


def test_the_run_fails_when_either_half_fails(monkeypatch):
    def finished(own: int, browser: int) -> int:
        monkeypatch.setattr(browser_beside, "_half", SimpleNamespace(wait=lambda: browser, stop=lambda: browser))
        run = SimpleNamespace(exitstatus=own)
        browser_beside.pytest_sessionfinish(run)
        return run.exitstatus

    assert finished(0, 0) == 0
    assert finished(0, 1) == 1
    assert finished(1, 0) == 1
    assert finished(5, 0) == 0                       # every test of this half deselected: the other ran
    assert finished(0, 5) == 0
    assert finished(2, 1) == 2                       # interrupted here: that is what the run says


def test_a_browser_run_alone_keeps_one_browser(monkeypatch):
    assert browser_beside.runs_browser_tests_alone(session("tests/e2e/test_links_in_browser.py").config)
    assert not browser_beside.runs_browser_tests_alone(session("tests").config)
    assert not browser_beside.runs_browser_tests_alone(session("tests/e2e", "tests/ui").config)


def test_the_path_check_reads_paths_not_prefixes():
    assert not browser_beside._inside(Path("/work/tests/e2e2"), Path("/work/tests/e2e"))


def test_files_named_on_the_command_line_are_deselected_in_the_other_half(monkeypatch):
    ui, e2e = SimpleNamespace(path=TESTS / "ui" / "test_links.py"), SimpleNamespace(path=BROWSER_TESTS / "test_x.py")
    deselected = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items)))

    monkeypatch.setattr(browser_beside, "_half", object())
    items = [ui, e2e]
    browser_beside.keep_own_half(config, items)
    assert items == [ui] and deselected == [e2e]

    monkeypatch.setattr(browser_beside, "_half", None)
    monkeypatch.setenv(HALF, "browser")
    items, deselected[:] = [ui, e2e], []
    browser_beside.keep_own_half(config, items)
    assert items == [e2e] and deselected == [ui]

    monkeypatch.delenv(HALF)                                           # a run in one process keeps everything
    items, deselected[:] = [ui, e2e], []
    browser_beside.keep_own_half(config, items)
    assert items == [ui, e2e] and deselected == []


def test_an_interrupted_run_stops_the_browser_half_instead_of_waiting_for_it(monkeypatch):
    calls = []
    half = SimpleNamespace(wait=lambda: calls.append("wait") or 0, stop=lambda: calls.append("stop") or 2)
    monkeypatch.setattr(browser_beside, "_half", half)
    run = SimpleNamespace(exitstatus=2)
    browser_beside.pytest_sessionfinish(run)
    assert calls == ["stop"] and run.exitstatus == 2
