"""A Generate link in a real browser at 1280x720: `steps=3` opens the generation after three Step
presses, with the same tokens and figures as the presses, and the address follows the steps."""
from .pages import VIEWPORT, WAIT_SECONDS, choose_model, drawn, markdown, open_page, type_into, wait_until

GPT = "untrained-gpt"                       # every installation has it
PROMPT = "abcab"
LINK = f"?view=generate&model={GPT}&prompt={PROMPT}&strategy=greedy&top_k=5&seed=7&steps=3&lang=en"


def open_at(browser, url: str):
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    context.set_default_timeout(WAIT_SECONDS * 1000)
    page = context.new_page()
    page.goto(url)
    return page


PROMPT_TOKENS = len(PROMPT)                 # one token a character


def at_step(page, index: int) -> dict:
    """The status, the tokens (the causal matrix's rows) and the figures once at step `index`."""
    status = wait_until(lambda: (s := markdown(page, "generate-status")).startswith(f"Step {index}:") and s,
                        f"step {index}", seconds=2 * WAIT_SECONDS)
    candidates = drawn(page, "generate-candidates", lambda fig: fig["title"].startswith(f"Step {index}:"))
    filling = drawn(page, "generate-filling", lambda fig: len(fig["traces"][0]["y"]) == PROMPT_TOKENS + index)
    return {"status": status, "tokens": filling["traces"][0]["y"], "filling": filling["traces"][0]["z"],
            "candidates": (candidates["title"], candidates["ticks"])}


def test_a_link_with_steps_shows_what_three_step_presses_show(app, browser):
    linked = open_at(browser, f"{app.url}{LINK}")
    by_link = at_step(linked, 3)
    assert not linked.is_visible("#link-note")
    linked.context.close()

    page = open_page(browser, app.url, "en-US")
    page.get_by_role("tab", name="Generate").click()
    drawn(page, "generate-filling")
    choose_model(page, "generate-model", GPT)
    wait_until(lambda: GPT in markdown(page, "generate-status"), "the tab redrawn for the model")
    type_into(page, "generate-prompt", PROMPT)
    for elem_id, value in (("generate-top-k", 5), ("generate-seed", 7)):
        box = page.locator(f"#{elem_id} input[type=number]")
        box.fill(str(value))
        box.press("Enter")
    page.click("#generate-reset")
    wait_until(lambda: "the prompt" in markdown(page, "generate-status"), "the new prompt read")
    for index in (1, 2, 3):
        page.click("#generate-step")
        wait_until(lambda: markdown(page, "generate-status").startswith(f"Step {index}:"), f"step {index}")
    by_clicks = at_step(page, 3)
    assert by_clicks == by_link
    wait_until(lambda: "steps=3" in page.url and "seed=7" in page.url and "top_k=5" in page.url, "the address at step 3")
    page.context.close()
