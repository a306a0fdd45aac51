"""Llama- and Qwen2-family Hub models in the app: loaded through the same path as GPT-2, refused with a
reason in the page's language, and the Attention, Generate and Architecture views work on them.
The "Hub" here is a temporary folder: no network."""
from __future__ import annotations

import json

import gradio as gr
import pytest

from playground.hub import load_model
from playground.ui.header.hub_models import MAX_HUB_PARAMETERS, HubModels
from playground.generate import SamplingConfig
from playground.ui.tabs import generate
from playground.ui.views.architecture import FIELDS, architecture_views
from playground.ui.views.attention import attention_views
from tests.hub.llama_helpers import save_random_llm

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    folders = {}
    for family, name in (("llama", "HuggingFaceTB/SmolLM2-135M"), ("qwen2", "Qwen/Qwen2.5-0.5B"),
                         ("llama", "mistralai/Mistral-7B"), ("llama", "meta-llama/Llama-3.1-8B")):
        folders[name] = tmp_path_factory.mktemp(family)
        save_random_llm(folders[name], family, hidden=32, heads=4, kv_heads=2, layers=2, tied=True)
    for name, changes in (("mistralai/Mistral-7B", {"model_type": "mistral"}),
                          ("meta-llama/Llama-3.1-8B", {"rope_scaling": {"rope_type": "llama3", "factor": 8.0}})):
        path = folders[name] / "config.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))
    return HubModels(lambda repository, max_parameters: load_model(folders[repository], max_parameters))


def test_qwen25_05b_fits_the_apps_limit():
    assert 493_793_536 <= MAX_HUB_PARAMETERS < 774_030_080                   # Qwen2.5-0.5B in, gpt2-large out


@pytest.mark.parametrize("repository, lang, said", [
    ("mistralai/Mistral-7B", "en", "mistralai/Mistral-7B is a mistral model: the Playground runs GPT-2, Llama and Qwen2"),
    ("mistralai/Mistral-7B", "zh-CN", "是 mistral 模型：本游乐场运行 GPT-2、Llama 和 Qwen2 模型"),
    ("meta-llama/Llama-3.1-8B", "en", "its config.json sets rope_scaling, a variant"),
    ("meta-llama/Llama-3.1-8B", "zh-CN", "它的 config.json 设置了 rope_scaling"),
])
def test_a_family_or_variant_the_stack_lacks_is_refused_in_the_pages_language(hub, repository, lang, said):
    with pytest.raises(gr.Error) as error:
        hub.get(repository, lang)
    assert said in error.value.message


@pytest.mark.parametrize("repository", ["HuggingFaceTB/SmolLM2-135M", "Qwen/Qwen2.5-0.5B"])
def test_every_view_works_on_an_imported_llama_and_qwen2(hub, repository):
    entry = hub.get(repository, "en")
    assert entry.config.norm_type == "rmsnorm" and entry.config.kv_heads == 2 and entry.source == "hub"
    views = attention_views(entry, "The quick brown fox 你好", "", "decoder", 1, 2, False, "induction", "en")
    assert (views.n_layers, views.n_heads) == (2, 4)
    for strategy in ("greedy", "sample"):
        generation = generate.Generation.start(entry, "The quick", SamplingConfig(strategy, 0.8, 5, 0.9, 0, 3, 8))
        steps = [generation.stepper.step() for _ in range(4)]
        assert all(step.token_id not in entry.config.never_predict for step in steps)
        assert generate.stepper_views(generation, 1, 2, "en").candidates is not None
    values = {name: getattr(entry.config, name) for name in FIELDS}
    _, _, summary, _ = architecture_views(values, 64, "en")
    assert summary
