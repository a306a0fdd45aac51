"""The browser tests (tests/e2e) run beside the others, in two more pytest processes, when one run
asks for both (`python -m pytest -q tests`).

The halves wait on different things: the library's tests keep one core busy with torch, the browser
tests mostly wait for an app server and chromium to draw. Each browser process gets the same command
line and the same options, collects the browser tests alone and runs the modules it claims: it takes
the next module no process has taken yet (longest first, see LONGEST_FIRST), so the two end about
together whatever the machine's speed. This process leaves the browser tests out, runs the others at a
lower priority (LIBRARY_NICENESS), and at its end waits for both, prints their reports and fails when
one failed.
PLAYGROUND_TESTS_IN_ONE_PROCESS=1 runs everything in one process, one test after another.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "e2e"
HALF = "PLAYGROUND_TESTS_HALF"                          # "browser" in a browser process
CLAIMS = "PLAYGROUND_BROWSER_CLAIMS"                    # the folder where browser processes claim modules
BROWSER_PROCESSES = 2
# This process's niceness while browser processes run beside it: the browser tests wait on an app server
# and chromium drawing in time, the library's tests on nothing but the CPU, so these yield it first.
LIBRARY_NICENESS = 5
# Modules that take longest (measured on a 2-core machine), claimed first so that no process starts a
# long one while the other is about to end; every other module follows in collection order.
LONGEST_FIRST = ("test_lessons_in_browser", "test_class_walk_in_browser", "test_rooms_in_browser",
                 "test_restart_in_browser", "test_app_in_browser", "test_train_in_browser",
                 "test_examples_in_browser", "test_llms_in_browser", "test_links_in_browser",
                 "test_explaining_in_browser", "test_views_in_browser", "test_tab_order_in_browser",
                 "test_training_line_in_browser", "test_class_room_in_browser", "test_class_session_in_browser",
                 "test_lesson_beside_train_in_browser", "test_generate_in_browser", "test_opening_in_browser",
                 "test_security_in_browser", "test_labs_in_browser")
ONE_PROCESS = "PLAYGROUND_TESTS_IN_ONE_PROCESS"
INTERRUPTED, NO_TESTS_COLLECTED = 2, 5                   # pytest.ExitCode's
STOP_SECONDS = 60


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _run_paths(config) -> list[Path]:
    """The files and folders the run was given (a test id's file for a test id)."""
    base = config.invocation_params.dir
    return [(base / arg.split("::")[0]).resolve() for arg in config.args]


def _asks_for_both(session) -> bool:
    """Whether this run would collect browser tests and others, and can hand the browser tests on."""
    config = session.config
    if os.environ.get(ONE_PROCESS) or os.environ.get(HALF) or config.option.collectonly:
        return False
    if getattr(config.option, "xmlpath", None):         # one JUnit file: one process writes it
        return False
    ignored = [Path(path).resolve() for path in config.getoption("ignore") or []]
    if any(_inside(BROWSER_TESTS, path) for path in ignored):
        return False
    paths = _run_paths(config)
    browser = any(_inside(BROWSER_TESTS, path) or _inside(path, BROWSER_TESTS) for path in paths)
    others = any(not _inside(path, BROWSER_TESTS) for path in paths)
    return browser and others


def runs_browser_tests_alone(config) -> bool:
    """Whether this process runs browser tests and nothing else."""
    if os.environ.get(HALF) == "browser":
        return True
    return all(_inside(path, BROWSER_TESTS) for path in _run_paths(config))


class BrowserProcess:
    """A browser process, running the modules it claims of the browser tests of this run's command line."""

    def __init__(self, config, claims: str):
        self.output = tempfile.TemporaryFile()
        env = {**os.environ, HALF: "browser", CLAIMS: claims}
        self.process = subprocess.Popen([sys.executable, "-m", "pytest", *config.invocation_params.args],
                                        cwd=config.invocation_params.dir, env=env, stdout=self.output,
                                        stderr=subprocess.STDOUT)

    def wait(self) -> int:
        return self.process.wait()

    def report(self) -> str:
        self.output.seek(0)
        return self.output.read().decode(errors="replace")

    def stop(self) -> int:
        """End the process if it still runs (this run was interrupted); its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)           # as Ctrl-C: its fixtures stop its servers
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait()

    def close(self) -> None:
        self.stop()
        self.output.close()


_browser_processes: list[BrowserProcess] = []
_claims: tempfile.TemporaryDirectory | None = None


def pytest_collection(session) -> None:
    """Start the browser processes before this one collects, when the run asks for both."""
    global _claims
    if _asks_for_both(session):
        _claims = tempfile.TemporaryDirectory(prefix="playground-browser-claims-")
        _browser_processes[:] = [BrowserProcess(session.config, _claims.name) for _ in range(BROWSER_PROCESSES)]
        os.nice(LIBRARY_NICENESS)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """This process leaves the browser tests to the browser processes; they keep to them."""
    path = Path(collection_path).resolve()
    if _browser_processes and _inside(path, BROWSER_TESTS):
        return True
    if os.environ.get(HALF) == "browser" and not (_inside(path, BROWSER_TESTS) or _inside(BROWSER_TESTS, path)):
        return True
    return None


def keep_own_half(config, items: list) -> None:
    """Deselect the other processes' tests among those collected here: files named on the command line
    are collected whatever pytest_ignore_collect says."""
    if not _browser_processes and os.environ.get(HALF) != "browser":
        return
    browser_half = os.environ.get(HALF) == "browser"
    kept = [item for item in items if _inside(Path(item.path).resolve(), BROWSER_TESTS) == browser_half]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def by_module(items: list) -> list[list]:
    """The items grouped by module, the modules of LONGEST_FIRST first, each module's items in order."""
    modules: dict[Path, list] = {}
    for item in items:
        modules.setdefault(Path(item.path), []).append(item)
    rank = {stem: place for place, stem in enumerate(LONGEST_FIRST)}
    return sorted(modules.values(), key=lambda group: rank.get(Path(group[0].path).stem, len(rank)))


def claim_in(folder: str) -> Callable[[list], bool]:
    """A claim on a module in `folder`, shared by the browser processes: True for the first to ask."""
    def claim(group: list) -> bool:
        try:
            os.close(os.open(os.path.join(folder, Path(group[0].path).stem), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True
    return claim


def claimed_items(items: list, claim: Callable[[list], bool]) -> Iterator[tuple]:
    """(item, the item run after it or None) for each item of the modules this process claims, in order.
    The next module is claimed as the last item of a module starts, so that its fixtures shared with the
    next (the app server, the browser) are kept for it."""
    claimed = (item for group in by_module(items) if claim(group) for item in group)
    item = next(claimed, None)
    while item is not None:
        following = next(claimed, None)
        yield item, following
        item = following


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session) -> bool | None:
    """A browser process started by this module runs the modules it claims, as pytest's own loop runs
    every item (its collection errors, -x and stops alike); the rest are deselected."""
    folder = os.environ.get(CLAIMS)
    if not folder or os.environ.get(HALF) != "browser" or session.config.option.collectonly:
        return None
    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        raise session.Interrupted(f"{session.testsfailed} error{'s' * (session.testsfailed != 1)} during collection")
    ran = set()
    for item, following in claimed_items(session.items, claim_in(folder)):
        ran.add(item)
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=following)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)
    session.config.hook.pytest_deselected(items=[item for item in session.items if item not in ran])
    return True


def pytest_sessionfinish(session) -> None:
    """Wait for the browser processes; the run fails when any failed."""
    for browser in _browser_processes:
        code = browser.stop() if session.exitstatus == INTERRUPTED else browser.wait()
        if code not in (0, NO_TESTS_COLLECTED) and session.exitstatus in (0, NO_TESTS_COLLECTED):
            session.exitstatus = code
        elif code == 0 and session.exitstatus == NO_TESTS_COLLECTED:
            session.exitstatus = 0


def pytest_terminal_summary(terminalreporter) -> None:
    """The browser processes' own reports, after this one's."""
    for number, browser in enumerate(_browser_processes, 1):
        if browser.process.returncode is None:
            continue
        code, count = browser.process.returncode, len(_browser_processes)
        terminalreporter.write_sep("=", f"browser tests (tests/e2e), process {number} of {count}, run beside: "
                                        f"exit code {code}")
        terminalreporter.write(browser.report())


def pytest_unconfigure() -> None:
    global _claims
    for browser in _browser_processes:
        browser.close()
    _browser_processes.clear()
    if _claims is not None:
        _claims.cleanup()
        _claims = None
