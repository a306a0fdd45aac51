"""A student whose Start waits for a training slot sees their place in line and an estimate of the
wait (one slot here: `busy_space_app`, two students pressing Start), and on ZeroGPU (the app served
with the real `spaces` against a fake control API) so does a third: none is told the queue is full.
Screenshots: tests/e2e/screenshots/train-waiting.png, train-waiting-zerogpu.png."""
import re

from .pages import markdown, open_page, screenshot, wait_until


def stop_if_running(page) -> None:
    """Stop the page's run, if it still runs. The click is sent to the button itself, without Playwright's
    wait until the button takes clicks: on a loaded machine, where the first run had ended by itself,
    that wait ran out (30 s) after every check had passed."""
    page.locator("#train-stop").dispatch_event("click")


def test_a_waiting_student_sees_their_place_in_line_and_an_estimate(busy_space_app, browser, screenshots):
    first = open_page(browser, busy_space_app.url, "en-US", tab="train")
    second = open_page(browser, busy_space_app.url, "en-US", tab="train")
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
    for student in (first, second):            # a loaded machine may have ended the first run by itself
        stop_if_running(student)
    first.context.close()
    second.context.close()


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
    for student in students:                   # a loaded machine may have ended a run by itself
        stop_if_running(student)
    for student in students:
        student.context.close()
