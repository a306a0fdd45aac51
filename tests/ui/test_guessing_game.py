"""Guess the next character, in Generate and in lesson 1: the scores come from the real held-out text, the
model's guess is its argmax, a game is bounded and one a session, a rematch replays the same rounds against
a checkpoint; bad guesses and steps are refused in both languages; the Chinese interface plays and opens
Generate on the Chinese model."""
import dataclasses

import gradio as gr
import pytest
import torch

from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate import handlers
from playground.ui.tabs.lessons import handlers as lessons
from playground.ui.tabs.lessons.form import LessonsForm
from playground.ui.views.guessing import MAX_ROUNDS, GameState

TANG = GenerateForm(model="tang-poems-char")       # a shipped character model whose corpus is bundled
LANGS = ("en", "zh-CN")


@pytest.fixture
def workspace(shipped):
    return Workspace("game", shipped)


def guess(workspace, character: str, lang: str = "en", form: GenerateForm = TANG) -> dict:
    return handlers.game_guess(workspace, dataclasses.replace(form, gg_guess=character), lang)


def argmax_guess(entry, text: str, position: int) -> str:
    """The model's most likely next character after text[:position] (its last max_len characters), computed here."""
    context = text[max(0, position - entry.config.max_len):position]
    with torch.no_grad():
        logits = entry.model(torch.tensor([entry.tokenizer.encode(context)]))[0, -1]
    return entry.tokenizer.decode([int(logits.argmax())], skip_special=False)


@pytest.mark.parametrize("lang", LANGS)
def test_each_round_scores_both_guesses_against_the_real_text_and_the_model_guesses_its_argmax(workspace, shipped,
                                                                                              lang):
    drawn = handlers.game_new(workspace, TANG, lang)
    state = workspace.game
    text, positions = state.game.text, state.game.positions
    assert len(positions) == MAX_ROUNDS and drawn["gg_guess"] == ""
    assert state.game.context(8)[-8:] in drawn["gg_context"].replace("↵  \n> ", "\n")     # the text before round 1
    guesses = [text[positions[0]], "の", text[positions[2]]]                 # right, wrong, right
    for character in guesses:
        drawn = guess(workspace, character, lang)
    entry = shipped.get("tang-poems-char")
    rounds = workspace.game.game.rounds
    assert [r.answer for r in rounds] == [text[p] for p in positions[:3]]
    assert [r.learner_right for r in rounds] == [True, False, True]
    assert [r.model.guess for r in rounds] == [argmax_guess(entry, text, p) for p in positions[:3]]
    model_right = sum(r.model.guess == r.answer for r in rounds)
    score = f"you 2, the model {model_right} after 3 of 10" if lang == "en" else f"3 / 10 轮后，你 2，模型 {model_right}"
    assert score in drawn["gg_result"]
    assert drawn["gg_result"].count("\n| ") == 3 + 1                          # the table: its head and three rounds


def test_a_game_ends_after_its_rounds_and_a_new_one_replaces_it(workspace):
    handlers.game_new(workspace, TANG, "en")
    first = workspace.game
    for _ in range(MAX_ROUNDS):
        drawn = guess(workspace, "の")
    assert first.game.finished and "Game over" in drawn["gg_result"] and drawn["gg_context"] == "The game is over."
    with pytest.raises(gr.Error, match="The game is over"):
        guess(workspace, "の")
    handlers.game_new(workspace, TANG, "en")
    assert workspace.game is not first and workspace.game.seed == first.seed + 1 and not workspace.game.game.rounds
    assert workspace.game.game.positions != first.game.positions


def test_a_guess_without_a_game_starts_one_and_scores_nothing(workspace):
    drawn = guess(workspace, "春")
    assert isinstance(workspace.game, GameState) and workspace.game.game.rounds == []
    assert "A new game of 10 rounds" in drawn["gg_result"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_rematch_replays_the_same_rounds_against_a_checkpoint(workspace, shipped, lang):
    handlers.game_new(workspace, TANG, lang)
    played = workspace.game
    guess(workspace, "の", lang)
    steps = shipped.timeline_steps("tang-poems-char")
    drawn = handlers.game_rematch(workspace, dataclasses.replace(TANG, gg_step=steps[0]), lang)
    again = workspace.game
    early = shipped.timeline_entry("tang-poems-char", steps[0])
    final = shipped.get("tang-poems-char")
    assert again.game.positions == played.game.positions and again.game.model is early.model and again.step == steps[0]
    right = {name: sum(argmax_guess(entry, again.game.text, p) == again.game.text[p] for p in again.game.positions)
             for name, entry in (("earlier", early), ("final", final))}
    assert again.compared == right
    said = (f"step {steps[0]} guesses **{right['earlier']}** right; at step {steps[-1]}, **{right['final']}**"
            if lang == "en" else f"第 {steps[0]} 步的模型猜对 **{right['earlier']}** 个；第 {steps[-1]} 步的模型猜对 "
                                  f"**{right['final']}** 个")
    assert said in drawn["gg_result"]
    picker = drawn["gg_step"].constructor_args
    assert [value for _, value in picker["choices"]] == steps[:-1] and picker["value"] == steps[0]
    guess(workspace, "の", lang)
    assert workspace.game.game.rounds[0].model.guess == argmax_guess(early, again.game.text, again.game.positions[0])


@pytest.mark.parametrize("lang, form, fragment", [
    ("en", dataclasses.replace(TANG, gg_guess="ab"), "exactly one character"),
    ("zh-CN", dataclasses.replace(TANG, gg_guess="春风"), "恰好一个字符"),
    ("en", dataclasses.replace(TANG, gg_guess=""), "exactly one character"),
])
def test_a_guess_that_is_not_one_character_is_refused(workspace, lang, form, fragment):
    handlers.game_new(workspace, TANG, lang)
    with pytest.raises(gr.Error, match=fragment):
        handlers.game_guess(workspace, form, lang)
    assert workspace.game.game.rounds == []


@pytest.mark.parametrize("lang, step, fragment", [("en", None, "Pick a training step"), ("zh-CN", None, "请选择"),
                                                  ("en", 7, "choose one of")])
def test_a_rematch_needs_a_step_of_the_timeline(workspace, lang, step, fragment):
    with pytest.raises(gr.Error, match=fragment):
        handlers.game_rematch(workspace, dataclasses.replace(TANG, gg_step=step), lang)


def test_the_api_turn_plays_a_guess_starts_a_game_or_rematches_by_what_it_is_given(workspace, shipped):
    handlers.game_turn(workspace, TANG, "zh-CN")
    assert workspace.game.step is None and not workspace.game.game.rounds
    handlers.game_turn(workspace, dataclasses.replace(TANG, gg_guess="春"), "zh-CN")
    assert len(workspace.game.game.rounds) == 1
    step = shipped.timeline_steps("tang-poems-char")[0]
    handlers.game_turn(workspace, dataclasses.replace(TANG, gg_step=step), "zh-CN")
    assert workspace.game.step == step and workspace.game.replayed[1].rounds == 1


def test_a_model_that_cannot_play_gives_its_place_to_the_languages_own(workspace, registry):
    drawn = handlers.game_new(workspace, GenerateForm(model="copy"), "zh-CN")
    assert workspace.game.model == "tang-poems-char" and "tang-poems-char" in drawn["gg_context"]
    with pytest.raises(gr.Error, match="No character model"):
        handlers.game_new(Workspace("tiny", registry), GenerateForm(model="tiny-gpt"), "en")


def test_the_game_is_drawn_again_in_the_other_language(workspace):
    handlers.game_new(workspace, TANG, "en")
    guess(workspace, "の")
    drawn = handlers.game_drawn(workspace, TANG, "zh-CN")
    assert "第 2 / 10 轮" in drawn["gg_context"] and "第 1 轮" in drawn["gg_result"]


def test_the_chinese_interface_opens_generate_on_the_chinese_model(workspace, registry):
    assert handlers.initial_form(workspace) is None                          # no language yet: the layout's form
    workspace.language = "zh-CN"
    form = handlers.initial_form(workspace)
    assert form.model == "tang-poems-char" and form.prompt == "白日依山尽，"
    english = Workspace("tiny", registry)
    english.language = "zh-CN"
    assert handlers.initial_form(english) is None                            # not shipped here


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_1_shows_the_game_against_the_languages_model_and_plays_it(workspace, lang):
    screen = lessons.open_lesson(workspace, LessonsForm(lesson="tokens"), lang)
    assert screen["gg_panel"].constructor_args["visible"] is True
    other = lessons.open_lesson(workspace, LessonsForm(lesson="masks"), lang)
    assert other["gg_panel"].constructor_args["visible"] == "hidden" and "gg_context" not in other
    if lang == "zh-CN":                                                      # the English model's corpus may be absent
        drawn = lessons.game_turn(workspace, "", None, lang, "new")
        assert workspace.game.model == "tang-poems-char" and "第 1 / 10 轮" in drawn["gg_context"]
        lessons.game_turn(workspace, "春", None, lang, "guess")
        assert len(workspace.game.game.rounds) == 1
    with pytest.raises(gr.Error, match="exactly one character" if lang == "en" else "恰好一个字符"):
        lessons.game_turn(workspace, "春风", None, lang, "guess")
    with pytest.raises(gr.Error, match="whole number"):
        lessons.game_turn(workspace, "", "0", "en", "rematch")
