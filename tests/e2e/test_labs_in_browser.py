"""The Labs tab in a real browser at 1280x720: pick a lab among all of them, run it, watch the
variants' curves grow together, stop it, and read the result: both attention grids, the summary,
the kept result and its comparison; then the same views in Chinese; and a link that opens a lab.
Screenshots go to $PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/."""
import re

import pytest

from playground.labs import LABS, get_lab

from .pages import (
    CJK,
    address,
    drawn,
    figure,
    markdown,
    no_error_toast,
    open_page,
    open_tab,
    page_at,
    screenshot,
    wait_until,
)

LAB = get_lab("weight-tying")
LAB_CHOICE = f"Ablation · {LAB.title.en}"
CURVE_POINTS = 3                      # evaluations per variant seen before stopping
FIRST_DRAW_SECONDS = 90               # a fresh page's load events, on a busy 2-core machine


@pytest.fixture(scope="module")
def page(app, browser):
    page = open_page(browser, app.url, "en-US")
    yield page
    page.context.close()


def loss_steps(fig: dict | None, variant: str) -> list:
    """The steps of one variant's training-loss line."""
    name = f"{variant} · training loss"
    return next((trace["x"] for trace in fig["traces"] if trace["name"] == name), []) if fig else []


def test_run_a_lab_stop_it_and_compare_its_variants(page, screenshots):
    open_tab(page, "labs")
    wait_until(lambda: markdown(page, "labs-status").startswith("Press Run lab"), "the idle status")
    assert "torch.triu" in markdown(page, "labs-card")                        # the first lab's question
    wait_until(lambda: "Run lab" in " ".join((figure(page, "labs-curves") or {}).get("annotations", [])),
               "the curves' placeholder")
    screenshot(page, screenshots, "en-labs-before")
    page.click("#labs-picker input")
    assert page.locator("[role=option]").count() == len(LABS) >= 17           # every lab of the registry
    page.click(f"[role=option][aria-label='{LAB_CHOICE}']")
    wait_until(lambda: LAB.question.en[:40] in markdown(page, "labs-card"), "the card of the chosen lab")

    page.click("#labs-run")
    names = [variant.name.en for variant in LAB.variants]
    grown = drawn(page, "labs-curves", lambda fig: all(len(loss_steps(fig, n)) >= CURVE_POINTS for n in names))
    assert loss_steps(grown, names[0])[:CURVE_POINTS] == loss_steps(grown, names[1])[:CURVE_POINTS]   # same steps
    page.click("#labs-stop")
    wait_until(lambda: markdown(page, "labs-status").startswith(("Stopped", "Finished")), "the end of the lab")

    layers, heads = LAB.model_config.n_decoder_layers, LAB.model_config.n_heads
    reference = drawn(page, "labs-attention-reference")
    compared = drawn(page, "labs-attention-variant")
    assert len(reference["traces"]) == len(compared["traces"]) == layers * heads
    assert reference["title"].startswith(f"<b>{names[0]}</b><br>after training (step ")
    assert compared["title"] == reference["title"].replace(names[0], names[1])         # stopped at one step
    summary = markdown(page, "labs-summary")
    assert "This run" in summary and "Parameters" in summary
    kept = page.locator("#labs-kept label").all_text_contents()
    assert len(kept) == 1 and kept[0].strip().startswith(f"#1 {LAB.title.en}")
    drawn(page, "labs-compare")
    screenshot(page, screenshots, "en-labs")

    page.click("#labs-stage label:has-text('before training')")
    before = drawn(page, "labs-attention-reference", lambda fig: "before training (step 0)" in fig["title"])
    assert len(before["traces"]) == layers * heads

    page.click("#language label:has-text('简体中文')")
    wait_until(lambda: CJK.search(markdown(page, "labs-card")), "the card in Chinese")
    drawn(page, "labs-curves", lambda fig: CJK.search(fig["title"]))
    drawn(page, "labs-attention-variant", lambda fig: CJK.search(fig["title"]))
    assert markdown(page, "labs-status").startswith(("已停止", "完成"))
    seconds = re.search(r" · (\d+) s · ", kept[0]).group(1)
    kept_zh = page.locator("#labs-kept label").all_text_contents()
    assert len(kept_zh) == 1 and f" · {seconds} 秒 · " in kept_zh[0], (kept, kept_zh)
    screenshot(page, screenshots, "zh-labs")


def test_a_link_opens_its_lab_and_names_the_pick_it_lacks(app, browser, screenshots):
    lab = get_lab("positional-encodings")
    page = page_at(browser, app.url + "?view=labs&lab=positional-encodings&variant=tied&stage=start&lang=zh-CN")
    try:
        wait_until(lambda: lab.question.get("zh-CN")[:20] in markdown(page, "labs-card"), "the linked lab's card",
                   seconds=FIRST_DRAW_SECONDS)
        wait_until(lambda: "variant" in markdown(page, "link-note") and "tied" in markdown(page, "link-note"),
                   "the note naming the variant the lab lacks")
        assert page.locator("#labs-stage input[value='start']").is_checked()
        assert page.input_value("#labs-picker input").endswith(lab.title.get("zh-CN"))
        wait_until(lambda: CJK.search(" ".join((figure(page, "labs-curves") or {}).get("annotations", []))),
                   "the curves' placeholder in Chinese")
        wait_until(lambda: "lab=positional-encodings" in address(page) and "variant=learned" in address(page),
                   "the address naming the lab and the variant shown")
        no_error_toast(page)
        screenshot(page, screenshots, "zh-labs-link")
    finally:
        page.context.close()
