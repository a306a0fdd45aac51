"""A student whose Start waits for a training slot sees their place in line and an estimate of the
wait (one slot here, PLAYGROUND_TRAINING_SLOTS=1, two students pressing Start), and on ZeroGPU (the app
served with the real `spaces` against a fake control API) so does a third: none is told the queue is
full. Screenshots: tests/e2e/screenshots/train-waiting.png, train-waiting-zerogpu.png."""
import os
import re
import signal
import subprocess
import sys

import pytest

from playground.bench.zerogpu_class import children
from playground.bench.zerogpu_platform import Answer, ControlApi, platform_environment

from .conftest import REPO, AppServer, require_chromium
from .pages import markdown, open_page, screenshot, wait_until


@pytest.fixture(scope="module")
def one_slot_app(pretrained_dir, tmp_path_factory):
    server = AppServer(pretrained_dir, tmp_path_factory.mktemp("slots") / "app.log",
                       env={"PLAYGROUND_TRAINING_SLOTS": "1"})
    yield server
    server.stop()


def test_a_waiting_student_sees_their_place_in_line_and_an_estimate(one_slot_app, browser, screenshots):
    first = open_page(browser, one_slot_app.url, "en-US", tab="train")
    second = open_page(browser, one_slot_app.url, "en-US", tab="train")
    first.click("#train-start")
    wait_until(lambda: re.search(r"step \*?\*?\d", markdown(first, "train-status")), "the first run's progress")
    second.click("#train-start")
    waiting = second.locator("#train-curves .progress-text, #train-curves .meta-text")
    wait_until(lambda: waiting.count() and "queue" in waiting.first.inner_text(), "the queue's place shown")
    shown = " ".join(waiting.all_inner_texts())
    assert re.search(r"queue: 1/1", shown), shown
    status = markdown(second, "train-status")
    assert "Waiting" in status and re.search(r"about \d+ s", status), status
    screenshot(second, screenshots, "train-waiting")
    first.click("#train-stop")
    second.click("#train-stop")
    first.context.close()
    second.context.close()


class ZeroGpuServer(AppServer):
    """The app served as on a ZeroGPU Space (playground.bench.zerogpu_app) against the fake control API
    at `api_url`, with one training slot; `stop` also ends the GPU workers `spaces` forked."""

    def __init__(self, pretrained_dir, log_path, api_url: str):
        super().__init__(pretrained_dir, log_path, env={**platform_environment(api_url), "PLAYGROUND_DEVICE": "",
                                                        "PLAYGROUND_TRAINING_SLOTS": "1"})

    def _start(self) -> None:
        self._ready = False
        self._tries += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "playground.bench.zerogpu_app"], cwd=REPO,
                                            env=self._env, stdout=log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        workers = children(self.process.pid)
        super().stop()
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="module")
def zero_gpu_app(pretrained_dir, tmp_path_factory):
    require_chromium()
    with ControlApi([Answer("queue", queue_s=1.0)]) as api:
        server = ZeroGpuServer(pretrained_dir, tmp_path_factory.mktemp("zerogpu") / "app.log", api.url)
        yield server
        server.stop()


def test_on_zero_gpu_each_waiting_student_sees_their_own_place_and_an_estimate(zero_gpu_app, browser, screenshots):
    students = [open_page(browser, zero_gpu_app.url, "en-US", tab="train") for _ in range(3)]
    students[0].click("#train-start")
    wait_until(lambda: re.search(r"step \*?\*?\d", markdown(students[0], "train-status")), "the first run's progress",
               seconds=180)
    for place, student in enumerate(students[1:], start=1):
        student.click("#train-start")
        status = wait_until(lambda: (lambda shown: "Waiting" in shown and shown)(markdown(student, "train-status")),
                            f"student {place + 1} told their place")
        assert f"number {place} in line" in status and re.search(r"about \d+ s", status), status
        waiting = student.locator("#train-curves .progress-text, #train-curves .meta-text")
        wait_until(lambda: waiting.count() and "queue" in waiting.first.inner_text(), "the queue's place on the chart")
        assert f"queue: {place}/{place}" in " ".join(waiting.all_inner_texts())
    assert not any(student.locator(".toast-body.error").count() for student in students)   # no "Queue is full"
    screenshot(students[2], screenshots, "train-waiting-zerogpu")
    for student in students:
        student.click("#train-stop")
    for student in students:
        student.context.close()
