import dataclasses
import html
import random
from dataclasses import replace

import gradio as gr
import numpy as np
import pytest

from playground.generate import SamplingConfig
from playground.ui.page.forms import Refused, decode_query, encode_query
from playground.ui.page.links import link_query, parse_link
from playground.ui.inputs.validation import MAX_BEAM_WIDTH, MAX_NEW_TOKENS, MAX_SEED, MAX_TOP_K, refused
from playground.ui.session.examples import GENERATE_EXAMPLES, examples_for
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import (
    DEFAULTS,
    GenerateForm,
    Generation,
    beam_views,
    check_prompt,
    current_generation,
    handlers,
    stepper_views,
)
from playground.ui.views.generate import STRATEGIES, BeamRun, Pieces

VOCAB = 16


def settings(**changes) -> SamplingConfig:
    """The decoding settings of a Generate form with `changes`, refused as the page refuses them."""
    try:
        form = GenerateForm.from_values({**DEFAULTS, **changes})
    except Refused as error:
        raise refused(error, "en") from None
    return form.sampling(VOCAB, "en")


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
    sampling = settings(strategy="sample", top_k=0, top_p=1.0)
    assert sampling.top_k is None and sampling.top_p is None
    sampling = settings(strategy="sample", top_k=5, top_p=0.9)
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


@pytest.mark.parametrize("token, shown", [("<eos>", "&lt;eos&gt;"), ("*", "&#42;"), ("`", "&#96;")])
def test_the_status_line_shows_special_and_markdown_tokens_as_written(registry, token, shown):
    generation = Generation.start(registry.get("tiny-gpt"), "abc", settings())
    step = generation.stepper.step()
    generation.stepper.steps[-1] = dataclasses.replace(step, token_text=token)
    views = stepper_views(generation, 0, 0, "en")
    assert f"chose **{shown}** with" in views.status
    assert f"(chosen: {html.escape(token, quote=False)})" in views.candidates.layout.title.text


# The tab's form, links and handlers (issue 16)

TEXT_CHARS = "abc xyz&=?#%+/\n中文é"


def random_form(rng: random.Random) -> GenerateForm:
    strategy = rng.choice(STRATEGIES)
    return GenerateForm(
        model=rng.choice(["copy", "tiny-gpt"]), prompt="".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, 30))),
        strategy=strategy, temperature=rng.choice([0.05, 0.7, 1.0, 5.0, rng.uniform(0.05, 5.0)]),
        top_k=rng.randint(0, MAX_TOP_K), top_p=rng.choice([1.0, 0.01, rng.uniform(0.01, 1.0)]),
        seed=rng.randint(0, MAX_SEED), max_new=rng.randint(1, MAX_NEW_TOKENS), beam_width=rng.randint(1, MAX_BEAM_WIDTH),
        layer=rng.randint(0, 47), head=rng.randint(0, 47),
        steps=0 if strategy == "beam" else rng.randint(0, MAX_NEW_TOKENS),
        ho_heads=tuple(rng.sample(["decoder.0.0", "decoder.1.1", "cross.1.0", "encoder.0.3"], rng.randint(0, 3))),
        ho_how=rng.choice(["zero", "mean"]), xb_target="".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, 30))))


def test_random_generate_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(16)
    for _ in range(200):
        form = random_form(rng)
        back, ignored = GenerateForm.from_query(dict(decode_query("?" + encode_query(form.to_query()))))
        assert (back, ignored) == (form, [])


@pytest.mark.parametrize("name, raw, fragment", [
    ("strategy", "nucleus", "greedy, sample, beam"),
    ("temperature", "0", "between 0.05 and 5.0"),
    ("temperature", "hot", "a number"),
    ("top_k", "2.5", "whole number"),
    ("top_p", "1.5", "between 0.01 and 1.0"),
    ("seed", "-1", "between 0 and"),
    ("max_new", str(MAX_NEW_TOKENS + 1), str(MAX_NEW_TOKENS)),
    ("beam_width", "0", "between 1 and"),
    ("steps", "three", "whole number"),
])
def test_a_bad_value_in_a_generate_link_is_refused_naming_its_parameter(name, raw, fragment):
    form, ignored = GenerateForm.from_query({name: raw})
    assert getattr(form, name) == GenerateForm.params()[name].default
    assert [error.param for error in ignored] == [name]
    assert fragment in str(ignored[0])


def test_a_fraction_sent_to_an_integer_control_is_refused_not_rounded():
    with pytest.raises(Refused) as excinfo:
        GenerateForm.from_values({"top_k": 2.5})
    assert excinfo.value.param == "top_k"
    assert GenerateForm.from_values({"max_new": 12.0}).max_new == 12


def test_a_beam_link_has_no_steps():
    form, ignored = GenerateForm.from_query({"strategy": "beam", "steps": "3"})
    assert (form.strategy, form.steps) == ("beam", 0) and [e.param for e in ignored] == ["steps"]


def test_a_link_fits_its_model_and_loads_its_first_example(registry):
    page = parse_link("?view=generate&model=tiny-gpt&layer=5&top_k=40", ("attention", "generate"),
                      {"generate": GenerateForm}, registry)
    assert page.form.prompt and page.form.layer == 0 and page.form.top_k == 0
    assert sorted(error.param for error in page.ignored) == ["layer", "top_k"]


def shown_tokens(updates) -> list:
    return [(token, kind) for token, kind in updates["output"]]


@pytest.mark.parametrize("strategy", ["greedy", "sample"])
def test_a_link_with_steps_shows_the_tokens_of_as_many_step_presses(registry, strategy):
    form = GenerateForm(model="tiny-gpt", prompt="abc", strategy=strategy, seed=5, temperature=1.5)
    pressed = Workspace("teacher", registry)
    handlers.reset(pressed, form, "en")
    for _ in range(3):
        last = handlers.step(pressed, form, "en")
    assert last["steps"] == 3
    query = link_query(registry, "generate", replace(form, steps=last["steps"]), "en")
    page = parse_link(query, ("attention", "generate"), {"generate": GenerateForm}, registry)
    assert page.form.steps == 3 and page.ignored == []
    opened = handlers.draw(Workspace("student", registry), page.form, "en")
    assert shown_tokens(opened) == shown_tokens(last) and opened["status"] == last["status"]
    assert len([kind for _, kind in shown_tokens(opened) if kind != "prompt"]) == 3


def test_step_back_and_reset_count_the_steps_of_the_link(registry):
    workspace, form = Workspace("s", registry), GenerateForm(model="tiny-gpt", prompt="abc")
    assert handlers.reset(workspace, form, "en")["steps"] == 0
    assert handlers.step(workspace, form, "en")["steps"] == 1
    assert handlers.step(workspace, form, "en")["steps"] == 2
    assert handlers.back(workspace, form, "en")["steps"] == 1
    redrawn = handlers.draw(workspace, replace(form, steps=1), "zh-CN")        # a language change keeps the generation
    assert redrawn["steps"] == 1 and workspace.generation.stepper.steps
    assert handlers.reset(workspace, form, "en")["steps"] == 0


def test_a_refused_prompt_replaces_the_figures_with_the_reason(registry):
    workspace = Workspace("s", registry)
    updates = handlers.refused(workspace, GenerateForm(model="tiny-gpt", prompt="abz"), "en")
    assert updates["output"] == [] and "'z'" in updates["status"]
    for name in ("candidates", "filling"):
        notice = updates[name].constructor_args["value"]
        assert "'z'" in " ".join(a.text for a in notice.layout.annotations)
    assert handlers.refused(workspace, GenerateForm(model="tiny-gpt", prompt="abc"), "en") == {}


def test_a_new_model_brings_its_own_first_example_when_it_cannot_read_the_prompt(registry):
    workspace = Workspace("s", registry)
    updates = handlers.change_model(workspace, GenerateForm(model="copy", prompt="zzz"), "en")
    assert updates["prompt"].value == examples_for(registry.get("copy"), GENERATE_EXAMPLES)[0]
    assert updates["steps"] == 0 and updates["filling"].constructor_args["visible"]
    kept = handlers.change_model(workspace, GenerateForm(model="tiny-gpt", prompt="abc"), "en")
    assert kept["prompt"].value == "abc" and kept["prompt"].label.key == "lbl_prompt"     # a text it continues


def test_beam_search_hides_step_and_back_and_runs_at_once(registry):
    workspace, form = Workspace("s", registry), GenerateForm(model="tiny-gpt", prompt="abc", strategy="beam",
                                                             max_new=3, beam_width=2)
    drawn = handlers.draw(workspace, form, "en")
    assert not drawn["step_button"].constructor_args["interactive"]
    with pytest.raises(gr.Error, match="Beam search runs as a whole"):
        handlers.step(workspace, form, "en")
    (ran,) = list(handlers.run(workspace, form, "en"))
    assert ran["tree"].constructor_args["visible"] and "Best:" in ran["status"]


def test_a_beam_search_run_is_drawn_again_in_a_new_language_until_its_inputs_change_or_reset(registry):
    workspace, form = Workspace("s", registry), GenerateForm(model="tiny-gpt", prompt="abc", strategy="beam",
                                                             max_new=3, beam_width=2)
    (ran,) = list(handlers.run(workspace, form, "en"))
    again = handlers.draw(workspace, form, "zh-CN")                  # the language changed, or the tab reopened
    assert again["tree"].constructor_args["visible"] and again["status"].startswith("**最优：**")
    assert [part for part, _ in again["output"]] == [part for part, _ in ran["output"]]   # the same text
    assert again["tree"].constructor_args["value"].to_dict()["data"][0]["x"] == \
        ran["tree"].constructor_args["value"].to_dict()["data"][0]["x"]
    wider = handlers.draw(workspace, replace(form, beam_width=3), "en")   # another search: Run it
    assert not wider["tree"].constructor_args["visible"] and "press Run" in wider["status"]
    handlers.reset(workspace, form, "en")
    assert not handlers.draw(workspace, form, "en")["tree"].constructor_args["visible"]


def test_beam_search_picked_after_steps_starts_again_waiting_for_run(registry):
    workspace = Workspace("s", registry)
    stepped = GenerateForm(model="tiny-gpt", prompt="abc")
    handlers.step(workspace, stepped, "en")
    page = GenerateForm.from_values({**{name: getattr(stepped, name) for name in GenerateForm.params()},
                                     "strategy": "beam", "steps": 1})      # the page still counts the step
    assert page.steps == 0
    restarted = handlers.restart(workspace, page, "en")
    assert not restarted["step_button"].constructor_args["interactive"] and restarted["steps"] == 0
    assert workspace.generation is None


def test_run_streams_to_the_end_and_counts_every_step(registry):
    workspace, form = Workspace("s", registry), GenerateForm(model="tiny-gpt", prompt="abc", max_new=5)
    updates = list(handlers.run(workspace, form, "en"))
    assert updates[-1]["steps"] == 5 and len(workspace.generation.stepper.steps) == 5


def test_candidate_labels_are_looked_up_only_for_the_bars_shown(registry):
    entry = registry.get("tiny-gpt")
    looked_up = []

    class Counting:
        vocab_size = entry.tokenizer.vocab_size

        def id_to_piece(self, token_id):
            looked_up.append(token_id)
            return entry.tokenizer.id_to_piece(token_id)

    pieces = Pieces(Counting())
    assert len(pieces) == entry.tokenizer.vocab_size and looked_up == []
    assert pieces[3] == entry.tokenizer.id_to_piece(3) and looked_up == [3]


def test_a_near_certain_beam_prints_no_negative_zero(registry):
    entry, prompt, chosen = registry.get("tiny-gpt"), "abc", settings(strategy="beam", beam_width=2, max_new=4)
    result = BeamRun.of(entry, prompt, chosen).result
    almost_zero = dataclasses.replace(result.best, logprob=-1e-5, score=-2e-6)
    result = dataclasses.replace(result, best=almost_zero, finished=[almost_zero, *result.finished[1:]])
    for lang in ("en", "zh-CN"):
        status = beam_views(entry, prompt, chosen, lang, result).status
        assert "-0.000" not in status and "0.000" in status
