"""The one check of a learner's input (a number, a choice, a switch, a text) and the keyed error it raises.

    layers = Whole(1, 6).check("layers", value)          # or check_number(value, "layers", 1, 6, integer=True)

An InputError carries an English message and, for a front end that speaks other languages, the
message's key ("err_out_of_range"), the input at fault and the values that fill the message
(playground.ui says the same in the session's language). The rules (Whole, Real, OneOf, Switch,
Text) are values, so a recipe can declare each input's rule once beside its default.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MESSAGES = {                 # English, by key: what the library says; front ends have their own words
    "err_not_number": "{name} must be a number between {low} and {high}, got {value}",
    "err_not_integer": "{name} must be a whole number, got {value}",
    "err_out_of_range": "{name} is {value}; choose a value between {low} and {high}",
    "err_bad_choice": "{name} cannot be {value!r}; choose one of: {choices}",
    "err_form_not_flag": "{name} must be on or off (True or False), got {value}",
    "err_form_not_text": "{name} must be text",
    "err_form_too_long": "{name} has {length} characters, more than the {limit} allowed",
}
SHOWN_CHARS = 40             # a value quoted in a message is cut to this many characters


class InputError(ValueError):
    """An input out of range, of the wrong kind or inconsistent with the others.

    key: the message's name ("err_out_of_range", "err_heads_divide", ...); field: the input at fault
    (None when the refusal is about the inputs together); values: what fills the message.
    """

    def __init__(self, message: str, key: str, field: str | None = None, **values):
        super().__init__(message)
        self.key, self.field, self.values = key, field, values


def refuse(key: str, field: str, **values) -> InputError:
    """An InputError with the English message of `key`."""
    return InputError(MESSAGES[key].format(name=field, **values), key, field, **values)


def shown(value) -> str:
    """A value as a message quotes it: a string in quotes, cut to SHOWN_CHARS characters."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def check_number(value, name: str, low: float, high: float, integer: bool = False) -> float | int:
    """A finite number in [low, high] (a whole one, as an int, when `integer`); booleans and strings are refused."""
    number = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not number or (integer and value != int(value)):
        raise refuse("err_not_integer" if integer else "err_not_number", name, value=shown(value), low=low, high=high)
    if not low <= value <= high:
        raise refuse("err_out_of_range", name, value=int(value) if integer else value, low=low, high=high)
    return int(value) if integer else float(value)


def check_choice(value, choices, name: str):
    """One of `choices`."""
    if value not in choices:
        raise refuse("err_bad_choice", name, value=str(value)[:SHOWN_CHARS], choices=", ".join(str(c) for c in choices))
    return value


def check_flag(value, name: str) -> bool:
    """True or False (not 1 or "yes")."""
    if not isinstance(value, bool):
        raise refuse("err_form_not_flag", name, value=shown(value))
    return value


def check_text(value, name: str, limit: int) -> str:
    """A string of at most `limit` characters (None reads as "")."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise refuse("err_form_not_text", name)
    if len(value) > limit:
        raise refuse("err_form_too_long", name, length=len(value), limit=limit)
    return value


@dataclass(frozen=True)
class Whole:
    """A whole number in [low, high]."""

    low: int
    high: int

    def check(self, name: str, value) -> int:
        return check_number(value, name, self.low, self.high, integer=True)


@dataclass(frozen=True)
class Real:
    """A finite number in [low, high]."""

    low: float
    high: float

    def check(self, name: str, value) -> float:
        return check_number(value, name, self.low, self.high)


@dataclass(frozen=True)
class OneOf:
    """One of `choices`."""

    choices: tuple

    def check(self, name: str, value):
        return check_choice(value, self.choices, name)


@dataclass(frozen=True)
class Switch:
    """On or off."""

    def check(self, name: str, value) -> bool:
        return check_flag(value, name)


@dataclass(frozen=True)
class Text:
    """A text of at most `limit` characters."""

    limit: int

    def check(self, name: str, value) -> str:
        return check_text(value, name, self.limit)
