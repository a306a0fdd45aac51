"""Every example a tab offers draws with its own model, in a real browser: a click on an example of
another model (the first move a class makes) switches the model and draws the example, in Attention
and in Generate, in English and in Chinese, with no error and no figure left blank."""
import pytest

from playground.ui.session.examples import ATTENTION_EXAMPLES, GENERATE_EXAMPLES

from .pages import drawn, markdown, no_error_toast, open_page, open_tab, screenshot, wait_until


def example_labels(page, elem_id: str) -> list[str]:
    """The labels of the examples dataset `elem_id`, in the order it shows them."""
    return [label.strip() for label in page.locator(f"#{elem_id} button").all_inner_texts()]


def click_example(page, elem_id: str, label: str) -> None:
    page.locator(f"#{elem_id} button", has_text=label).first.click()


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("zh-CN", "zh-CN")])
def test_every_attention_example_draws_with_its_own_model(app, browser, screenshots, locale, lang):
    page = open_page(browser, app.url + f"?view=attention&model=copy&text=abcdefghij&lang={lang}", locale)
    try:
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
    finally:
        page.context.close()


@pytest.mark.parametrize("locale, lang", [("en-US", "en")])
def test_every_generate_example_draws_with_its_own_model(app, browser, screenshots, locale, lang):
    page = open_page(browser, app.url + f"?lang={lang}", locale, tab="generate")
    try:
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
    finally:
        page.context.close()
