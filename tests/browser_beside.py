"""The browser tests (tests/e2e) run beside the others, in a second pytest process, when one run asks
for both (`python -m pytest -q tests`).

The halves wait on different things: the library's tests keep one core busy with torch, the browser
tests mostly wait for an app server and chromium to draw. The second process gets the same command
line and the same options and collects the browser tests alone; this one leaves them out, and at its
end waits for the second, prints its report and fails when it failed.
PLAYGROUND_TESTS_IN_ONE_PROCESS=1 runs everything in one process, one test after another.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "e2e"
HALF = "PLAYGROUND_TESTS_HALF"                          # "browser" in the second process
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


class BrowserHalf:
    """The second pytest process, running the browser tests of this run's command line."""

    def __init__(self, config):
        self.output = tempfile.TemporaryFile()
        env = {**os.environ, HALF: "browser"}
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


_half: BrowserHalf | None = None


def pytest_collection(session) -> None:
    """Start the browser half before this half collects, when the run asks for both."""
    global _half
    if _asks_for_both(session):
        _half = BrowserHalf(session.config)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """This half leaves the browser tests to the second process; the second process keeps to them."""
    path = Path(collection_path).resolve()
    if _half is not None and _inside(path, BROWSER_TESTS):
        return True
    if os.environ.get(HALF) == "browser" and not (_inside(path, BROWSER_TESTS) or _inside(BROWSER_TESTS, path)):
        return True
    return None


def keep_own_half(config, items: list) -> None:
    """Deselect the other half's tests among those collected here: files named on the command line
    are collected whatever pytest_ignore_collect says."""
    if _half is None and os.environ.get(HALF) != "browser":
        return
    browser_half = os.environ.get(HALF) == "browser"
    kept = [item for item in items if _inside(Path(item.path).resolve(), BROWSER_TESTS) == browser_half]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def pytest_sessionfinish(session) -> None:
    """Wait for the browser half; the run fails when either half failed."""
    if _half is None:
        return
    code = _half.stop() if session.exitstatus == INTERRUPTED else _half.wait()
    if code not in (0, NO_TESTS_COLLECTED) and session.exitstatus in (0, NO_TESTS_COLLECTED):
        session.exitstatus = code
    elif code == 0 and session.exitstatus == NO_TESTS_COLLECTED:
        session.exitstatus = 0


def pytest_terminal_summary(terminalreporter) -> None:
    """The browser half's own report, after this half's."""
    if _half is None or _half.process.returncode is None:
        return
    terminalreporter.write_sep("=", f"browser tests (tests/e2e), run beside: exit code {_half.process.returncode}")
    terminalreporter.write(_half.report())


def pytest_unconfigure() -> None:
    global _half
    if _half is not None:
        _half.stop()
        _half.output.close()
        _half = None
