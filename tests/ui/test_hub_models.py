"""Hub models in the app: shared by every session, bounded in number and size, refused with a reason;
and every view works on an imported GPT-2. The "Hub" here is a temporary folder: no network."""
from __future__ import annotations

import gc
import json

import gradio as gr
import pytest

from playground.hub import load_gpt2
from playground.ui.header.hub_models import HubModels, check_repository, hub_name
from playground.generate import SamplingConfig
from playground.ui.tabs import generate
from playground.ui.views.architecture import FIELDS, architecture_views
from playground.ui.views.attention import attention_views
from tests.hub.helpers import save_random_gpt2

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Three small random GPT-2 repositories and one that is not GPT-2, by repository name."""
    found = {}
    for seed, name in enumerate(("gpt2", "distilgpt2", "gpt2-medium", "bert")):
        folder = tmp_path_factory.mktemp(name)
        save_random_gpt2(folder, 30, 3, 2, seed=seed)
        found[name] = folder
    config = json.loads((found["bert"] / "config.json").read_text())
    (found["bert"] / "config.json").write_text(json.dumps({**config, "model_type": "bert"}))
    return found


def _hub(folders, calls=None, **kwargs) -> HubModels:
    def loader(repository, max_parameters):
        if calls is not None:
            calls.append(repository)
        return load_gpt2(folders[repository], max_parameters)
    return HubModels(loader, **kwargs)


def test_a_repository_is_loaded_once_and_shared_by_every_session(folders):
    calls = []
    hub = _hub(folders, calls)
    first, second = hub.get("gpt2", "en"), hub.get("gpt2", "en")
    assert first is second and calls == ["gpt2"]
    assert first.name == hub_name("gpt2") == "hub-gpt2" and first.source == "hub"
    assert not any(p.requires_grad for p in first.model.parameters()) and not first.model.training


def test_at_most_two_are_in_memory_and_a_third_waits_until_a_session_lets_go(folders):
    hub = _hub(folders)
    held = [hub.get("gpt2", "en"), hub.get("distilgpt2", "en")]                # two sessions keep theirs
    with pytest.raises(gr.Error, match="2 Hub models are already in memory"):
        hub.get("gpt2-medium", "en")
    assert hub.in_memory() == ["distilgpt2", "gpt2"]
    held.pop(0)                                                              # one session forgets gpt2
    gc.collect()
    assert hub.get("gpt2-medium", "en").name == "hub-gpt2-medium"
    assert hub.in_memory() == ["distilgpt2", "gpt2-medium"]


def test_models_no_session_holds_make_room_for_new_ones(folders):
    hub = _hub(folders)
    for name in ("gpt2", "distilgpt2", "gpt2-medium"):
        hub.get(name, "en")
    assert len(hub.in_memory()) == 2


def test_a_model_above_the_parameter_limit_is_refused_with_the_limit_named(folders):
    hub = _hub(folders, max_parameters=5_000)
    with pytest.raises(gr.Error, match="more than the 5,000 this app runs for a class"):
        hub.get("gpt2", "en")
    with pytest.raises(gr.Error, match="超过本应用为课堂运行的上限 5,000"):
        hub.get("gpt2", "zh-CN")
    assert hub.in_memory() == []


def test_a_repository_that_is_not_gpt2_is_refused_and_nothing_is_kept(folders):
    hub = _hub(folders)
    with pytest.raises(gr.Error, match="bert is a bert model, not GPT-2"):
        hub.get("bert", "en")
    with pytest.raises(gr.Error, match="bert 是 bert 模型，不是 GPT-2"):
        hub.get("bert", "zh-CN")
    assert hub.in_memory() == []


@pytest.mark.parametrize("lang, said", [("en", "this server cannot reach the Hugging Face Hub and has no copy"),
                                        ("zh-CN", "本服务器连不上 Hugging Face Hub，也没有它的副本")])
def test_a_hub_out_of_reach_is_said_in_the_pages_language_with_what_to_do_instead(tmp_path, monkeypatch, lang, said):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    hub = HubModels(lambda repository, max_parameters: load_gpt2(repository, max_parameters, cache_dir=tmp_path,
                                                                 allow_folder=False))
    with pytest.raises(gr.Error) as error:
        hub.get("gpt2", lang)
    assert said in error.value.message and "hf download" not in error.value.message


@pytest.mark.parametrize("value", ["", "   ", None, "../etc", "/abs/path", "a/b/c", "x" * 200, "name with space"])
def test_only_hub_repository_names_are_accepted(value):
    with pytest.raises(gr.Error, match="not a Hugging Face Hub repository name"):
        check_repository(value, "en")


@pytest.mark.parametrize("value", ["gpt2", " distilgpt2 ", "openai-community/gpt2", "user/my_model.v2"])
def test_repository_names_pass(value):
    assert check_repository(value, "en") == value.strip()


def test_every_view_works_on_an_imported_gpt2(folders):
    entry = _hub(folders).get("gpt2", "en")
    views = attention_views(entry, "The quick brown fox 你好", "", "decoder", 1, 2, False, "induction", "en")
    assert (views.n_layers, views.n_heads) == (2, 3)
    assert "previous" in attention_views(entry, "The fox", "", "decoder", 0, 0, True, "previous_token",
                                                   "en").best_heads
    for strategy in ("greedy", "sample"):
        generation = generate.Generation.start(entry, "The quick", SamplingConfig(strategy, 0.8, 5, 0.9, 0, 3, 8))
        steps = [generation.stepper.step() for _ in range(4)]
        assert all(step.token_id not in entry.config.never_predict for step in steps)
        assert generate.stepper_views(generation, 1, 2, "en").candidates is not None
    beam = generate.beam_views(entry, "The quick", SamplingConfig("beam", beam_width=3, max_new_tokens=6), "en")
    assert beam.tree is not None
    values = {name: getattr(entry.config, name) for name in FIELDS}
    _, _, summary, _ = architecture_views(values, 64, "en")
    assert f"{entry.n_parameters:,}" in summary
