"""Nothing a learner did is lost when the server restarts (a Space restarts on every sleep, rebuild
and update): the browser keeps the lesson and its answers under the app's fixed secret, and a new
server process at the same address reads them back."""
from .conftest import AppServer, free_port
from .pages import markdown, open_page, wait_until

LESSON = "?view=lessons&lesson=masks&lang=en"


def test_a_restarted_server_finds_the_lesson_and_the_answers_the_browser_kept(pretrained_dir, browser, tmp_path):
    port = free_port()
    first = AppServer(pretrained_dir, tmp_path / "first.log", port)
    page = open_page(browser, first.url + LESSON, "en-US")
    try:
        title = wait_until(lambda: markdown(page, "lesson-title"), "the linked lesson")
        page.locator("#lesson-answer label").nth(1).click()
        feedback = wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
        page.wait_for_timeout(1000)                           # the browser writes its record after the event
        first.stop()
        second = AppServer(pretrained_dir, tmp_path / "second.log", port)
        try:
            page.goto(second.url)                              # the plain address: the browser's own lesson
            wait_until(lambda: markdown(page, "lesson-title") == title, "the kept lesson after the restart")
            wait_until(lambda: markdown(page, "lesson-feedback") == feedback, "the kept answer's feedback")
            assert page.locator("#lesson-answer input").nth(1).is_checked()
        finally:
            second.stop()
    finally:
        page.context.close()
