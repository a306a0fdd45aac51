"""A session's trained model kept by the browser: sent once after a training, put back into a new
session (a restarted server) that lacks it, and, when it cannot come back, a tab asking for it says
what and why."""
import gradio as gr
import pytest

from playground.ui.session import kept_models
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.train import handlers as train_handlers
from playground.ui.tabs.train.form import TrainForm


@pytest.fixture(scope="module")
def trained(registry):
    workspace = Workspace("trainer", registry)
    list(train_handlers.step(workspace, TrainForm(task="copy").fit(None, {"task"})[0].spec("en"), "", "en"))
    return workspace


def test_the_trained_model_is_sent_once_and_comes_back_in_a_new_session(trained, registry):
    kept = kept_models.record(trained)
    assert kept["name"] == "trained-copy" and kept["checkpoint"]
    assert kept_models.record(trained) == gr.skip()                       # the browser has it already
    restarted = Workspace("after-restart", registry)
    assert kept_models.restore(restarted, kept) == (False, True)
    entry, original = restarted.model("trained-copy"), trained.model("trained-copy")
    assert entry is not None and entry.n_parameters == original.n_parameters
    assert kept_models.restore(restarted, kept) == (False, False)        # it has it already
    # what its training measured and drew from comes back with it: the summary's held-out loss and
    # perplexity, and examples of its own task rather than generic ones
    assert original.held_out_loss is not None and entry.held_out_loss == pytest.approx(original.held_out_loss)
    assert len(original.examples) > 0 and entry.examples == original.examples


@pytest.mark.parametrize("value", [None, {}, {"name": "copy"}, {"name": "trained-copy", "checkpoint": "not base64!"}])
def test_nothing_usable_kept_adds_nothing(registry, value):
    assert kept_models.restore(Workspace("s", registry), value) == (False, False)


@pytest.mark.parametrize("lang, said", [("en", "Reload the page"), ("zh-CN", "请刷新页面")])
def test_a_trained_model_the_server_lost_is_explained_with_what_brings_it_back(registry, lang, said):
    error = kept_models.unknown_model(Workspace("s", registry), "trained-induction", lang)
    assert said in error.message and "copy" in error.message
    assert "Reload" not in kept_models.unknown_model(Workspace("s", registry), "nope", "en").message


def test_a_model_too_large_for_the_browser_says_so_after_the_restart(registry):
    restarted = Workspace("s", registry)
    assert kept_models.restore(restarted, {"name": "trained-copy", "bytes": 9_000_000}) == (False, False)
    message = kept_models.unknown_model(restarted, "trained-copy", "en").message
    assert "9.0 MB" in message and "3 MB" in message
