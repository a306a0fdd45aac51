"""On a Hugging Face Space (SPACE_ID set, as the platform does) a view is shared by its
huggingface.co page: Copy link puts https://huggingface.co/spaces/OWNER/NAME?<the view's query> on
the clipboard (and says so in the page's language, another one picked after it too), and the QR code
encodes the same address (the Space: `busy_space_app`). Screenshot: tests/e2e/screenshots/."""
from urllib.parse import parse_qs, urlsplit

import pytest

from playground.ui.page import qr

from .conftest import SPACE_ID
from .pages import address, markdown, open_page, wait_until

PAGE = f"https://huggingface.co/spaces/{SPACE_ID}"


def test_copy_link_and_the_qr_code_give_the_spaces_huggingface_co_page(busy_space_app, browser, screenshots):
    page = open_page(browser, f"{busy_space_app.url}?view=attention&layer=1&lang=en&__theme=light", "en-US")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    wait_until(lambda: "layer=1" in address(page), "the address written for the view")
    query = urlsplit(address(page)).query
    page.click("#copy-link")
    wait_until(lambda: "huggingface.co" in markdown(page, "copy-link-status"), "Copy link's message")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{PAGE}?{query}" and copied.startswith(f"{PAGE}?view=attention")
    assert "__theme" not in copied and parse_qs(urlsplit(copied).query)["layer"] == ["1"]
    page.click("#language label:has-text('简体中文')")               # what Copy link said follows the language
    wait_until(lambda: markdown(page, "copy-link-status").startswith("已复制链接"), "Copy link's message in Chinese")

    page.click("#show-qr")
    page.wait_for_selector("#qr-code svg")
    drawn_path = page.get_attribute("#qr-code svg path.qrline", "d")
    assert drawn_path and f'd="{drawn_path}"' in qr.qr_svg(copied)     # the code of exactly that address
    assert f'd="{drawn_path}"' not in qr.qr_svg(address(page))
    assert markdown(page, "qr-code").startswith(copied)
    page.screenshot(path=str(screenshots / "qr-code-space.png"))
    page.context.close()
