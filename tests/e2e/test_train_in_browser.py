"""Training in a real browser at 1280x720: the copy preset trains for a few seconds while its
curves grow and the probe's attention is redrawn, Stop ends it, the model downloads as a
.safetensors file, and uploaded back it is the same model (the same attention, head by head).
A few Steps of training publish a model that the Attention tab then shows by itself, its kind
control and its plots agreeing. Screenshots of the Train and Attention tabs go to
$PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/."""
import math
import re
import time

import pytest

from .pages import (address, choose_model, drawn, error_toast, figure, has_data, markdown, no_error_toast, open_page,
                    open_panel, open_tab, screenshot, type_into, wait_until)

SOURCE = "abcdefg"                    # letters the copy task knows
CURVE_POINTS = 4                      # progress points seen before stopping
IDLE_MS = 3000                        # how long a page left alone must send no events
RECLICK_SECONDS = 8                   # a Show attention click with nothing drawn after this is made again
RETYPE_SECONDS = 1                    # typed text the page does not show after this is typed again


@pytest.fixture(scope="module")
def page(app, browser):
    page = open_page(browser, app.url, "en-US")
    yield page
    page.context.close()


def loss_steps(fig: dict | None) -> list:
    """The steps of the training-loss line of the curves figure."""
    if not fig:
        return []
    return next((trace["x"] for trace in fig["traces"] if trace["name"] == "training loss"), [])


def probe_cells(fig: dict | None) -> list:
    return [trace["z"] for trace in fig["traces"]] if fig else []


def show(page, model: str, value: str) -> list:
    """Run the attention view on `value`; once `model`'s grid for it is drawn, its heatmaps.

    A redraw still on its way when the text is typed (the model's own example, after a model is
    added or picked) replaces the typed text; the text is then typed again. A click made while the
    button's previous event still ran is dropped by Gradio; it is made again after a while."""
    clicked = [0.0]

    def typed_and_drawn():
        typed = page.input_value("#attention-text textarea") == value
        since = time.monotonic() - clicked[0]
        if (not typed and since > RETYPE_SECONDS) or since > RECLICK_SECONDS:
            if not typed:
                type_into(page, "attention-text", value)
            page.click("#attention-run")
            clicked[0] = time.monotonic()
            return None
        grid = figure(page, "attention-grid")
        summary = markdown(page, "attention-summary")
        return grid if has_data(grid) and len(grid["traces"][0]["x"]) == len(value) and summary.startswith(
            f"{model}:") else None

    try:
        return probe_cells(wait_until(typed_and_drawn, f"{model}'s grid of {value!r}"))
    except AssertionError as error:                    # say what the page showed instead
        grid = figure(page, "attention-grid")
        raise AssertionError(f"{error}; the input shows {page.input_value('#attention-text textarea')!r}, the grid "
                             f"{grid and grid['traces'][0]['x']}, the summary "
                             f"{markdown(page, 'attention-summary')[:120]!r}") from None


def attention_of(page, model: str) -> list:
    """The attention grid of `model` on SOURCE (cross-attention; the model writes the target). A
    shorter input first makes sure the grid read is the new one."""
    open_tab(page, "attention")
    if page.input_value("#attention-model input") != model:
        choose_model(page, "attention-model", model)
    wait_until(lambda: markdown(page, "attention-summary").startswith(f"{model}:"), f"{model} drawn")
    show(page, model, SOURCE[:2])
    return show(page, model, SOURCE)


def test_train_the_copy_preset_stop_download_and_upload_it_back(page, screenshots, tmp_path):
    open_tab(page, "train")
    wait_until(lambda: "parameters" in markdown(page, "train-estimate"), "the parameter count")
    page.click("#train-start")

    first = drawn(page, "train-curves", lambda fig: len(loss_steps(fig)) >= 1)
    first_probe = probe_cells(drawn(page, "train-probe"))
    grown = drawn(page, "train-curves", lambda fig: len(loss_steps(fig)) >= CURVE_POINTS)
    assert loss_steps(grown)[:len(loss_steps(first))] == loss_steps(first)           # the same line, moving on
    assert loss_steps(grown) == sorted(loss_steps(grown)) and loss_steps(grown)[-1] > loss_steps(first)[0]
    redrawn = wait_until(lambda: (cells := probe_cells(figure(page, "train-probe"))) and cells != first_probe
                         and cells, "the probe attention redrawn")
    assert len(redrawn) == len(first_probe) == 2 * 4                                   # layers x heads

    page.click("#train-stop")
    wait_until(lambda: (s := markdown(page, "train-status")).startswith("Stopped") and "trained-copy" in s,
               "the stop, then the model it published")          # the run's last views come before the model
    screenshot(page, screenshots, "en-train")
    with page.expect_download() as download_info:
        page.click("#train-download")
    saved = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(saved)
    assert saved.name == "trained-copy.safetensors" and saved.stat().st_size > 0

    open_panel(page, "own-model-panel")
    damaged = tmp_path / "damaged.safetensors"
    damaged.write_bytes(saved.read_bytes()[:-16])
    page.set_input_files("#model-upload input[type=file]", str(damaged))       # refused, saying why
    assert error_toast(page) == ("This checkpoint is cut short or damaged. Download the model again and upload "
                                 "the new file.")
    page.set_input_files("#model-upload input[type=file]", str(saved))        # the box takes the next file
    wait_until(lambda: "mine-trained-copy" in markdown(page, "model-upload-status"), "the upload accepted")

    uploaded = attention_of(page, "mine-trained-copy")
    trained = attention_of(page, "trained-copy")
    assert uploaded == trained and len(trained) == 2 * 4


KIND_TITLES = {"encoder": "encoder self-attention", "decoder": "decoder self-attention (causal)",
               "cross": "cross-attention (target → source)"}


def kind_shown(page) -> tuple[str, str]:
    """(the kind control's value, the kind the grid's title names)."""
    kind = page.eval_on_selector("#attention-kind input:checked", "e => e.value")
    title = figure(page, "attention-grid")["title"]
    return kind, next((k for k, words in KIND_TITLES.items() if title.startswith(words)), title)


def test_a_few_steps_of_training_switch_the_attention_tab_to_the_trained_model(app, browser, screenshots):
    page = open_page(browser, app.url, "en-US")
    try:
        choose_model(page, "attention-model", "untrained-gpt")
        wait_until(lambda: markdown(page, "attention-summary").startswith("untrained-gpt:"), "untrained-gpt drawn")
        page.click("#attention-kind input[value='decoder']")
        open_tab(page, "train")
        wait_until(lambda: "parameters" in markdown(page, "train-estimate"), "the parameter count")
        page.click("#train-step")                                      # a few steps of the copy preset, then it ends
        wait_until(lambda: page.is_enabled("#train-download"), "the trained model published", seconds=120)
        assert page.input_value("#attention-model input") == "untrained-gpt"     # a hidden tab is not drawn

        open_tab(page, "attention")                    # drawn for the session's new model as it is shown
        summary = wait_until(lambda: (s := markdown(page, "attention-summary")).startswith("trained-copy:") and s,
                             "the trained model's summary")
        assert page.input_value("#attention-model input") == "trained-copy"
        assert "trained-copy" in markdown(page, "attention-note")                # it says why the view changed
        wait_until(lambda: address(page).endswith("?view=attention&lang=en"),   # a session's own model: no
                   "the private view's address, with the page's language")      # link, but a reload keeps both
        no_error_toast(page)
        events = []
        page.on("request", lambda request: "queue/join" in request.url and events.append(request.post_data))
        page.wait_for_timeout(IDLE_MS)
        assert events == []                            # one publication, one redraw: then the page is quiet
        loss, perplexity = (float(x) for x in re.search(
            r"Held-out loss ([0-9.]+) nats per token, perplexity e\^loss = ([0-9.]+)", summary).groups())
        assert perplexity == pytest.approx(math.exp(loss), abs=2e-3)
        text = page.input_value("#attention-text textarea")
        assert set(text) <= set("abcdefghij")                          # the copy model's own example
        assert kind_shown(page) == ("decoder", "decoder")              # the kind kept: the trained model has it
        screenshot(page, screenshots, "en-attention-trained")

        page.click("#attention-kind input[value='cross']")
        wait_until(lambda: kind_shown(page) == ("cross", "cross"), "cross-attention drawn")
        grid = drawn(page, "attention-grid")
        assert len(grid["traces"]) == 2 * 4 and len(grid["traces"][0]["x"]) == len(text)   # its source is the text
        choose_model(page, "attention-model", "untrained-gpt")           # a model without cross-attention
        wait_until(lambda: markdown(page, "attention-summary").startswith("untrained-gpt:"), "untrained-gpt drawn")
        wait_until(lambda: kind_shown(page) == ("decoder", "decoder"), "the kind and the plot agreeing")
        page.click("#attention-run")
        wait_until(lambda: kind_shown(page) == ("decoder", "decoder"), "after Show attention, still agreeing")
        assert "No held-out loss is known" in markdown(page, "attention-summary")
    finally:
        page.context.close()
