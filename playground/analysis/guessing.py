"""Guess the next character: a learner and a character-level model guess what comes next in a real text.

Each round shows the text up to a position (held-out text of the model's corpus, which it never
trained on). The learner types one character; the model's guess is its most likely next token
(the argmax of its logits, from the `max_len` characters before the position). Both are scored
against the character the text really has there.

A rematch plays the same rounds against the same model earlier in its training (a checkpoint of
its timeline, `playground.checkpoint.timeline_files`): what the model learned becomes a score.

    game = GuessingGame(model, tokenizer, held_out_text(corpus), n_rounds=10, seed=0)
    game.context()           # the text before the character to guess
    game.play("e")           # -> Round(answer, learner, model guess, ...)
    game.score               # Score(learner=3, model=6, rounds=10)
    game.rematch(early_model)
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import torch
from torch import nn

from playground.data import CharTokenizer, Tokenizer

VISIBLE_INPUT = {"␣": " ", "↵": "\n", "⇥": "\t"}   # what the page shows for whitespace, typed back
TOP_CANDIDATES = 5


@dataclass(frozen=True)
class ModelGuess:
    guess: str                   # the model's top next character ("<eos>" etc. for a special token)
    probability: float           # the probability it gives its guess
    answer_probability: float    # the probability it gives the character that really comes next
    top: tuple[tuple[str, float], ...]     # its TOP_CANDIDATES most likely characters, most likely first


@dataclass(frozen=True)
class Round:
    position: int                # the index in the text of the character to guess
    answer: str                  # the character the text has there
    learner: str                 # the learner's guess
    model: ModelGuess

    @property
    def learner_right(self) -> bool:
        return self.learner == self.answer

    @property
    def model_right(self) -> bool:
        return self.model.guess == self.answer


@dataclass(frozen=True)
class Score:
    learner: int                 # rounds the learner guessed right
    model: int                   # rounds the model guessed right
    rounds: int                  # rounds played


def held_out_text(text: str, val_fraction: float = 0.1) -> str:
    """The part of a corpus a character model trained on `text` never saw: its last `val_fraction`
    (as playground.data.LMData splits it, one token per character)."""
    if not isinstance(text, str) or not text:
        raise ValueError("the text is empty; give the model's corpus")
    if not 0 < val_fraction < 1:
        raise ValueError(f"val_fraction must be between 0 and 1, got {val_fraction!r}")
    return text[len(text) - round(len(text) * val_fraction):]


def learner_character(guess: str) -> str:
    """The character a learner typed: exactly one, whitespace also as the page shows it (␣ ↵ ⇥)."""
    if not isinstance(guess, str):
        raise TypeError(f"a guess is one character (a str), got {type(guess).__name__}")
    character = VISIBLE_INPUT.get(guess, guess)
    if len(character) != 1:
        raise ValueError(f"type exactly one character (␣ for a space, ↵ for a new line), got {guess!r}")
    return character


def _check(model: nn.Module, tokenizer: Tokenizer) -> None:
    if not isinstance(tokenizer, CharTokenizer):
        raise ValueError("the game guesses characters: it needs a character-level model (a CharTokenizer)")
    if model.has_encoder or not model.has_decoder:
        raise ValueError(f"the game needs a model that writes text left to right (decoder_only), "
                         f"got {model.config.arch}")
    if tokenizer.vocab_size != model.config.vocab_size:
        raise ValueError(f"the tokenizer has {tokenizer.vocab_size} tokens but the model {model.config.vocab_size}; "
                         "pass the model's own tokenizer")


@torch.no_grad()
def model_guess(model: nn.Module, tokenizer: Tokenizer, text: str, position: int) -> ModelGuess:
    """What `model` guesses for text[position], reading the `max_len` characters before it."""
    _check(model, tokenizer)
    if not 1 <= position < len(text):
        raise ValueError(f"position must be between 1 and {len(text) - 1} (a character with text before it), "
                         f"got {position}")
    context = text[max(0, position - model.config.max_len):position]
    probabilities = torch.softmax(model(torch.tensor([tokenizer.encode(context)]))[0, -1].double(), dim=-1)   # [V]
    top = probabilities.topk(min(TOP_CANDIDATES, probabilities.numel()))
    characters = [tokenizer.decode([int(i)], skip_special=False) for i in top.indices]
    answer = tokenizer.encode(text[position])[0]
    return ModelGuess(characters[0], float(top.values[0]), float(probabilities[answer]),
                      tuple(zip(characters, (float(p) for p in top.values))))


def score(rounds: list[Round]) -> Score:
    """How many rounds the learner and the model guessed right."""
    return Score(sum(r.learner_right for r in rounds), sum(r.model_right for r in rounds), len(rounds))


class GuessingGame:
    """`n_rounds` positions of `text` drawn under `seed`, each with at least `min_context` characters before
    it and an answer the model's tokenizer knows, played in order."""

    def __init__(self, model: nn.Module, tokenizer: Tokenizer, text: str, n_rounds: int = 10, seed: int = 0,
                 min_context: int = 32):
        _check(model, tokenizer)
        if isinstance(n_rounds, bool) or not isinstance(n_rounds, int) or not 1 <= n_rounds <= 100:
            raise ValueError(f"n_rounds must be a whole number from 1 to 100, got {n_rounds!r}")
        known = set(tokenizer.chars)
        candidates = [p for p in range(max(1, min_context), len(text)) if text[p] in known]
        if len(candidates) < n_rounds:
            raise ValueError(f"the text has {len(candidates)} positions to guess with {min_context} characters "
                             f"before them; give a longer text or fewer rounds")
        self.model, self.tokenizer, self.text = model, tokenizer, text
        self.positions: tuple[int, ...] = tuple(random.Random(f"guessing/{seed}").sample(candidates, n_rounds))
        self.rounds: list[Round] = []

    @property
    def finished(self) -> bool:
        return len(self.rounds) == len(self.positions)

    @property
    def position(self) -> int:
        """The index in the text of the character to guess now."""
        if self.finished:
            raise ValueError("the game is over; start a rematch or a new game")
        return self.positions[len(self.rounds)]

    def context(self, characters: int | None = None) -> str:
        """The text before the character to guess: the model's whole context, or the last `characters`."""
        position = self.position
        return self.text[max(0, position - (characters or self.model.config.max_len)):position]

    def play(self, guess: str) -> Round:
        """Score the learner's `guess` and the model's against the real next character; move to the next round."""
        character = learner_character(guess)
        position = self.position
        played = Round(position, self.text[position], character, model_guess(self.model, self.tokenizer, self.text,
                                                                              position))
        self.rounds.append(played)
        return played

    @property
    def score(self) -> Score:
        return score(self.rounds)

    def rematch(self, model: nn.Module) -> "GuessingGame":
        """A new game on the same rounds of the same text against `model` (e.g. an earlier checkpoint)."""
        _check(model, self.tokenizer)
        twin = object.__new__(GuessingGame)
        twin.model, twin.tokenizer, twin.text, twin.positions = model, self.tokenizer, self.text, self.positions
        twin.rounds = []
        return twin
