"""The Lessons tab in a real browser at 1280x720, in Chinese: walk every lesson with Next, see its
figures drawn, make a prediction (Run waits for it), run the experiment (a live run: until its first
curve, then Stop), answer the check question wrongly then rightly; a reload resumes the last lesson
with its answers, and so does the tab's first opening on a page opened elsewhere; a link opens a
lesson and a bad one opens lesson 1 with a note; the plain address resumes the browser's lesson.
Screenshots of every lesson and of each of its figures (whose titles must fit) go to
$PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/, in Chinese and in English."""
import pytest

from playground.ui.course import LESSONS
from playground.ui.tabs.lessons.layout import STORAGE_KEY

from .pages import (
    CJK,
    address,
    figure,
    markdown,
    open_page,
    open_tab,
    screenshot,
    title_overflow,
    wait_until,
)


@pytest.fixture(scope="module")
def page(app, browser):
    page = open_page(browser, app.url, "zh-CN", tab="lessons")
    yield page
    page.context.close()


def drawn_somehow(page, elem_id: str) -> dict:
    """Wait until `elem_id` shows a figure with data: traces with values, or a drawing of shapes."""
    def ready():
        fig = figure(page, elem_id)
        if fig and (fig["shapes"] or any(t["x"] or t["y"] or t["z"] or t["values"] or t["cells"]
                                         for t in fig["traces"])):
            return fig
        return None
    return wait_until(ready, f"a figure with data in #{elem_id}")


def pick(page, elem_id: str, index: int) -> None:
    page.locator(f"#{elem_id} label").nth(index).click()


def screenshot_figures(page, screenshots, prefix: str, save: bool = True) -> int:
    """Each figure the lesson shows, its title checked to fit inside the figure, saved as
    prefix-figure-K.png at the page's 1280x720 when `save`; the number of figures."""
    shown = 0
    for k in range(6):
        elem_id = f"lesson-figure-{k}"
        locator = page.locator(f"#{elem_id}")
        if not locator.count() or not locator.is_visible():
            continue
        drawn_somehow(page, elem_id)
        assert title_overflow(page, elem_id) <= 1, f"{prefix}: the title of figure {k} is clipped"
        if save:
            locator.screenshot(path=str(screenshots / f"{prefix}-figure-{k}.png"))
        shown += 1
    return shown


def test_walk_every_lesson_in_chinese(page, screenshots):
    for number, lesson in enumerate(LESSONS, start=1):
        wait_until(lambda: markdown(page, "lesson-title") == lesson.title.zh, f"lesson {lesson.id}")
        assert markdown(page, "lesson-position").startswith(f"第 {number} 课")
        drawn_somehow(page, "lesson-figure-0")
        assert screenshot_figures(page, screenshots, f"zh-lesson-{number:02d}-{lesson.id}", save=False) >= 1
        assert CJK.search(markdown(page, "lesson-explanation"))
        run = "#lesson-run-live" if lesson.experiment.live else "#lesson-run"
        assert page.locator(run).is_disabled()                                   # no prediction yet
        predicted = lesson.experiment.predict.answer
        pick(page, "lesson-prediction", predicted)
        wait_until(lambda: page.locator(run).is_enabled(), "Run enabled by the prediction")
        assert page.inner_text(run).strip() == lesson.experiment.run.zh
        page.click(run)
        drawn_somehow(page, "lesson-outcome-0")
        if lesson.experiment.live:                       # the run streams: its first curve, then Stop
            assert CJK.search(markdown(page, "lesson-live-status"))
            page.click("#lesson-stop")
            wait_until(lambda: markdown(page, "lesson-live-status").startswith(("在第", "本次", "在预设", "已停止", "完成")),
                       "the run's end")
        # a live run judges the prediction by what it measured (stopped early, it says it could not yet)
        verdict = "你这次运行" if lesson.experiment.live else "你的预测正确"
        wait_until(lambda: markdown(page, "lesson-verdict").startswith(verdict), "the verdict")
        wait_until(lambda: markdown(page, "lesson-reveal"), "the reveal")
        right = lesson.check.answer
        pick(page, "lesson-answer", (right + 1) % len(lesson.check.choices))
        wait_until(lambda: markdown(page, "lesson-feedback").startswith("✗"), "the wrong answer's feedback")
        pick(page, "lesson-answer", right)
        wait_until(lambda: markdown(page, "lesson-feedback").startswith("✓"), "the right answer's feedback")
        words = lesson.check.choices[right].feedback.zh.split("$")[0][:8]      # the text before any math
        assert words in markdown(page, "lesson-feedback").replace("\n", "")
        explore = page.locator("#lesson-explore a").get_attribute("href")
        assert explore.startswith(f"?view={lesson.link['view']}") and explore.endswith("lang=zh-CN")
        screenshot(page, screenshots, f"zh-lesson-{number:02d}-{lesson.id}")
        if number < len(LESSONS):
            page.click("#lesson-next")


def test_a_reload_resumes_the_last_lesson_with_its_answer(page):
    page.reload()
    last = LESSONS[-1]
    wait_until(lambda: markdown(page, "lesson-title") == last.title.zh, "the last lesson after the reload")
    wait_until(lambda: markdown(page, "lesson-feedback").startswith("✓"), "the kept answer's feedback")
    page.click("#lesson-previous")
    wait_until(lambda: markdown(page, "lesson-title") == LESSONS[-2].title.zh, "the lesson before it")


# Records, for each write of the browser's storage, the key and the record written: the page encrypts
# the record it keeps (gr.BrowserState) after writing it as JSON, so the last JSON written is its record.
RECORD_STORAGE_WRITES = """(() => {
    window.storageWrites = [];
    let lastJson = null;
    const stringify = JSON.stringify;
    JSON.stringify = function (...args) {
        const written = stringify.apply(this, args);
        lastJson = written;
        return written;
    };
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
        window.storageWrites.push([key, lastJson]);
        return setItem.call(this, key, value);
    };
})()"""
KEEPS_ANSWER = """([key, lesson, answer]) => window.storageWrites.some(([k, record]) => {
    try {
        const kept = JSON.parse(record);
        return k === key && kept.lesson === lesson && (kept.answers[lesson] || {}).answer === answer;
    } catch (error) { return false; }
})"""


def answer_and_keep(page, lesson) -> None:
    """Answer `lesson`'s check question rightly, and wait until the browser has written its record of the
    learner's place with that lesson and answer in it."""
    pick(page, "lesson-answer", lesson.check.answer)
    wait_until(lambda: markdown(page, "lesson-feedback").startswith("✓"), "the right answer's feedback")
    wait_until(lambda: page.evaluate(KEEPS_ANSWER, [STORAGE_KEY, lesson.id, lesson.check.answer]),
               f"the browser keeping lesson {lesson.id} and its answer")


def test_a_page_opened_on_another_tab_resumes_the_lesson_when_its_tab_opens(page, app):
    masks = next(lesson for lesson in LESSONS if lesson.id == "masks")
    page.context.add_init_script(RECORD_STORAGE_WRITES)
    page.goto(app.url + "?view=lessons&lesson=masks&lang=zh-CN")
    wait_until(lambda: markdown(page, "lesson-title") == masks.title.zh, "the linked lesson")
    answer_and_keep(page, masks)
    page.goto(app.url + "?view=positional&lang=zh-CN")
    wait_until(lambda: figure(page, "pos-heatmap"), "the linked tab drawn")
    open_tab(page, "lessons")
    wait_until(lambda: markdown(page, "lesson-title") == masks.title.zh, "the lesson the browser was on")
    drawn_somehow(page, "lesson-figure-0")
    wait_until(lambda: markdown(page, "lesson-feedback").startswith("✓"), "its kept answer")


def test_the_plain_address_resumes_the_lesson_the_browser_was_on_with_its_answer(page, app):
    """Opened without a link, the page resumes the browser's lesson, not lesson 1 (the page has
    rewritten its address by the time the lesson is resumed; the address it opened with counts)."""
    positions = next(lesson for lesson in LESSONS if lesson.id == "positions")
    page.context.add_init_script(RECORD_STORAGE_WRITES)
    page.goto(app.url + "?view=lessons&lesson=positions&lang=zh-CN")
    wait_until(lambda: markdown(page, "lesson-title") == positions.title.zh, "the linked lesson")
    answer_and_keep(page, positions)
    page.goto(app.url + "?lang=zh-CN")
    wait_until(lambda: markdown(page, "lesson-title") == positions.title.zh, "the lesson the browser was on")
    wait_until(lambda: markdown(page, "lesson-feedback").startswith("✓"), "its kept answer")
    assert "lesson=positions" in address(page)                                   # the address describes it


def test_a_link_opens_a_lesson_and_a_bad_one_opens_lesson_one_with_a_note(page, app):
    masks = next(lesson for lesson in LESSONS if lesson.id == "masks")
    page.goto(app.url + "?view=lessons&lesson=masks&lang=zh-CN")
    wait_until(lambda: markdown(page, "lesson-title") == masks.title.zh, "the linked lesson")
    page.goto(app.url + "?view=lessons&lesson=nonsense&lang=zh-CN")
    wait_until(lambda: markdown(page, "lesson-title") == LESSONS[0].title.zh, "lesson 1 for a bad id")
    wait_until(lambda: "nonsense" in markdown(page, "link-note"), "the note naming the bad id")


def test_every_lesson_s_figures_in_english_fit_at_1280x720(app, browser, screenshots):
    page = open_page(browser, app.url + f"?view=lessons&lesson={LESSONS[0].id}&lang=en", "en", tab="lessons")
    try:
        for number, lesson in enumerate(LESSONS, start=1):
            if number > 1:
                page.click("#lesson-next")
            wait_until(lambda: markdown(page, "lesson-title") == lesson.title.en, f"lesson {lesson.id}")
            drawn_somehow(page, "lesson-figure-0")
            assert screenshot_figures(page, screenshots, f"en-lesson-{number:02d}-{lesson.id}") >= 1
    finally:
        page.context.close()
