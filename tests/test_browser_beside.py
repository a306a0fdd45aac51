"""Which runs hand the browser tests to browser processes, what each process then collects, and how the
browser processes share the modules between them."""
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
    monkeypatch.setattr(browser_beside, "_browser_processes", [object()])   # this process handed them on
    assert browser_beside.pytest_ignore_collect(BROWSER_TESTS, config) is True
    assert browser_beside.pytest_ignore_collect(e2e_file, config) is True
    assert browser_beside.pytest_ignore_collect(ui, config) is None
    monkeypatch.setattr(browser_beside, "_browser_processes", [])
    monkeypatch.setenv(HALF, "browser")                                     # a browser process
    assert browser_beside.pytest_ignore_collect(ui, config) is True
    assert browser_beside.pytest_ignore_collect(TESTS / "test_checkpoint.py", config) is True
    for kept in (TESTS, BROWSER_TESTS, e2e_file):
        assert browser_beside.pytest_ignore_collect(kept, config) is None, kept
    assert browser_beside.runs_browser_tests_alone(config)


def test_the_run_fails_when_any_process_fails(monkeypatch):
    def finished(own: int, *browser: int) -> int:
        processes = [SimpleNamespace(wait=lambda code=code: code, stop=lambda code=code: code) for code in browser]
        monkeypatch.setattr(browser_beside, "_browser_processes", processes)
        run = SimpleNamespace(exitstatus=own)
        browser_beside.pytest_sessionfinish(run)
        return run.exitstatus

    assert finished(0, 0, 0) == 0
    assert finished(0, 1, 0) == 1
    assert finished(0, 0, 1) == 1
    assert finished(1, 0, 0) == 1
    assert finished(5, 0, 0) == 0                    # every test of this process deselected: the others ran
    assert finished(0, 5, 0) == 0
    assert finished(2, 1, 0) == 2                    # interrupted here: that is what the run says


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

    monkeypatch.setattr(browser_beside, "_browser_processes", [object()])
    items = [ui, e2e]
    browser_beside.keep_own_half(config, items)
    assert items == [ui] and deselected == [e2e]

    monkeypatch.setattr(browser_beside, "_browser_processes", [])
    monkeypatch.setenv(HALF, "browser")
    items, deselected[:] = [ui, e2e], []
    browser_beside.keep_own_half(config, items)
    assert items == [e2e] and deselected == [ui]

    monkeypatch.delenv(HALF)                                           # a run in one process keeps everything
    items, deselected[:] = [ui, e2e], []
    browser_beside.keep_own_half(config, items)
    assert items == [ui, e2e] and deselected == []


def test_an_interrupted_run_stops_the_browser_processes_instead_of_waiting_for_them(monkeypatch):
    calls = []
    browser = SimpleNamespace(wait=lambda: calls.append("wait") or 0, stop=lambda: calls.append("stop") or 2)
    monkeypatch.setattr(browser_beside, "_browser_processes", [browser, browser])
    run = SimpleNamespace(exitstatus=2)
    browser_beside.pytest_sessionfinish(run)
    assert calls == ["stop", "stop"] and run.exitstatus == 2


def items_of(*modules: tuple[str, int]) -> list:
    """Stand-ins of collected items: `count` tests of each (module stem, count), in collection order."""
    return [SimpleNamespace(path=BROWSER_TESTS / f"{stem}.py", name=f"{stem}::{n}")
            for stem, count in modules for n in range(count)]


def test_the_longest_modules_come_first_each_in_its_own_order():
    longest, second = browser_beside.LONGEST_FIRST[:2]
    items = items_of(("test_a_in_browser", 2), (second, 1), ("test_b_in_browser", 1), (longest, 3))
    groups = browser_beside.by_module(items)
    assert [[item.name for item in group] for group in groups] == [
        [f"{longest}::0", f"{longest}::1", f"{longest}::2"], [f"{second}::0"],
        ["test_a_in_browser::0", "test_a_in_browser::1"], ["test_b_in_browser::0"]]


def test_two_processes_run_every_module_once_and_keep_fixtures_across_their_own(tmp_path):
    items = items_of(("test_a_in_browser", 2), ("test_b_in_browser", 1), ("test_c_in_browser", 3),
                     ("test_d_in_browser", 1))
    claim = browser_beside.claim_in(str(tmp_path))
    first, second = browser_beside.claimed_items(items, claim), browser_beside.claimed_items(items, claim)
    ran = {"first": [], "second": []}
    # The first process's first module is long: the second claims the others meanwhile, in turn.
    ran["first"].append(next(first))
    for pair in second:
        ran["second"].append(pair)
    ran["first"].extend(first)
    names = {process: [(item.name, following and following.name) for item, following in pairs]
             for process, pairs in ran.items()}
    assert names["first"] == [("test_a_in_browser::0", "test_a_in_browser::1"), ("test_a_in_browser::1", None)]
    assert names["second"] == [("test_b_in_browser::0", "test_c_in_browser::0"),
                               ("test_c_in_browser::0", "test_c_in_browser::1"),
                               ("test_c_in_browser::1", "test_c_in_browser::2"),
                               ("test_c_in_browser::2", "test_d_in_browser::0"),
                               ("test_d_in_browser::0", None)]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["test_a_in_browser", "test_b_in_browser",
                                                                "test_c_in_browser", "test_d_in_browser"]
