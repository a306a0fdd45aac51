"""One app server (`python app.py` on a free localhost port), shared by every browser test, and a
headless Debian chromium (one for the run where it runs browser tests alone, else one a module).

The app serves the repository's pretrained/ models when there are any, else tiny ones built
here. A missing /usr/bin/chromium skips the tests on a developer machine and fails them in CI
(where $CI is set); tests/install_chromium.sh installs it and the CJK font.
"""
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import torch

from playground.bench.zerogpu_class import end, workers_of
from playground.bench.zerogpu_platform import Answer, ControlApi, platform_environment
from playground.checkpoint import MODEL_FILE, save
from playground.data import CharTokenizer, tasks
from playground.model import ModelConfig, build_model

from .pages import POOL

REPO = Path(__file__).resolve().parents[2]
SERVER_SITE = Path(__file__).resolve().parent / "server_site"     # its sitecustomize: a patient self-check
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
SERVER_START_SECONDS = 240            # a busy 2-core machine, the other half of the suite beside
# Gradio's launch asks its own page for a HEAD within 3 s and gives up ("localhost is not accessible")
# when a busy machine answers later (server_site/sitecustomize.py makes it wait longer in the servers
# started here): such a start is tried again, up to START_TRIES in all. The page
# answers before that check ends, so a server is ready once launch has said the check passed (or once
# the check has had SELF_CHECK_SECONDS, its 5 tries of at most 3.5 s, where launch says nothing).
SLOW_SELF_CHECK = "When localhost is not accessible"
SELF_CHECK_PASSED = "To create a public link"
SELF_CHECK_SECONDS = 20
READY_REQUEST_SECONDS = 60
START_TRIES = 3
# A server that a signal ends before it has served its page (no error of its own: its log would show one)
# is started again too; once in a suite run a server ended before serving with nothing in its log.
KILLED = (-signal.SIGKILL, -signal.SIGTERM)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tiny_models(directory: Path) -> Path:
    """A copy model (encoder-decoder) and a letters model (decoder-only), untrained and small."""
    letters = CharTokenizer("abcdefghij ")
    copy = tasks.get("copy")
    models = {
        "copy": (ModelConfig(arch="encoder_decoder", vocab_size=copy.tokenizer.vocab_size, d_model=16, n_heads=2,
                             n_encoder_layers=1, n_decoder_layers=2, d_ff=32, max_len=16), copy.tokenizer),
        "tiny-gpt": (ModelConfig(arch="decoder_only", vocab_size=letters.vocab_size, d_model=16, n_heads=2,
                                 n_decoder_layers=2, d_ff=32, max_len=24, positional="learned"), letters),
    }
    for name, (config, tokenizer) in models.items():
        torch.manual_seed(0)
        save(directory / name, build_model(config), tokenizer, card=f"# {name}\nA tiny model for browser tests.")
    return directory


@pytest.fixture(scope="session")
def pretrained_dir(tmp_path_factory) -> Path:
    shipped = REPO / "pretrained"
    if any(shipped.glob(f"*/{MODEL_FILE}")):
        return shipped
    return _tiny_models(tmp_path_factory.mktemp("pretrained"))


def screenshot_directory() -> Path:
    """Where screenshots go: $PLAYGROUND_SCREENSHOTS, else tests/e2e/screenshots/ (ignored by git)."""
    directory = Path(os.environ.get("PLAYGROUND_SCREENSHOTS") or Path(__file__).parent / "screenshots")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture(scope="session")
def screenshots() -> Path:
    return screenshot_directory()


class AppServer:
    """`python app.py` on a free localhost port (or `port`), started at once or, with `boot=False`, by the
    first `url`, which waits until the page answers 200 (one thread at a time).
    `env`: variables of the server's environment beside the usual ones (a test's own server)."""

    def __init__(self, pretrained_dir: Path, log_path: Path, port: int | None = None, env: dict | None = None,
                 boot: bool = True):
        port = port or free_port()
        self._env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port),
                     "PLAYGROUND_PRETRAINED_DIR": str(pretrained_dir), "GRADIO_ANALYTICS_ENABLED": "False",
                     "PYTHONPATH": os.pathsep.join([str(SERVER_SITE), str(REPO)]), **(env or {})}
        self._first_log = self.log_path = log_path
        self._url = f"http://127.0.0.1:{port}/"
        self._restarts = self._tries = 0
        self._lock = threading.Lock()
        self.process = None
        if boot:
            self._start()

    def _start(self) -> None:
        self._ready = False
        self._tries += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=self._env, stdout=log,
                                            stderr=subprocess.STDOUT)

    def restart(self) -> None:
        """Stop the server and start `python app.py` again at the same address with the same
        environment, as a Space restarts (a new process: nothing of the old one's memory is left);
        `url` waits for it. Its log is the first one's name with `.restart-N`."""
        self.stop()
        self._restarts += 1
        self.log_path = self._first_log.with_suffix(f".restart-{self._restarts}.log")
        self._tries = 0
        self._start()

    @property
    def url(self) -> str:
        with self._lock:
            if self.process is None:
                self._start()
            return self._wait_until_served()

    def _wait_until_served(self) -> str:
        deadline = time.monotonic() + SERVER_START_SECONDS
        answered = None                                     # when the page first answered 200
        self._ready = self._ready and self.process.poll() is None    # a late failed self-check ends it
        while not self._ready:
            try:                 # one request at a time: ones given up on would queue before Gradio's own
                with urllib.request.urlopen(self._url, timeout=READY_REQUEST_SECONDS) as response:
                    answered = answered or (time.monotonic() if response.status == 200 else None)
            except OSError:
                pass
            log = self.log_path.read_text()
            self._ready = answered is not None and self.process.poll() is None and (
                SELF_CHECK_PASSED in log or time.monotonic() - answered > SELF_CHECK_SECONDS)
            ended = None if self._ready else self.process.poll()
            if ended is not None and self._tries < START_TRIES and (SLOW_SELF_CHECK in log or ended in KILLED):
                self._start()           # the machine was too busy for Gradio's self-check, or a signal ended it
                answered = None
            elif not self._ready and (ended is not None or time.monotonic() > deadline):
                pytest.fail(f"app.py did not serve {self._url} (exit code {ended}):\n{log[-3000:]}")
            time.sleep(0 if self._ready else 0.25)
        return self._url

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def app(pretrained_dir, tmp_path_factory):
    """The app server of every browser test (starting; it boots while the browser starts). Each test
    works in browser contexts of its own, so in sessions of its own, as a class's students do."""
    require_chromium()
    server = AppServer(pretrained_dir, tmp_path_factory.mktemp("app") / "app.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def offline_app(pretrained_dir, tmp_path_factory):
    """The app on a machine where tiny Shakespeare is neither found nor downloadable (the path the
    environment names is missing), as in a classroom without a network. Tests that restart a server
    restart this one (`AppServer.restart`) and leave it serving: one boot a restart, not two."""
    require_chromium()
    folder = tmp_path_factory.mktemp("offline")
    server = AppServer(pretrained_dir, folder / "app.log", env={"PLAYGROUND_SHAKESPEARE": str(folder / "absent.txt"),
                                                                "XDG_CACHE_HOME": str(folder / "cache")}, boot=False)
    yield server
    server.stop()


SPACE_ID, SPACE_HOST = "teacher/playground-demo", "teacher-playground-demo.hf.space"
DRAW_DELAY_S = 3.0
# Loaded before the busy Space's app: the Attention tab's draw takes DRAW_DELAY_S longer.
SLOW_ATTENTION_DRAW = f"""
import time
from playground.ui.page import wiring
_updates = wiring.TabWiring.updates
def _slow(self, handler, *args, **kwargs):
    if self.view == "attention" and handler is self.draw:
        time.sleep({DRAW_DELAY_S})
    return _updates(self, handler, *args, **kwargs)
wiring.TabWiring.updates = _slow
"""


@pytest.fixture(scope="session")
def busy_space_app(pretrained_dir, tmp_path_factory):
    """The app as on a busy Hugging Face Space: SPACE_ID and SPACE_HOST set (as the platform does), one
    training slot (PLAYGROUND_TRAINING_SLOTS=1), and the Attention tab's draw DRAW_DELAY_S slower. One
    server for the tests of each (sharing a view, the training line, the order of a tab's events),
    which none of the others disturbs."""
    require_chromium()
    folder = tmp_path_factory.mktemp("space")
    (folder / "sitecustomize.py").write_text((SERVER_SITE / "sitecustomize.py").read_text() + SLOW_ATTENTION_DRAW)
    server = AppServer(pretrained_dir, folder / "app.log",
                       env={"SPACE_ID": SPACE_ID, "SPACE_HOST": SPACE_HOST, "PLAYGROUND_TRAINING_SLOTS": "1",
                            "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}, boot=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def small_app(pretrained_dir, tmp_path_factory):
    """A server that keeps a session for one tab only (PLAYGROUND_MAX_SESSIONS=1)."""
    require_chromium()
    server = AppServer(pretrained_dir, tmp_path_factory.mktemp("small") / "app.log", env={"PLAYGROUND_MAX_SESSIONS": "1"},
                       boot=False)
    yield server
    server.stop()


class ZeroGpuServer(AppServer):
    """The app served as on a ZeroGPU Space (playground.bench.zerogpu_app) against the fake control API
    at `api_url`, with one training slot; `stop` also ends the GPU workers `spaces` forked."""

    def __init__(self, pretrained_dir, log_path, api_url: str):
        super().__init__(pretrained_dir, log_path, env={**platform_environment(api_url), "PLAYGROUND_DEVICE": "",
                                                        "PLAYGROUND_TRAINING_SLOTS": "1"}, boot=False)

    def _start(self) -> None:
        self._ready = False
        self._tries += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "playground.bench.zerogpu_app"], cwd=REPO,
                                            env=self._env, stdout=log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        if self.process is None:
            return
        workers = workers_of(self.process.pid)
        super().stop()
        end(workers)


@pytest.fixture(scope="session")
def zero_gpu_app(pretrained_dir, tmp_path_factory):
    """The app as on a ZeroGPU Space, whose fake control API grants every GPU after 1 s in its queue."""
    require_chromium()
    with ControlApi([Answer("queue", queue_s=1.0)]) as api:
        server = ZeroGpuServer(pretrained_dir, tmp_path_factory.mktemp("zerogpu") / "app.log", api.url)
        yield server
        server.stop()


# Servers some tests use: each boots beside the tests shortly before its first test and stops after its last.
BOOTED_BESIDE = ("offline_app", "busy_space_app", "small_app", "zero_gpu_app")
BOOT_AHEAD = 5                  # tests: a server starts booting when a test this near (or nearer) uses it


class ServersBeside:
    """The servers of BOOTED_BESIDE that the run's tests use, each booted in one background thread (one
    boot at a time) once a test that uses it is at most BOOT_AHEAD tests away, and stopped after the
    last test that uses it: an idle Gradio server still takes ~2% of a core (its queue polls), which a
    server kept for the run's last tests pays for twenty minutes."""

    def __init__(self, servers: dict[str, AppServer], items: list):
        self._servers = servers
        self._items = items
        self._users = {name: [i for i, item in enumerate(items) if name in item.fixturenames] for name in servers}
        self._asked: set[str] = set()
        self._queue: queue.Queue = queue.Queue()
        self._booting = threading.Thread(target=self._boot_one_by_one, name="servers-booting", daemon=True)
        self._booting.start()

    def _boot_one_by_one(self) -> None:
        while (server := self._queue.get()) is not None:
            try:
                server.url
            except BaseException:      # pytest.fail: the first test that asks for this url reports it
                pass

    def before(self, item) -> None:
        """Start booting the servers that `item` or one of the next BOOT_AHEAD tests uses."""
        index = self._items.index(item)
        for name, users in self._users.items():
            if name not in self._asked and any(index <= i <= index + BOOT_AHEAD for i in users):
                self._asked.add(name)
                self._queue.put(self._servers[name])

    def after(self, item) -> None:
        """Stop the servers whose last test `item` was."""
        index = self._items.index(item)
        for name, users in self._users.items():
            if users and users[-1] == index:
                self._servers[name].stop()

    def close(self) -> None:
        self._queue.put(None)
        self._booting.join()


@pytest.fixture(scope="session")
def servers_beside(request):
    """The run's ServersBeside, created once the shared app serves (two boots at once would slow both)."""
    used = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    if "app" in used:
        request.getfixturevalue("app").url
    servers = ServersBeside({name: request.getfixturevalue(name) for name in BOOTED_BESIDE if name in used},
                            request.session.items)
    yield servers
    servers.close()


@pytest.fixture(autouse=True)
def servers_boot_beside_the_tests(request, servers_beside):
    """Each test boots the servers that it or the next tests use, and stops those no later test uses."""
    servers_beside.before(request.node)
    yield
    servers_beside.after(request.node)


def require_chromium() -> None:
    """Skip (or, in CI, fail) when Debian's chromium is not installed."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: run tests/install_chromium.sh (as root)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def _browser_scope(fixture_name: str, config) -> str:
    """One browser for the whole run when it runs browser tests alone (the browser half of
    tests/browser_beside.py, or a run of tests/e2e); else one per module: Playwright's sync API runs
    an event loop of its own while it is open, which the tests of asyncio code after the browser tests
    cannot run beside."""
    from tests.browser_beside import runs_browser_tests_alone

    return "session" if runs_browser_tests_alone(config) else "module"


@pytest.fixture(scope=_browser_scope)
def browser():
    """Debian's chromium (one a run or one a module: `_browser_scope`)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module", autouse=True)
def pages_closed_after_module(browser):
    """The browser contexts a module leaves open are closed at its end, or their page given back to
    the pool (`page_pool`, on about:blank): an open page keeps talking to its server, and a browser
    kept for the run would keep every module's."""
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context in before:
            continue
        kept = [page for page in context.pages if POOL.made(page)]
        if kept:
            POOL.give_back(kept[0])               # kept idle, or its context closed
        else:
            context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """The pages a test's body takes from the pool are the test's (a fixture's are its module's)."""
    POOL.lend_to_test(True)
    try:
        yield
    finally:
        POOL.lend_to_test(False)


@pytest.fixture(autouse=True)
def pages_given_back():
    """A test's pages go back to the pool as it ends (after a failure's screenshots)."""
    yield
    POOL.give_back_lent()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves what its pages showed: each open page's address in the report
    and its window as screenshots/failed-<test>-<n>.png, and the end of its servers' logs (a failure
    seen once is then read, not guessed)."""
    outcome = yield
    report = outcome.get_result()
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or browser is None:
        return
    directory = screenshot_directory()
    shown = []
    pages = [page for context in browser.contexts for page in context.pages if not POOL.is_idle(page)]
    for number, page in enumerate(pages):
        path = directory / f"failed-{item.name[:80]}-{number}.png".replace("/", "_")
        try:
            page.screenshot(path=str(path), timeout=10_000)
            shown.append(f"{page.url} -> {path}")
        except Exception as error:               # a page closing or crashed: say so, keep the others
            shown.append(f"{page.url} (no screenshot: {type(error).__name__})")
    report.sections.append(("pages at the failure", "\n".join(shown) or "no page open"))
    for name, server in item.funcargs.items():
        if isinstance(server, AppServer) and server.log_path.is_file():
            report.sections.append((f"{name}'s log, its end", server.log_path.read_text(errors="replace")[-3000:]))


def pytest_terminal_summary(terminalreporter):
    """How many pages the browser tests opened, and how many times one was lent again."""
    if POOL.opened:
        terminalreporter.write_line(f"browser pages: {POOL.opened} opened, lent again {POOL.reused} times")
