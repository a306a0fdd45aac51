"""The Train tab in a real browser at 1280x720, in English and in Chinese: a few Steps of the copy
preset draw each layer's gradient norm, one line per layer (embeddings, the encoder's and the
decoder's blocks, the head) on a log axis, under the loss curves, its title inside the figure.
Screenshots: tests/e2e/screenshots/train-layer-grads-en.png, train-layer-grads-zh.png (the figure)
and train-layer-grads-page-*.png (the whole tab)."""
import pytest

from .pages import drawn, no_error_toast, open_page, screenshot, title_overflow

LAYERS = {"en-US": ("embeddings", "encoder block 0", "decoder block 0", "head"),
          "zh-CN": ("嵌入层", "编码器第 0 块", "解码器第 0 块", "输出头")}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_few_steps_draw_each_layers_gradient_norm(app, browser, screenshots, locale):
    page = open_page(browser, app.url, locale, tab="train")
    page.click("#train-step")
    fig = drawn(page, "train-layer-grads", lambda fig: len(fig["traces"]) >= 4)
    names = [trace["name"] for trace in fig["traces"]]
    assert names[0] == LAYERS[locale][0] and names[-1] == LAYERS[locale][-1], names
    assert LAYERS[locale][1] in names and LAYERS[locale][2] in names, names
    for trace in fig["traces"]:
        assert all(value > 0 for value in trace["y"]), (trace["name"], trace["y"])    # real norms, none missing
    assert title_overflow(page, "train-layer-grads") <= 0
    no_error_toast(page)
    short = locale[:2]
    page.locator("#train-layer-grads").screenshot(path=str(screenshots / f"train-layer-grads-{short}.png"))
    screenshot(page, screenshots, f"train-layer-grads-page-{short}")
    page.context.close()
