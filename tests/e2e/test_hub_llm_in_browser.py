"""A Qwen2-family model loaded from the Hub panel in the browser: the status says what it is, the
Attention tab is drawn for it with one map per query head, and another family is refused in the page's
language. The "Hub" is a temporary folder (no network); the app is served in the test process."""
import json

import pytest

from playground.hub import load_model
from playground.ui import create_app
from playground.ui.header import hub_models
from tests.hub.llama_helpers import save_random_llm
from tests.ui.serving import serve

from .pages import error_toast, markdown, open_page, open_panel, screenshot, wait_until

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def hub_app(pretrained_dir, tmp_path_factory):
    folders = {"Qwen/Qwen2.5-0.5B": tmp_path_factory.mktemp("qwen2"), "mistralai/Mistral-7B": tmp_path_factory.mktemp("m")}
    save_random_llm(folders["Qwen/Qwen2.5-0.5B"], "qwen2", hidden=32, heads=4, kv_heads=2, layers=2, tied=True)
    save_random_llm(folders["mistralai/Mistral-7B"], "llama", layers=1)
    config = folders["mistralai/Mistral-7B"] / "config.json"
    config.write_text(json.dumps({**json.loads(config.read_text()), "model_type": "mistral"}))
    patch = pytest.MonkeyPatch()
    patch.setattr(hub_models, "hub_download", lambda repository, max_parameters: load_model(folders[repository],
                                                                                              max_parameters))
    demo = create_app(pretrained_dir)
    patch.undo()
    yield from serve(demo)


def test_a_qwen2_model_loads_from_the_hub_panel_and_the_attention_tab_is_drawn_for_it(hub_app, browser, screenshots):
    page = open_page(browser, hub_app, "zh-CN", tab="attention")
    open_panel(page, "own-model-panel")
    page.fill("#hub-repository input", "Qwen/Qwen2.5-0.5B")              # one line: an input, not a textarea
    page.click("#hub-load")
    wait_until(lambda: "已载入" in markdown(page, "hub-status"), "the load's status", seconds=60)
    status = markdown(page, "hub-status")
    assert "hub-Qwen-Qwen2.5-0.5B" in status and "2 层，4 个头" in status and "GPT-2" not in status
    page.wait_for_selector("#attention-grid .js-plotly-plot")
    wait_until(lambda: "hub-Qwen-Qwen2.5-0.5B" in page.input_value("#attention-model input"),
               "the Attention tab redrawn for the loaded model", seconds=60)
    screenshot(page, screenshots, "hub-qwen2-loaded-zh")
    page.fill("#hub-repository input", "mistralai/Mistral-7B")
    page.click("#hub-load")
    refusal = error_toast(page)
    assert "是 mistral 模型：本游乐场运行 GPT-2、Llama 和 Qwen2 模型" in refusal
    page.context.close()
