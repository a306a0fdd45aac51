"""The class room in a real browser: a teacher opens a room from the main page's header, three students
(English and Chinese laptops, and a phone at 390x844) join by the link the QR code holds, guess the next
character (typed, and picked from the model's vocabulary on the phone), and the board shows how many
answered and the histogram live, then the reveal; closing the room tells the students. Screenshots of the
board at 1280x720 and 1920x1080 and of the phone go to tests/e2e/screenshots/."""
import re

import pytest

from playground.ui.page.qr import qr_svg

from .pages import WAIT_SECONDS, drawn, markdown, open_page, screenshot, wait_until

PASSAGE = "To be, or not to be, that is the question"        # the class guesses its last character, "n"
NAVBAR_SHOWN_JS = ("() => [...document.querySelectorAll('a, button')]"
                   ".some((e) => e.innerText.trim() === 'Home' && e.offsetParent)")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def url(app):
    return app.url


def student(browser, link: str, locale: str, **context):
    """A student's browser at `link`, joined."""
    ctx = browser.new_context(locale=locale, **({"viewport": {"width": 1280, "height": 720}} | context))
    ctx.set_default_timeout(WAIT_SECONDS * 1000)
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_function("() => document.querySelector('#room-code input, #room-code textarea')?.value.length > 0")
    page.click("#room-join-button")
    page.wait_for_selector("#room-play", state="visible")
    return page


def guessed(page, value: str, pick: bool = False) -> None:
    if pick:                                   # from the model's vocabulary, as on a phone
        page.click("#room-pick input")
        page.fill("#room-pick input", value)
        page.click(f"[role=option][aria-label='{value}']")
    else:
        page.fill("#room-guess textarea, #room-guess input", value)
    page.click("#room-send")


def field_labels(page) -> tuple[str, str]:
    """The labels of a student's guess box and picker."""
    return tuple(page.inner_text(f"#{elem_id} [data-testid=block-info]").strip() for elem_id in ("room-guess", "room-pick"))


def test_a_class_guesses_with_the_model(browser, url, screenshots):
    teacher = open_page(browser, url, "en-US", tab="lessons")
    assert not teacher.evaluate(NAVBAR_SHOWN_JS)              # the room's pages add no bar of page links
    with teacher.context.expect_page() as opened:
        teacher.click("#class-room")
    board = opened.value
    board.wait_for_load_state()
    assert "/room-board" in board.url
    board.wait_for_selector("#room-open")
    assert not board.evaluate(NAVBAR_SHOWN_JS)
    board.click("#room-open")
    board.wait_for_selector("#room-code-big")
    code = board.inner_text("#room-code-big").strip()
    assert re.fullmatch(r"[A-Z2-9]{5}", code)
    link = board.inner_text("#room-join .room-link").split(" ", 2)[-1].strip()
    assert link.endswith(f"/room?code={code}")
    assert board.inner_html("#room-join svg").count("<path") == qr_svg(link).count("<path")     # the QR holds it

    laptop = student(browser, link, "en-US")
    chinese = student(browser, link, "zh-CN")
    phone = student(browser, link, "en-US", **PHONE)
    assert "Waiting for the teacher" in markdown(laptop, "room-round")
    assert "等老师" in markdown(chinese, "room-round")

    board.click("#room-model input")
    board.click("[role=option][aria-label='shakespeare-char']")
    board.fill("#room-passage textarea", PASSAGE)
    board.click("#room-start")
    for page in (laptop, chinese, phone):
        wait_until(lambda: "to be, that is the questio" in markdown(page, "room-round"), "the round on a student")
    assert field_labels(phone) == ("Your guess for the next token", "Or pick from the model's vocabulary")
    assert field_labels(chinese) == ("你对下一个词元的猜测", "或从模型的词表中选")
    guessed(laptop, "n")
    guessed(chinese, "e")
    guessed(phone, "n", pick=True)
    wait_until(lambda: "3 of 3" in markdown(board, "room-status"), "three answers on the board", 15)
    bars = drawn(board, "room-histogram", lambda fig: max(fig["traces"][0]["y"]) > 0.6)["traces"]
    assert dict(zip(bars[0]["x"], bars[0]["y"]))["n"] == pytest.approx(2 / 3)        # class: 2 of 3 chose n
    assert dict(zip(bars[1]["x"], bars[1]["y"]))["n"] > 0.5                          # the model's probability
    assert "Your guess: **n**" in phone.evaluate("() => document.querySelector('#room-mine').innerText") or \
        "Your guess: n" in markdown(phone, "room-mine")
    screenshot(board, screenshots, "room-board-1280x720")
    board.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(board, screenshots, "room-board-1920x1080")
    board.set_viewport_size({"width": 1280, "height": 720})
    phone.screenshot(path=str(screenshots / "room-phone-390x844.png"))

    board.click("#room-reveal")
    wait_until(lambda: "The next token was n" in markdown(board, "room-revealed"), "the reveal on the board")
    assert "67% chose it" in markdown(board, "room-revealed")
    board.wait_for_selector("#room-attention .js-plotly-plot")
    assert "Class against model" in markdown(board, "room-match")
    wait_until(lambda: "下一个词元是" in markdown(chinese, "room-mine"), "the reveal in Chinese")
    wait_until(lambda: "✓" in markdown(phone, "room-mine"), "the phone's own record")
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(board, screenshots, "room-board-revealed-1280x720")
    phone.screenshot(path=str(screenshots / "room-phone-revealed-390x844.png"))

    # a lesson's check question as a class poll: the phone picks its answer in the list
    board.click("#room-poll-pick input")
    board.click("[role=option][aria-label='4 · Attention by hand: check question']")
    board.click("#room-run-poll")
    wait_until(lambda: "class poll" in markdown(board, "room-status"), "the poll on the board")
    wait_until(lambda: phone.is_visible("#room-guessing"), "the poll on the phone")
    wait_until(lambda: field_labels(phone) == ("Your answer to the question", "Or pick one of the answers"),
               "a poll's answer fields on the phone")
    wait_until(lambda: field_labels(chinese) == ("你对这道题的答案", "或从答案中选一个"), "the poll's fields in Chinese")
    phone.screenshot(path=str(screenshots / "room-phone-poll-answer-390x844.png"))
    phone.click("#room-pick input")
    phone.locator("[role=option]").first.click()
    phone.click("#room-send")
    wait_until(lambda: "1 of 3" in markdown(board, "room-status"), "the phone's answer on the board")
    board.click("#room-reveal")
    wait_until(lambda: "The answer:" in markdown(board, "room-revealed"), "the poll's reveal")
    screenshot(board, screenshots, "room-board-poll-1280x720")
    phone.screenshot(path=str(screenshots / "room-phone-poll-390x844.png"))

    board.click("#room-close")
    wait_until(lambda: "closed by the teacher" in markdown(laptop, "room-message"), "the closed room on a student")
    again = laptop.context.new_page()
    again.goto(f"{url}?room={code}")
    again.wait_for_url(re.compile(rf"/room\?code={code}"))
    wait_until(lambda: "closed by the teacher" in markdown(again, "room-message"), "a closed room's old link")
