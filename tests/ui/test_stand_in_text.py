"""Where tiny Shakespeare is not on the machine, the guessing game and the vowel probe play the bundled English
text, and their panels say so in the session's language; where the model's own corpus is played they say
nothing of the kind."""
import dataclasses

import pytest

from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate import handlers
from playground.ui.views import probes

from ..offline import without_tiny_shakespeare_loader

SAID = {"en": "bundled English text is used in its place", "zh-CN": "改用内置的英文文本"}


@pytest.fixture
def offline(monkeypatch):
    """tiny Shakespeare neither on the machine nor downloadable; the held-out texts read afresh."""
    probes._held_out.cache_clear()
    monkeypatch.setattr(probes, "load_corpus", without_tiny_shakespeare_loader(probes.load_corpus))
    yield
    probes._held_out.cache_clear()


@pytest.fixture
def workspace(shipped):
    if shipped.get("shakespeare-char") is None or shipped.get("tang-poems-char") is None:
        pytest.skip("needs the shipped character models")
    return Workspace("stand-in", shipped)


@pytest.mark.parametrize("lang", SAID)
def test_the_game_says_it_plays_the_bundled_text_when_tiny_shakespeare_is_missing(offline, workspace, lang):
    drawn = handlers.game_new(workspace, GenerateForm(model="shakespeare-char"), lang)
    assert SAID[lang] in drawn["gg_context"] and "shakespeare-char" in drawn["gg_context"]
    assert workspace.game.game.text in probes.bundled_text()
    guessed = handlers.game_guess(workspace, dataclasses.replace(GenerateForm(model="shakespeare-char"), gg_guess="e"),
                                  lang)
    assert SAID[lang] in guessed["gg_context"]                               # every round keeps saying it


@pytest.mark.parametrize("lang", SAID)
def test_a_game_on_its_own_corpus_says_nothing_of_a_stand_in(offline, workspace, lang):
    drawn = handlers.game_new(workspace, GenerateForm(model="tang-poems-char"), lang)
    assert SAID[lang] not in drawn["gg_context"]


def test_the_vowel_probe_says_which_text_it_read(offline, shipped):
    entry = shipped.get("shakespeare-char")
    if entry is None:
        pytest.skip("needs the shipped shakespeare-char model")
    assert SAID["zh-CN"] in probes.probe_view(entry, entry, "vowel", "zh-CN").summary
    assert probes.played_corpus("tang_poems") == "tang_poems"               # a shipped corpus plays itself
