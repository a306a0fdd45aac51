"""On ZeroGPU (the app served with the real `spaces` against a fake control API, the workers training on
this machine's CPU) a student's run shows its progress while its GPU call goes on, and Stop ends the run
within that call, keeping every step it showed. Screenshot: tests/e2e/screenshots/train-zerogpu-stopped.png."""
import re

from .pages import markdown, open_page, screenshot, wait_until

STEP = re.compile(r"step \*?\*?(\d+)")


def shown_step(page) -> int | None:
    found = STEP.search(markdown(page, "train-status"))
    return int(found.group(1)) if found else None


def test_on_zero_gpu_progress_streams_and_stop_ends_the_call_under_way(zero_gpu_app, browser, screenshots):
    student = open_page(browser, zero_gpu_app.url, "en-US", tab="train")
    student.click("#train-start")
    first = wait_until(lambda: shown_step(student), "the run's first point", seconds=180)
    later = wait_until(lambda: (shown_step(student) or 0) > first and shown_step(student), "a later point")
    student.locator("#train-stop").dispatch_event("click")
    status = wait_until(lambda: (lambda shown: "Stopped" in shown and shown)(markdown(student, "train-status")),
                        "the run stopped")
    assert shown_step(student) >= later, status                    # every step shown is kept
    assert not student.locator(".toast-body.error").count()        # Stop did not give up on the call
    screenshot(student, screenshots, "train-zerogpu-stopped")
    student.context.close()
