"""Guess the next character, as the Generate tab and lesson 1 play it: the learner and a character model
guess what comes next in text the model never trained on (the held-out part of its corpus), scored side by
side; a rematch plays the same rounds against a checkpoint of the model's training timeline.

The session's one game lives in its Workspace (`workspace.game`, a GameState): at most MAX_ROUNDS rounds,
holding the shared models and text, never copies of them.

    game_entry(workspace, name, lang)                -> the model to play (the named one, or the language's own)
    new_game(workspace, entry, lang)                 -> a fresh game against `entry`
    play(workspace, entry, guess, lang)              -> the learner's guess scored (a new game when none is on)
    rematch(workspace, entry, step, lang)            -> the same rounds against the model at `step`
    game_updates(workspace, entry, lang)             -> {"gg_context": ..., "gg_result": ...} (saying when the
                                                        bundled English text stands in for tiny Shakespeare)
    turn(workspace, entry, action, guess, step, lang) -> a turn's updates (the game, the box cleared, the steps)
    with keeping_refusal(workspace): ...             -> a turn refused (gr.Error) leaves its reason for
    refused_result(workspace, lang)                  -> {"gg_result": why}: the panel says it, not only a toast
    game_panel(view)                                 -> the panel's components by name
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import gradio as gr

from playground.analysis import GuessingGame, Round, Score, model_guess
from playground.analysis.guessing import learner_character
from playground.data import CharTokenizer, CorpusUnavailable
from playground.data.tokenizer import visible
from playground.zoo import ModelEntry

from ..page.refusals import KeptRefusals
from ..inputs.validation import fail
from ..session.workspace import Workspace
from ..text.i18n import label, text
from ..text.markup import literal
from .probes import CHINESE_CORPORA, LATIN_CORPORA, corpus_of, held_out, reads_corpus, stand_in_note

MAX_ROUNDS = 10                # rounds of one game
GUESS_CHARS = 8                # what the guess box holds at most
_refusals = KeptRefusals()     # a session's last refused turn
GAME_MODELS = {"en": ("shakespeare-char", "tang-poems-char"), "zh-CN": ("tang-poems-char", "shakespeare-char")}
GAME = ("gg_context", "gg_result")                      # what a game draws (a Derived panel's outputs)
GAME_TURN = (*GAME, "gg_guess", "gg_step")              # what a turn updates: the box cleared, the steps


@dataclass
class GameState:
    """The session's game: against which model (its name) at which checkpoint (None: as trained to the
    end), the game itself, the seed it was drawn with, and for a rematch the game it replays and how many
    of the rounds the model guesses right at the checkpoint and as trained to the end."""

    model: str
    step: int | None
    game: GuessingGame
    seed: int
    replayed: tuple[int | None, Score] | None = None     # (its checkpoint, its score) of the game replayed
    compared: dict | None = None                          # {"earlier": right guesses, "final": right guesses}


def playable(entry: ModelEntry) -> bool:
    """A character model that continues text, trained on a corpus the app has (its held-out part is played) and
    able to read it (see probes.reads_corpus)."""
    corpus = corpus_of(entry)
    return (entry.model.has_decoder and not entry.model.has_encoder and isinstance(entry.tokenizer, CharTokenizer)
            and corpus in (*LATIN_CORPORA, *CHINESE_CORPORA) and reads_corpus(entry, corpus))


def game_entry(workspace: Workspace, name: str | None, lang: str) -> ModelEntry:
    """The model named (when it can play), else the language's own character model (Tang poems for Chinese)."""
    entry = workspace.model(name) if name else None
    if entry is not None and playable(entry):
        return entry
    for fallback in GAME_MODELS.get(lang, GAME_MODELS["en"]):
        entry = workspace.model(fallback)
        if entry is not None and playable(entry):
            return entry
    raise fail(lang, "err_gg_no_model")


def _text(entry: ModelEntry, lang: str) -> str:
    try:
        return held_out(corpus_of(entry))
    except CorpusUnavailable:
        raise fail(lang, "err_pr_corpus", corpus=corpus_of(entry)) from None


def _steps(workspace: Workspace, entry: ModelEntry) -> list[int]:
    return workspace.catalog.timeline_steps(entry.name) if entry.source == "pretrained" else []


def _at_step(workspace: Workspace, entry: ModelEntry, step: int | None, lang: str) -> ModelEntry:
    if step is None:
        return entry
    steps = _steps(workspace, entry)
    if not steps:
        raise fail(lang, "err_gg_no_timeline", model=entry.name)
    if step not in steps:
        raise fail(lang, "err_bad_choice", name=text(lang, "param_gg_step"), value=step,
                   choices=", ".join(map(str, steps)))
    return workspace.catalog.timeline_entry(entry.name, step)


def current(workspace: Workspace, entry: ModelEntry) -> GameState | None:
    """The session's game when it is against `entry`."""
    state = workspace.game
    return state if isinstance(state, GameState) and state.model == entry.name else None


def new_game(workspace: Workspace, entry: ModelEntry, lang: str) -> GameState:
    """A fresh game of MAX_ROUNDS rounds against `entry` as trained to the end, on rounds drawn anew."""
    with workspace.lock:
        previous = workspace.game
        seed = previous.seed + 1 if isinstance(previous, GameState) else 0
        state = GameState(entry.name, None, GuessingGame(entry.model, entry.tokenizer, _text(entry, lang), MAX_ROUNDS,
                                                         seed), seed)
        workspace.game = state
        return state


def guessed(guess, lang: str) -> str:
    """The one character the learner typed (␣ for a space, ↵ for a new line), else gr.Error."""
    try:
        return learner_character(guess if isinstance(guess, str) else "")
    except (TypeError, ValueError):
        raise fail(lang, "err_gg_one_char", guess=str(guess)[:GUESS_CHARS]) from None


def play(workspace: Workspace, entry: ModelEntry, guess, lang: str) -> Round | None:
    """The learner's guess and the model's scored against the real next character, and the next round;
    a new game (nothing scored, None) when the session has none against `entry`."""
    character = guessed(guess, lang)
    with workspace.lock:
        state = current(workspace, entry)
        if state is None:
            new_game(workspace, entry, lang)
            return None
        if state.game.finished:
            raise fail(lang, "err_gg_over")
        return state.game.play(character)


def rematch(workspace: Workspace, entry: ModelEntry, step, lang: str) -> GameState:
    """The rounds of the session's game (new ones when it has none against `entry`) against `entry` at `step`,
    and how many of them the model guesses right at `step` and as trained to the end."""
    if step is None:
        raise fail(lang, "err_gg_pick_step")
    earlier = _at_step(workspace, entry, step, lang)
    with workspace.lock:
        state = current(workspace, entry) or new_game(workspace, entry, lang)
        replayed = (state.step, state.game.score) if state.game.rounds else state.replayed
        game = state.game.rematch(earlier.model)
        compared = {when: sum(model_guess(model, entry.tokenizer, game.text, p).guess == game.text[p]
                              for p in game.positions)
                    for when, model in (("earlier", earlier.model), ("final", entry.model))}
        workspace.game = GameState(entry.name, step, game, state.seed, replayed, compared)
        return workspace.game


# ------------------------------------------------------------------------------------------ drawing

def _char(value: str) -> str:
    return literal(visible(value)) or "∅"


def _context(state: GameState, entry: ModelEntry, lang: str) -> str:
    """The text before the character to guess, line by line (written literally), ending in a blank."""
    t = partial(text, lang)
    game = state.game
    lines = [literal(line) for line in game.context().split("\n")]
    head = t("gg_context_intro", model=literal(entry.name), at=_at(state, lang), round=len(game.rounds) + 1,
             rounds=MAX_ROUNDS, n=entry.config.max_len)
    # A hard line break after each ↵; the blank in bold as HTML: "**▯**" right after a letter is not
    # emphasis in Markdown, and its asterisks showed.
    return head + "\n\n> " + "↵  \n> ".join(lines) + "<strong>▯</strong>"


def _at(state: GameState, lang: str) -> str:
    return text(lang, "gg_final") if state.step is None else text(lang, "gg_at_step", step=state.step)


def _mark(right: bool) -> str:
    return "✓" if right else "✗"


def _table(rounds: list[Round], lang: str) -> str:
    t = partial(text, lang)
    rows = [f"| {k + 1} | {_char(r.answer)} | {_char(r.learner)} {_mark(r.learner_right)} | "
            f"{_char(r.model.guess)} {_mark(r.model_right)} | {r.model.answer_probability:.1%} |"
            for k, r in enumerate(rounds)]
    return "\n".join([t("gg_table_head"), "|---|---|---|---|---|", *rows])


def game_result(workspace: Workspace, entry: ModelEntry, state: GameState, lang: str) -> str:
    """The last round, the score, every round so far, and what to do next."""
    t = partial(text, lang)
    game, parts = state.game, []
    if state.step is not None and state.compared is not None:
        steps = _steps(workspace, entry)
        parts.append(t("gg_rematch", step=state.step, earlier=state.compared["earlier"], final=state.compared["final"],
                       last=steps[-1] if steps else "—", rounds=len(game.positions)))
    if state.replayed is not None:
        step, score = state.replayed
        parts.append(t("gg_replayed", at=t("gg_final") if step is None else t("gg_at_step", step=step),
                       learner=score.learner, model=score.model, rounds=score.rounds))
    if game.rounds:
        last = game.rounds[-1]
        parts.append(t("gg_round", round=len(game.rounds), answer=_char(last.answer), learner=_char(last.learner),
                       learner_mark=_mark(last.learner_right), model=_char(last.model.guess),
                       model_mark=_mark(last.model_right), p=last.model.probability,
                       p_answer=last.model.answer_probability, at=_at(state, lang)))
        score = game.score
        parts.append(t("gg_over" if game.finished else "gg_score", learner=score.learner, model=score.model,
                       rounds=score.rounds, total=MAX_ROUNDS))
        parts.append(_table(game.rounds, lang))
    else:
        parts.append(t("gg_started", rounds=MAX_ROUNDS))
    return "\n\n".join(parts)


def game_updates(workspace: Workspace, entry: ModelEntry, lang: str) -> dict:
    """The session's game against `entry` drawn: the text to continue and the scores ("" when none is on)."""
    with workspace.lock:
        state = current(workspace, entry)
        if state is None:
            return {"gg_context": text(lang, "gg_none", model=literal(entry.name)), "gg_result": ""}
        context = text(lang, "gg_finished_context") if state.game.finished else _context(state, entry, lang)
        note = stand_in_note(corpus_of(entry), literal(entry.name), lang)        # the text played, when not its own
        return {"gg_context": f"{note}\n\n{context}" if note else context,
                "gg_result": game_result(workspace, entry, state, lang)}


ACTIONS = ("turn", "guess", "new", "rematch")


def turn(workspace: Workspace, entry: ModelEntry, action: str, guess, step, lang: str) -> dict:
    """One turn against `entry`: "guess" scores the guess (Guess, Enter), "new" starts a new game, "rematch"
    replays the rounds at `step`; "turn" (the API) is "guess" when a guess is given, else "new" without a step
    and "rematch" with one. Then the game drawn, the guess box cleared and the checkpoints offered."""
    if action == "turn":
        action = "guess" if guess else "new" if step is None else "rematch"
    if action == "guess":
        play(workspace, entry, guess, lang)
    elif action == "new":
        new_game(workspace, entry, lang)
    else:
        rematch(workspace, entry, step, lang)
    return {**game_updates(workspace, entry, lang), "gg_guess": "", "gg_step": step_picker(workspace, entry, step)}


def keeping_refusal(workspace: Workspace):
    """A turn whose gr.Error (its reason, in the event's language) is kept for refused_result, then raised."""
    return _refusals.keeping(workspace)


def refused_result(workspace: Workspace, lang: str) -> dict:
    """The reason of the session's last refused turn in the result panel (what it showed before is
    replaced; the text to continue stays): it stays on the page once the error's toast has gone."""
    return {"gg_result": text(lang, "refused_summary", reason=_refusals.pop(workspace, lang))}


def step_picker(workspace: Workspace, entry: ModelEntry, step) -> gr.Radio:
    """The checkpoints of `entry`'s timeline to rematch against (all but the last), keeping `step` if it has it."""
    steps = _steps(workspace, entry)[:-1]
    return gr.Radio(choices=[(str(s), s) for s in steps], value=step if step in steps else None, visible=bool(steps))


def game_panel(view: str, open_: bool = False, visible: bool = True) -> dict[str, gr.components.Component]:
    """The Guess the next character accordion: the text so far, the guess box and its button, New game, the
    checkpoints to rematch against and Rematch, the scores, and what the game is."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_gg_panel"), open=open_, visible=visible,
                      elem_id=f"{view}-game-panel") as c["gg_panel"]:
        with gr.Row():
            with gr.Column(scale=3):
                c["gg_context"] = gr.Markdown(elem_id=f"{view}-gg-context")
                with gr.Row():
                    c["gg_guess"] = gr.Textbox("", label=label("param_gg_guess"), info=label("info_gg_guess"),
                                               max_lines=1, max_length=GUESS_CHARS, elem_id=f"{view}-gg-guess", scale=2)
                    c["gg_play"] = gr.Button(label("btn_gg_play"), variant="primary", elem_id=f"{view}-gg-play",
                                             scale=1)
                    c["gg_new"] = gr.Button(label("btn_gg_new"), elem_id=f"{view}-gg-new", scale=1)
                with gr.Row():
                    c["gg_step"] = gr.Radio([], value=None, label=label("param_gg_step"), elem_id=f"{view}-gg-step",
                                            scale=3)
                    c["gg_rematch"] = gr.Button(label("btn_gg_rematch"), elem_id=f"{view}-gg-rematch", scale=1)
            with gr.Column(scale=2):
                c["gg_result"] = gr.Markdown(elem_id=f"{view}-gg-result")
                gr.Markdown(label("gg_explain"), elem_id=f"{view}-gg-explanation", elem_classes="explanation")
    return c
