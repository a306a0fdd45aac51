"""A Train form whose settings do not fit together is refused in the session's language, at the form:
a toast says what to change as soon as the setting is entered, the estimate keeps the last form that
fits, and Start says it again without training. The screenshot of the refusal goes to
tests/e2e/screenshots/."""
from .pages import error_toast, markdown, open_page, screenshot, wait_until


def test_heads_that_do_not_divide_d_model_are_refused_in_chinese(app, browser, screenshots):
    page = open_page(browser, f"{app.url}?view=train&lang=zh-CN", "zh-CN")
    try:
        estimate = wait_until(lambda: (lambda shown: shown if "参数" in shown else None)(
            markdown(page, "train-estimate")), "the estimate of the first form")
        box = page.locator("#train-n-heads input[type=number]")
        box.fill("3")
        box.press("Enter")
        page.wait_for_selector(".toast-body.error", state="visible")
        toast = page.inner_text(".toast-body.error .toast-message-text")
        screenshot(page, screenshots, "train-refused-heads-zh")
        assert "d_model（64）" in toast and "头数（3）" in toast and "倍数" in toast
        for close in page.locator(".toast-body.error .toast-close").all():
            close.click()
        page.wait_for_selector(".toast-body.error", state="detached")
        assert markdown(page, "train-estimate") == estimate                 # the last form that fits
        page.click("#train-start")
        assert "头数（3）" in error_toast(page)
        assert "Traceback" not in page.content()
    finally:
        page.context.close()
