"""What a student sees when the server must refuse: a full server tells the newcomer (the students
already there keep working), an overlong link gets the app's own page, and a right-to-left override
in a link shows as its code point in the note instead of reversing the sentence."""
from .pages import (POOL, WAIT_SECONDS, address, error_toast, markdown, no_error_toast, open_page, page_at,
                    screenshot, wait_until)


def test_a_newcomer_to_a_full_server_is_told_and_the_student_keeps_working(small_app, browser, screenshots):
    student = open_page(browser, small_app.url + "?view=attention", "en-US")
    newcomer = page_at(browser, small_app.url + "?view=attention", "zh-CN")
    newcomer.wait_for_selector(".toast-body.error", state="visible")
    newcomer.wait_for_timeout(600)                         # the toast slides in
    newcomer.screenshot(path=str(screenshots / "server_full_newcomer_zh.png"))
    message = error_toast(newcomer)
    assert "无法为你打开会话" in message and "（1 名）" in message
    box = student.locator("#attention-layer input[type=number]")
    box.fill("1")
    box.press("Enter")
    wait_until(lambda: "layer=1" in address(student), "the student's view to follow the layer")
    no_error_toast(student)


def test_an_override_in_a_link_shows_as_its_code_point(app, browser, screenshots):
    page = open_page(browser, app.url + "?view=attention&kind=%E2%80%AEredoced", "en-US")
    note = markdown(page, "link-note")
    screenshot(page, screenshots, "link_note_bidi_override")
    assert "<U+202E>redoced" in note and "\u202e" not in note


def test_an_overlong_link_gets_the_apps_own_page(app, browser, screenshots):
    page = POOL.take(browser, "en-US")
    response = page.goto(app.url + "?view=attention&text=" + "a" * 40_000)
    path = screenshots / "link_too_long.png"
    page.screenshot(path=str(path))
    assert response.status == 414 and "KB long" in page.inner_text("body")
    page.click("text=Open the Transformer Playground without it")
    page.wait_for_selector("#tabs", timeout=2 * WAIT_SECONDS * 1000)
