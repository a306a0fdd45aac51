"""The page under its security headers in a real browser, and payloads from a link and an upload.

The app works under its Content-Security-Policy: Gradio's page and Plotly's figures draw, a figure's
camera button saves a PNG, and the browser reports no violation. A crafted link (payloads in
parameter names and values) and an uploaded checkpoint whose vocabulary holds the payloads, shown
in the Attention, Generate and Inside tabs, leave no image, link, styled overlay, bold text or script
that a payload describes, and the page asks no other host for anything (see tests/payloads.py).
"""
from urllib.parse import urlsplit

import pytest

from playground.ui.page.forms import encode_query

from ..payloads import LONG_NAME, PAYLOADS, payload_bpe, payload_checkpoint
from .pages import CJK, VIEWPORT, WAIT_SECONDS, drawn, markdown, open_panel, open_tab, type_into, wait_until

# Recorded from the first script the page runs: every policy violation the browser reports.
VIOLATIONS_JS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
# What a payload would leave in the page had it become markup (in Markdown, a toast or a figure).
TRACES_JS = """
() => {
  const href = (a) => a.getAttribute('href') || a.getAttribute('xlink:href') || '';
  const pwn = (e) => e.textContent.trim() === 'PWN';
  return {
    images: Array.from(document.images).filter((i) => /evil|\\/x$/.test(i.src) || i.hasAttribute('onerror'))
      .map((i) => i.outerHTML),
    links: Array.from(document.querySelectorAll('a')).filter((a) => /evil|mailto/.test(href(a))).map(href),
    overlays: Array.from(document.querySelectorAll('[style]'))
      .filter((e) => /position:\\s*fixed/.test(e.getAttribute('style')) && /PWN/.test(e.textContent))
      .map((e) => e.outerHTML.slice(0, 200)),
    marked: Array.from(document.querySelectorAll('b, i, strong, em, del, s, code, tspan, p, span')).filter(pwn)
      .map((e) => e.outerHTML.slice(0, 200)),
    scripts: Array.from(document.scripts).filter((s) => s.textContent.includes('PWN')).length,
    shown: document.body.innerText.includes('evil.example'),
  };
}
"""
TYPED = PAYLOADS[2] + " " + PAYLOADS[7]


def watched_page(browser, url: str, locale: str):
    """A fresh page at `url` that records policy violations, console errors and every request to
    another host."""
    context = browser.new_context(viewport=VIEWPORT, locale=locale)
    context.set_default_timeout(WAIT_SECONDS * 1000)
    context.add_init_script(VIOLATIONS_JS)
    page = context.new_page()
    page.foreign, page.console_errors = [], []
    own = urlsplit(url).netloc
    page.on("request", lambda r: None if r.url.startswith(("data:", "blob:")) or urlsplit(r.url).netloc == own
            else page.foreign.append(r.url))
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.response = page.goto(url)
    return page


def assert_clean(page) -> None:
    """No violation, no request to another host, no console error about the policy, no payload trace."""
    assert page.evaluate("window.__violations") == []
    assert page.foreign == []
    assert not [e for e in page.console_errors if "Content Security Policy" in e]
    traces = page.evaluate(TRACES_JS)
    assert traces.pop("shown"), "the payloads are shown, as text"
    assert traces == {"images": [], "links": [], "overlays": [], "marked": [], "scripts": 0}


def test_the_page_and_its_figures_work_under_the_policy(app, browser):
    page = watched_page(browser, app.url, "en-US")
    policy = page.response.headers["content-security-policy"]
    assert "img-src 'self' data: blob:" in policy and "frame-ancestors 'self'" in policy
    assert page.response.headers["x-content-type-options"] == "nosniff"
    page.wait_for_selector("#lesson-figure-0 .js-plotly-plot", timeout=2 * WAIT_SECONDS * 1000)
    open_tab(page, "attention")
    drawn(page, "attention-grid")
    page.locator("#attention-grid .js-plotly-plot").hover()
    with page.expect_download() as saved:
        page.click("#attention-grid .modebar-btn[data-title='Download plot as a PNG']")
    assert saved.value.suggested_filename.endswith(".png")
    open_tab(page, "positional")
    drawn(page, "pos-heatmap")
    assert page.evaluate("window.__violations") == [] and page.foreign == []
    assert not [e for e in page.console_errors if "Content Security Policy" in e]
    page.context.close()


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("zh-CN", "zh-CN")])
def test_payloads_from_a_link_and_an_upload_stay_text(app, browser, tmp_path, locale, lang):
    query = {"view": "attention", "lang": lang, "model": PAYLOADS[0], "text": PAYLOADS[1], "target": PAYLOADS[3],
             "kind": PAYLOADS[8], "layer": PAYLOADS[7], PAYLOADS[2]: "1", PAYLOADS[4]: PAYLOADS[5], LONG_NAME: "1"}
    page = watched_page(browser, f"{app.url}?{encode_query(query)}", locale)
    note = wait_until(lambda: page.is_visible("#link-note") and not page.locator("#link-note .page-opening").count()
                      and markdown(page, "link-note"), "the link note", seconds=2 * WAIT_SECONDS)    # not "Opening the page…"
    assert "evil.example" in note and LONG_NAME[:100] not in note
    assert bool(CJK.search(note)) == (lang == "zh-CN")
    assert "copy" in note                     # the default model cannot read the link's text: the note says so
    assert_clean(page)

    tokenizer = payload_bpe()
    upload = payload_checkpoint(tmp_path, "decoder_only", tokenizer, "payload")
    open_panel(page, "own-model-panel")
    page.set_input_files("#model-upload input[type=file]", str(upload))
    wait_until(lambda: "mine-payload" in markdown(page, "model-upload-status"), "the upload accepted")
    wait_until(lambda: "mine-payload" in markdown(page, "attention-summary"), "the tab drawn for the upload",
               seconds=2 * WAIT_SECONDS)
    type_into(page, "attention-text", TYPED)
    page.press("#attention-text textarea", "Enter")
    typed_tokens = len(tokenizer.encode(TYPED))       # the Playground's own pipeline: the payloads' bytes, one by one
    drawn(page, "attention-grid", lambda fig: len(fig["traces"][0]["x"]) == typed_tokens)

    open_tab(page, "generate")
    wait_until(lambda: "mine-payload" in markdown(page, "generate-status"), "the upload's generation")
    page.click("#generate-step")
    drawn(page, "generate-candidates")

    open_tab(page, "inside")
    wait_until(lambda: "mine-payload" in page.input_value("#inside-emb-model input"),   # the tab drawn for the
               "the Inside tab drawn for the upload")                                     # upload, then typed into
    page.fill("#inside-emb-token input", PAYLOADS[0].replace(" ", "␣"))
    page.press("#inside-emb-token input", "Enter")
    drawn(page, "inside-emb-neighbours", lambda fig: any("PWN" in str(y) for y in fig["traces"][0]["y"]))
    page.wait_for_timeout(1000)
    assert_clean(page)
    page.context.close()
