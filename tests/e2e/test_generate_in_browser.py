"""The Generate tab in a real browser at 1280x720: a link with `steps=3` opens the generation after
three Step presses, with the same tokens and figures as the presses, and the address follows the
steps; the Switch heads off, Logit lens and Exposure bias panels draw for the prompt; the accepted
characters are shown beside the prompt; an uploaded model is picked and drawn, and its message follows the
language."""
import shutil

from .pages import (
    WAIT_SECONDS,
    address,
    choose_model,
    drawn,
    error_toast,
    markdown,
    open_page,
    open_panel,
    page_at,
    screenshot,
    type_into,
    wait_until,
)

GPT = "untrained-gpt"                       # every installation has it
PROMPT = "abcab"
LINK = f"?view=generate&model={GPT}&prompt={PROMPT}&strategy=greedy&top_k=5&seed=7&steps=3&lang=en"


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
    linked = page_at(browser, f"{app.url}{LINK}")
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
    wait_until(lambda: "steps=3" in address(page) and "seed=7" in address(page) and "top_k=5" in address(page), "the address at step 3")
    page.context.close()


COPY_HEADS = "cross.0.1,cross.0.2,cross.0.3,cross.1.3"       # the copy model's most diagonal cross-attention heads


def test_the_panels_draw_for_the_prompt_and_the_accepted_characters_follow_it(app, browser, screenshots):
    page = page_at(browser, f"{app.url}?view=generate&model=copy&prompt=abcdefghij&ho_heads={COPY_HEADS}&lang=en")
    wait_until(lambda: "copy" in markdown(page, "generate-status"), "the linked tab drawn", seconds=2 * WAIT_SECONDS)
    wait_until(lambda: "Accepts only these characters" in markdown(page, "generate-accepted"), "the accepted note")
    shipped = "a b c d e f g h i j" in markdown(page, "generate-accepted")      # the shipped copy model, trained on 10
    if shipped:
        type_into(page, "generate-prompt", "abc")
        page.press("#generate-prompt textarea", "Enter")
        wait_until(lambda: "exactly 10" in markdown(page, "generate-accepted"), "the warning for 3 characters")
        type_into(page, "generate-prompt", "abcdefghij")
        page.press("#generate-prompt textarea", "Enter")
        wait_until(lambda: "⚠" not in markdown(page, "generate-accepted"), "the warning gone for 10 characters")

    open_panel(page, "generate-heads-off-panel")
    assert page.locator("#generate-ho-heads").inner_text().count("cross-attention") == 4   # the link's heads
    page.click("#generate-ho-run")
    bars = drawn(page, "generate-ho-distribution", lambda fig: len(fig["traces"]) == 2)
    assert "4 head(s) switched off" in bars["title"]
    summary = wait_until(lambda: "tokens changed" in (s := markdown(page, "generate-ho-summary")) and s,
                         "the changed tokens")
    assert "KL(on ‖ off)" in summary and "Exact match" in summary
    assert "ho_heads=cross.0.1%2Ccross.0.2" in address(page) or "ho_heads=cross.0.1,cross.0.2" in address(page)

    open_panel(page, "generate-lens-panel")
    page.click("#generate-lens-run")
    lens = drawn(page, "generate-lens-plot", lambda fig: fig["traces"][0]["type"] == "heatmap")
    assert lens["title"].startswith("Logit lens")

    open_panel(page, "generate-exposure-panel")
    assert page.input_value("#generate-xb-target textarea") == "abcdefghij"          # the model's own example
    page.click("#generate-xb-run")
    drawn(page, "generate-xb-plot", lambda fig: "Teacher forcing" in fig["title"])
    wait_until(lambda: "Correct tokens out of" in markdown(page, "generate-xb-explanation"), "what the figure shows")
    screenshot(page, screenshots, "generate-panels")

    type_into(page, "generate-xb-target", "abz!")
    page.press("#generate-xb-target textarea", "Enter")
    assert "!" in error_toast(page)
    wait_until(lambda: "refused" in markdown(page, "generate-xb-explanation"), "the refusal beside the figure")
    page.context.close()


def test_an_uploaded_model_is_picked_and_the_tab_redrawn_for_it(app, browser, pretrained_dir, tmp_path):
    decoder = next(name for name in ("shakespeare-char", "tiny-gpt") if (pretrained_dir / name).is_dir())
    upload = tmp_path / "upload.safetensors"
    shutil.copy(pretrained_dir / decoder / "model.safetensors", upload)
    page = open_page(browser, app.url, "en-US", tab="generate")
    wait_until(lambda: "copy" in markdown(page, "generate-status"), "the copy model's generation",
               seconds=2 * WAIT_SECONDS)
    page.click("#generate-step")
    wait_until(lambda: markdown(page, "generate-status").startswith("Step 1:"), "one step")
    copy_accepts = markdown(page, "generate-accepted")
    open_panel(page, "own-model-panel")
    page.set_input_files("#model-upload input[type=file]", str(upload))
    wait_until(lambda: "mine-upload" in markdown(page, "model-upload-status"), "the upload accepted")
    wait_until(lambda: "mine-upload" in markdown(page, "generate-status"), "the tab redrawn for the uploaded model")
    assert page.input_value("#generate-model input") == "mine-upload"
    assert markdown(page, "generate-accepted") != copy_accepts and markdown(page, "generate-status").startswith(
        "mine-upload has read the prompt")                                         # started again on the new model
    page.click("#language label:has-text('简体中文')")               # the upload's message follows the language
    wait_until(lambda: markdown(page, "model-upload-status").startswith("已载入 mine-upload"),
               "the upload's message said again in Chinese")
    page.context.close()
