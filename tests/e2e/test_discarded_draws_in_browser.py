"""A figure Gradio is replacing is not drawn (playground/ui/page/discarded_draws.py): while a training
streams its curves, the draws Gradio's Plot would make of the elements it throws away are skipped and
the figures on show follow the run; a redraw of a figure that stays in the page is drawn."""
from playground.ui.page.discarded_draws import COUNTER

from .pages import drawn, figure, markdown, page_at, wait_until

SKIPPED_JS = f"() => window.{COUNTER}"
REDRAW_IN_PLACE_JS = """async () => {
  const gd = document.querySelector('#train-curves .js-plotly-plot');
  await Plotly.react(gd, [{type: 'scatter', y: [3, 1, 2]}], {title: {text: 'redrawn in place'}});
}"""


def points(fig: dict) -> int:
    return len(fig["traces"][0]["x"]) if fig and fig["traces"] else 0


def test_a_live_training_skips_the_draws_of_replaced_figures_and_its_curves_follow_the_run(app, browser):
    page = page_at(browser, f"{app.url}?view=train&lang=en")
    page.wait_for_selector("#tab-train:not([aria-busy]) #train-start")
    page.click("#train-start")
    first = points(drawn(page, "train-curves", lambda fig: points(fig) >= 2))
    drawn(page, "train-curves", lambda fig: points(fig) >= first + 3)            # three more updates drawn
    page.click("#train-stop")
    wait_until(lambda: (s := markdown(page, "train-status")).startswith("Stopped") and "trained-copy" in s,
               "the stop, then the model it published")          # the run's last views come before the model
    assert (page.evaluate(SKIPPED_JS) or 0) >= 3
    last = points(figure(page, "train-curves"))

    page.evaluate(REDRAW_IN_PLACE_JS)
    wait_until(lambda: (figure(page, "train-curves") or {}).get("title") == "redrawn in place",
               "a redraw of a figure that stays drawn")
    assert last >= first + 3
