import dataclasses
import html

import gradio as gr
import numpy as np
import pytest

from playground.ui.tabs.generate import (
    DEFAULTS,
    Generation,
    Settings,
    beam_views,
    check_prompt,
    check_settings,
    current_generation,
    stepper_views,
)
from playground.ui.validation import MAX_BEAM_WIDTH, MAX_NEW_TOKENS
from playground.ui.workspace import Workspace

VOCAB = 16


def settings(**changes) -> Settings:
    values = {**DEFAULTS, **changes}
    return check_settings(values["strategy"], values["temperature"], values["top_k"], values["top_p"], values["seed"],
                          values["max_new"], values["beam_width"], VOCAB, "en")


@pytest.mark.parametrize("changes, fragment", [
    ({"strategy": "nucleus"}, "greedy, sample, beam"),
    ({"temperature": 0.0}, "0.05"),
    ({"temperature": 9.0}, "5.0"),
    ({"top_k": VOCAB + 1}, str(VOCAB)),
    ({"top_k": 2.5}, "whole number"),
    ({"top_p": 0.0}, "0.01"),
    ({"max_new": MAX_NEW_TOKENS + 1}, str(MAX_NEW_TOKENS)),
    ({"beam_width": MAX_BEAM_WIDTH + 1}, str(MAX_BEAM_WIDTH)),
    ({"seed": -1}, "Seed"),
])
def test_settings_out_of_range_are_refused(changes, fragment):
    with pytest.raises(gr.Error) as excinfo:
        settings(**changes)
    assert fragment in excinfo.value.message


def test_off_switches_map_to_no_filter():
    sampling = settings(strategy="sample", top_k=0, top_p=1.0).sampling()
    assert sampling.top_k is None and sampling.top_p is None
    sampling = settings(strategy="sample", top_k=5, top_p=0.9).sampling()
    assert (sampling.top_k, sampling.top_p) == (5, 0.9)


def test_prompts_are_checked_against_the_model(registry):
    entry = registry.get("tiny-gpt")
    assert check_prompt(entry, "abc", "en") == "abc"
    with pytest.raises(gr.Error) as unknown:
        check_prompt(entry, "abz", "en")
    assert "'z'" in unknown.value.message
    with pytest.raises(gr.Error) as long:
        check_prompt(entry, "a" * 25, "en")
    assert "25" in long.value.message and "24" in long.value.message


def test_steps_continue_and_back_restores_the_same_token(registry):
    entry, workspace = registry.get("tiny-gpt"), Workspace("s")
    generation = current_generation(workspace, entry, "abc", settings(strategy="sample", seed=3))
    chosen = [generation.stepper.step().token_id for _ in range(3)]
    assert current_generation(workspace, entry, "abc", settings(strategy="sample", seed=3)) is generation
    generation.stepper.back()
    assert generation.stepper.step().token_id == chosen[-1]
    views = stepper_views(generation, 1, 1, "en")
    bars = views.candidates.data
    assert [trace.name for trace in bars] == ["raw", "after temperature"]
    assert views.status.startswith("Step 3: chose")
    filled = np.asarray(views.filling.data[0].z, dtype=float)               # [W, W], causal
    assert filled.shape == (6, 6) and np.all(np.nan_to_num(np.triu(filled, k=1)) == 0)
    assert [kind for _, kind in views.output] == ["prompt"] * 3 + ["generated"] * 2 + ["newest"]


def test_new_settings_apply_to_the_next_step_and_a_new_prompt_starts_again(registry):
    entry, workspace = registry.get("tiny-gpt"), Workspace("s")
    generation = current_generation(workspace, entry, "abc", settings())
    generation.stepper.step()
    continued = current_generation(workspace, entry, "abc", settings(strategy="sample", top_k=3))
    assert continued is generation and continued.stepper.settings.top_k == 3
    restarted = current_generation(workspace, entry, "cab", settings())
    assert restarted is not generation and restarted.stepper.steps == []


def test_greedy_steps_take_the_most_likely_token(registry):
    generation = Generation.start(registry.get("copy"), "abcd", settings())
    step = generation.stepper.step()
    assert step.token_id == int(np.argmax(step.raw_probs))
    views = stepper_views(generation, 0, 0, "zh-CN")
    assert views.token_cross is not None and "交叉注意力" in views.token_cross.layout.title.text
    assert [trace.name for trace in views.candidates.data] == ["原始"]


def test_beam_search_draws_its_tree_and_marks_the_best_path(registry):
    views = beam_views(registry.get("tiny-gpt"), "abc", settings(strategy="beam", beam_width=2, max_new=4), "en")
    assert views.candidates is None and views.tree is not None
    assert "Best:" in views.status
    assert views.output[-1][1] == "generated"


@pytest.mark.parametrize("token, shown", [("<eos>", "&lt;eos&gt;"), ("*", "\\*"), ("`", "\\`")])
def test_the_status_line_shows_special_and_markdown_tokens_as_written(registry, token, shown):
    generation = Generation.start(registry.get("tiny-gpt"), "abc", settings())
    step = generation.stepper.step()
    generation.stepper.steps[-1] = dataclasses.replace(step, token_text=token)
    views = stepper_views(generation, 0, 0, "en")
    assert f"chose **{shown}** with" in views.status
    assert f"(chosen: {html.escape(token, quote=False)})" in views.candidates.layout.title.text
