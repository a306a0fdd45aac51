"""A tab's streaming handler: every update it yields is sent, with the tab's link; a refusal names
its reason as a gr.Error; a training handler runs with autograd on."""
from dataclasses import dataclass

import gradio as gr
import pytest
import torch

from playground.ui.page.forms import Refused
from playground.ui.page.wiring import TabWiring
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.tokenizer import TokenizerForm


@dataclass
class Context:
    registry: object
    views: dict

    def workspace(self, request):
        return Workspace(request, self.registry)


def test_each_update_of_a_stream_is_sent_with_the_link(registry):
    components = {name: gr.Textbox() for name in (*TokenizerForm.params(), "counts")}
    tab = TabWiring(Context(registry, {}), TokenizerForm, components)

    def count(workspace, form, lang):
        for n in range(3):
            yield {"counts": f"{n} of {form.text}"}

    event = tab.function(count, stream=True)
    values = [getattr(TokenizerForm(text="abc"), name) for name in TokenizerForm.params()]
    sent = list(event("s", None, *values, "en"))
    assert [update[components["counts"]] for update in sent] == ["0 of abc", "1 of abc", "2 of abc"]
    assert all("view=tokenizer" in update[tab.link] and "text=abc" in update[tab.link] for update in sent)

    def refuses(workspace, form, lang):
        yield {"counts": "first"}
        raise Refused("vocab_size", "err_out_of_range", value=1, low=262, high=4000)

    stream = tab.function(refuses, stream=True)("s", None, *values, "zh-CN")
    assert next(stream)[components["counts"]] == "first"
    with pytest.raises(gr.Error, match="262"):
        next(stream)


def test_a_training_stream_has_autograd_on(registry):
    components = {name: gr.Textbox() for name in (*TokenizerForm.params(), "counts")}
    tab = TabWiring(Context(registry, {}), TokenizerForm, components)

    def trains(workspace, form, lang):
        yield {"counts": str(torch.is_grad_enabled() and not torch.is_inference_mode_enabled())}

    values = [getattr(TokenizerForm(), name) for name in TokenizerForm.params()]
    assert next(tab.function(trains, stream=True, trains=True)("s", None, *values, "en"))[components["counts"]] == "True"
    assert next(tab.function(trains, stream=True)("s", None, *values, "en"))[components["counts"]] == "False"


def test_a_trigger_is_known_by_its_elem_id_when_gradio_has_rebuilt_it(registry):
    """An event that updated a component leaves a new object in the session's state: a later event
    from it is still routed to its own handler."""
    components = {name: gr.Textbox(elem_id=f"tok-{name}") for name in (*TokenizerForm.params(), "counts")}
    tab = TabWiring(Context(registry, {}), TokenizerForm, components)
    event = tab.function(lambda workspace, form, lang: {"counts": "drawn"},
                         by_trigger={"corpus": lambda workspace, form, lang: {"counts": "corpus changed"}})
    values = [getattr(TokenizerForm(), name) for name in TokenizerForm.params()]
    rebuilt = gr.EventData(gr.Radio(elem_id="tok-corpus", render=False), {})            # not the layout's object
    assert event("s", rebuilt, *values, "en")[components["counts"]] == "corpus changed"
    other = gr.EventData(gr.Button(elem_id="tok-run", render=False), {})
    assert event("s", other, *values, "en")[components["counts"]] == "drawn"
