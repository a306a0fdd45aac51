"""A student whose Start waits for a training slot sees their place in line and an estimate of the
wait (one slot here, PLAYGROUND_TRAINING_SLOTS=1, two students pressing Start). Screenshot:
tests/e2e/screenshots/train-waiting.png."""
import re

import pytest

from .conftest import AppServer
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
