""""Load from the Hugging Face Hub" in the served app, driven through gradio_client as separate sessions.
The Hub is replaced by a temporary folder: no network."""
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from playground.hub import load_gpt2
from playground.ui import create_app
from playground.ui.header import hub_models
from tests.hub.helpers import save_random_gpt2

from .serving import serve
from .test_page_load import page_event

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def hub_server(pretrained_dir, tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpt2")
    save_random_gpt2(folder, 30, 3, 2)
    loads = []

    def from_folder(repository, max_parameters):
        loads.append(repository)
        return load_gpt2(folder, max_parameters)

    patch = pytest.MonkeyPatch()
    patch.setattr(hub_models, "hub_download", from_folder)
    demo = create_app(pretrained_dir)
    patch.undo()
    for url in serve(demo):
        yield url, loads, demo


def test_a_hub_model_is_loaded_once_selected_and_usable_in_every_session_that_loads_it(hub_server):
    url, loads, _ = hub_server
    first, second = Client(url, verbose=False), Client(url, verbose=False)
    status = first.predict("gpt2", "en", api_name="/load_hub_model")
    assert "hub-gpt2" in status and "2 layers, 3 heads" in status
    output, gen_status, *_ = first.predict("hub-gpt2", "The quick", "greedy", 1.0, 0, 1.0, 0, 40, 3, 0, 0, "en",
                                           api_name="/generate_step")
    assert len(output) >= 2
    with pytest.raises(AppError, match="hub-gpt2"):                          # not this session's model yet
        second.predict("hub-gpt2", "The quick", "greedy", 1.0, 0, 1.0, 0, 40, 3, 0, 0, "en", api_name="/generate_step")
    second.predict("gpt2", "zh-CN", api_name="/load_hub_model")
    assert loads == ["gpt2"]


def test_a_bad_repository_name_is_refused_in_the_sessions_language(hub_server):
    url, _, _ = hub_server
    with pytest.raises(AppError, match="不是 Hugging Face Hub 仓库名"):
        Client(url, verbose=False).predict("../secrets", "zh-CN", api_name="/load_hub_model")


def test_why_a_load_failed_stays_in_the_status_and_follows_the_language(hub_server):
    _, _, demo = hub_server
    load = next(fn for fn in demo.fns.values() if fn.api_name == "load_hub_model")
    failed, language = page_event(demo, "on_refused"), page_event(demo, "on_language")
    status = load.outputs[0]
    request = SimpleNamespace(session_hash="hub-failed-then-english", headers={}, query_params={})
    with pytest.raises(gr.Error):
        load.fn("../secrets", "zh-CN", request)
    assert failed.fn("zh-CN", request)[status].startswith("**未载入**。「../secrets」不是 Hugging Face Hub 仓库名。")
    assert language.fn("en", request)[status].startswith(
        '**Not loaded.** "../secrets" is not a Hugging Face Hub repository name.')
