"""The Generate tab's repetition penalty: a control whose value reaches the library's SamplingConfig,
changes what greedy writes on a shipped model, shows its stage among the candidates, travels in the
tab's link and is refused, in the session's language, where it cannot apply."""
from pathlib import Path

import gradio as gr
import pytest

from playground.ui.page.forms import Refused, decode_query, encode_query
from playground.ui.inputs.validation import refused
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import DEFAULTS, GenerateForm, handlers
from playground.zoo import ModelRegistry

PRETRAINED = Path(__file__).resolve().parents[2] / "pretrained"
MODEL, PROMPT = "shakespeare-char", "the the the "       # greedy writes "state of the state" after it


@pytest.fixture(scope="module")
def shipped():
    return ModelRegistry(PRETRAINED)


def written(updates) -> str:
    return "".join(part for part, kind in updates["output"] if kind != "prompt")


def greedy(registry, penalty: float, max_new: int = 24) -> dict:
    form = GenerateForm(model=MODEL, prompt=PROMPT, max_new=max_new, repetition_penalty=penalty)
    return list(handlers.run(Workspace("s", registry), form, "en"))[-1]


def test_a_penalty_changes_what_greedy_writes_on_a_repetitive_prompt(shipped):
    plain, penalised = written(greedy(shipped, 1.0)), written(greedy(shipped, 1.5))
    assert plain.replace("␣", " ").startswith("state of the state")        # greedy repeats itself
    assert penalised != plain


def stage_names(updates) -> list[str]:
    return [trace.name for trace in updates["candidates"].constructor_args["value"].data]


@pytest.mark.parametrize("lang, stage", [("en", "after the repetition penalty"), ("zh-CN", "重复惩罚之后")])
def test_the_candidates_show_the_penalty_stage_and_the_token_chosen_after_it(shipped, lang, stage):
    workspace = Workspace("s", shipped)
    plain_form = GenerateForm(model=MODEL, prompt=PROMPT, repetition_penalty=1.0)
    penalised_form = GenerateForm(model=MODEL, prompt=PROMPT, repetition_penalty=1.5)
    handlers.reset(workspace, plain_form, lang)
    plain = handlers.step(workspace, plain_form, lang)
    assert stage not in stage_names(plain)
    handlers.reset(workspace, penalised_form, lang)
    penalised = handlers.step(workspace, penalised_form, lang)
    assert stage in stage_names(penalised)
    for _ in range(23):
        handlers.step(workspace, penalised_form, lang)
    steps = workspace.generation.stepper.steps
    assert all(step.token_id == int(step.stages["repetition"].argmax()) for step in steps)   # greedy after it
    assert any(step.token_id != int(step.raw_probs.argmax()) for step in steps)    # and it changed the choice


def form_settings(lang: str, **changes):
    """The settings of a page form with `changes`, refused as the page refuses them."""
    try:
        form = GenerateForm.from_values({**DEFAULTS, **changes})
    except Refused as error:
        raise refused(error, lang) from None
    return form.sampling(16, lang)


@pytest.mark.parametrize("changes, lang, fragments", [
    ({"repetition_penalty": 0}, "en", ("Repetition penalty", "between 1.0 and 5.0")),
    ({"repetition_penalty": -1}, "en", ("Repetition penalty", "-1")),
    ({"repetition_penalty": "strong"}, "en", ("Repetition penalty",)),
    ({"repetition_penalty": 9.0}, "zh-CN", ("重复惩罚",)),
    ({"repetition_penalty": 1.5, "strategy": "beam"}, "en", ("takes no repetition penalty", "set the repetition "
                                                            "penalty to 1")),
    ({"repetition_penalty": 1.5, "strategy": "beam"}, "zh-CN", ("不使用重复惩罚",)),
])
def test_a_bad_penalty_is_refused_with_a_message_in_the_session_language(changes, lang, fragments):
    with pytest.raises(gr.Error) as excinfo:
        form_settings(lang, **changes)
    assert all(fragment in excinfo.value.message for fragment in fragments), excinfo.value.message
    assert "Traceback" not in excinfo.value.message and "repetition_penalty must" not in excinfo.value.message


def test_a_penalty_with_beam_search_is_refused_by_the_run_handler(shipped):
    form = GenerateForm(model=MODEL, prompt=PROMPT, strategy="beam", repetition_penalty=1.5)
    with pytest.raises(gr.Error, match="takes no repetition penalty"):
        list(handlers.run(Workspace("s", shipped), form, "en"))


def test_the_penalty_travels_in_the_tab_link():
    form = GenerateForm(model=MODEL, prompt=PROMPT, repetition_penalty=1.5)
    query = encode_query(form.to_query())
    assert "repetition_penalty=1.5" in query
    back, ignored = GenerateForm.from_query(dict(decode_query("?" + query)))
    assert (back.repetition_penalty, ignored) == (1.5, [])
    bad, ignored = GenerateForm.from_query({"repetition_penalty": "0.5"})
    assert bad.repetition_penalty == 1.0 and [error.param for error in ignored] == ["repetition_penalty"]
