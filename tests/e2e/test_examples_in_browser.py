"""Every example a tab offers draws with its own model, in a real browser: a click on an example of
another model (the first move a class makes) switches the model and draws the example, in Attention
and in Generate, in English and in Chinese, with no error and no figure left blank."""
import pytest

from playground.ui.session.examples import ATTENTION_EXAMPLES, GENERATE_EXAMPLES

from .pages import WAIT_SECONDS, OnePage, drawn, markdown, no_error_toast, screenshot, wait_until


def example_labels(page, elem_id: str) -> list[str]:
    """The labels of the examples dataset `elem_id`, in the order it shows them."""
    return [label.strip() for label in page.locator(f"#{elem_id} button").all_inner_texts()]


def click_example(page, elem_id: str, label: str) -> None:
    page.locator(f"#{elem_id} button", has_text=label).first.click()


@pytest.fixture(scope="module")
def linked(browser):
    """One page for the module's links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


def opened(linked, url: str, view: str):
    """The page at `url`, a link to `view`, once the view is drawn."""
    page = linked.at(url)
    page.wait_for_selector(f"#tab-{view}:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    return page


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_attention_example_draws_with_its_own_model(app, linked, screenshots, lang):
    page = opened(linked, app.url + f"?view=attention&model=copy&text=abcdefghij&lang={lang}", "attention")
    page.wait_for_selector("#attention-grid .js-plotly-plot")
    labels = example_labels(page, "attention-examples")
    models = [label.split(" · ")[0] for label in labels]
    assert len(set(models)) > 1, labels
    shown = set()
    for label, model in zip(labels, models):
        if model in shown and lang != "en":      # in Chinese, one example per model
            continue
        shown.add(model)
        click_example(page, "attention-examples", label)
        wait_until(lambda: page.input_value("#attention-model input") == model, f"{model} picked by its example")
        wait_until(lambda: markdown(page, "attention-summary").startswith(model), f"{model}'s summary")
        for elem_id in ("attention-grid", "attention-head-plot", "attention-scores"):
            drawn(page, elem_id)
        no_error_toast(page, settle_ms=300)
        shown_text = page.input_value("#attention-text textarea")
        assert shown_text in ATTENTION_EXAMPLES.get(model, [shown_text]), (model, shown_text)
    screenshot(page, screenshots, f"examples-{lang}-attention-last")


@pytest.mark.parametrize("lang", ["en"])
def test_every_generate_example_draws_with_its_own_model(app, linked, screenshots, lang):
    page = opened(linked, app.url + f"?view=generate&lang={lang}", "generate")
    labels = example_labels(page, "generate-examples")
    models = [label.split(" · ")[0] for label in labels]
    assert len(set(models)) > 1, labels
    shown = set()
    for label, model in zip(labels, models):
        if model in shown or model not in GENERATE_EXAMPLES:
            continue
        shown.add(model)
        click_example(page, "generate-examples", label)
        wait_until(lambda: page.input_value("#generate-model input") == model, f"{model} picked by its example")
        page.click("#generate-step")
        drawn(page, "generate-candidates")
        no_error_toast(page, settle_ms=300)
    screenshot(page, screenshots, f"examples-{lang}-generate-last")
