"""The browser tests (tests/e2e) run beside the others, in two more pytest processes, when one run
asks for both (`python -m pytest -q tests`).

The halves wait on different things: the library's tests keep one core busy with torch, the browser
tests mostly wait for an app server and chromium to draw, so the browser tests are split in two parts
(by module, FIRST_PART and the rest), each with its own app server and chromium. Each browser process
gets the same command line and the same options and collects its part of the browser tests alone;
this one leaves them out, and at its end waits for both, prints their reports and fails when one
failed. PLAYGROUND_TESTS_IN_ONE_PROCESS=1 runs everything in one process, one test after another.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "e2e"
HALF = "PLAYGROUND_TESTS_HALF"                          # "browser" in a browser process
PART = "PLAYGROUND_BROWSER_PART"                        # which part of the browser tests it runs: 1 or 2
PARTS = (1, 2)
# The modules of the first part: about half the browser tests' time (measured on a 2-core machine); any
# other module runs in the second part.
FIRST_PART = frozenset({
    "test_rooms_in_browser", "test_lessons_in_browser", "test_train_in_browser",
    "test_explaining_in_browser", "test_generate_in_browser", "test_security_in_browser", "test_labs_in_browser",
    "test_sharing_in_browser", "test_layer_grads_in_browser", "test_inside_in_browser",
    "test_idle_frames_in_browser", "test_zerogpu_progress_in_browser", "test_hub_llm_in_browser",
    "test_training_line_in_browser", "test_presenter_labels_in_browser", "test_lesson_beside_train_in_browser",
})
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


def part_of(path: Path) -> int:
    """The part of the browser tests that the module at `path` belongs to."""
    return 1 if Path(path).stem in FIRST_PART else 2


class BrowserHalf:
    """A browser process, running `part` of the browser tests of this run's command line."""

    def __init__(self, config, part: int):
        self.part = part
        self.output = tempfile.TemporaryFile()
        env = {**os.environ, HALF: "browser", PART: str(part)}
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


_halves: list[BrowserHalf] = []


def pytest_collection(session) -> None:
    """Start the browser processes before this half collects, when the run asks for both."""
    if _asks_for_both(session):
        _halves[:] = [BrowserHalf(session.config, part) for part in PARTS]


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """This half leaves the browser tests to the second process; the second process keeps to them."""
    path = Path(collection_path).resolve()
    if _halves and _inside(path, BROWSER_TESTS):
        return True
    if os.environ.get(HALF) == "browser" and not (_inside(path, BROWSER_TESTS) or _inside(BROWSER_TESTS, path)):
        return True
    return None


def keep_own_half(config, items: list) -> None:
    """Deselect the other processes' tests among those collected here (files named on the command line
    are collected whatever pytest_ignore_collect says); a browser process keeps its part."""
    if not _halves and os.environ.get(HALF) != "browser":
        return
    browser_half = os.environ.get(HALF) == "browser"
    part = int(os.environ.get(PART) or 0)         # none: every browser test (a browser process started by hand)
    kept = [item for item in items if _inside(Path(item.path).resolve(), BROWSER_TESTS) == browser_half
            and not (browser_half and part and part_of(item.path) != part)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def pytest_sessionfinish(session) -> None:
    """Wait for the browser processes; the run fails when any process failed."""
    for half in _halves:
        code = half.stop() if session.exitstatus == INTERRUPTED else half.wait()
        if code not in (0, NO_TESTS_COLLECTED) and session.exitstatus in (0, NO_TESTS_COLLECTED):
            session.exitstatus = code
        elif code == 0 and session.exitstatus == NO_TESTS_COLLECTED:
            session.exitstatus = 0


def pytest_terminal_summary(terminalreporter) -> None:
    """The browser processes' own reports, after this half's."""
    for half in _halves:
        if half.process.returncode is None:
            continue
        terminalreporter.write_sep("=", f"browser tests (tests/e2e), part {half.part} of {len(PARTS)}, run beside: "
                                        f"exit code {half.process.returncode}")
        terminalreporter.write(half.report())


def pytest_unconfigure() -> None:
    for half in _halves:
        half.stop()
        half.output.close()
    _halves.clear()
