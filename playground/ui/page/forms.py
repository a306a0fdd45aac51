"""A tab's controls as one value: a frozen dataclass whose fields declare their parameter.

Each field of a `Form` names a `Param` (text, integer, number, choice, flag, model) that knows
its default, how to check a value coming from a component or the API, and how to write and read
it in a link's query string. The same check serves both ways in, so a limit is declared once.

    @dataclass(frozen=True)
    class AttentionForm(Form):
        VIEW = "attention"
        layer: int = param(Integer(0, 0, 47))

A field may declare a library rule instead (playground.checks: Whole, Real, OneOf, Switch, Text, as a
recipe's fields do); its parameter is the matching one below. Every check is the library's.

A refused value raises `Refused(param, key, **fields)`: the parameter's name, the message key
(in strings_en / strings_zh) and the message's fields. Refused is the library's keyed InputError,
and `inputs.validation.refusal_text` turns any InputError into the page's words, in the session's language.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping
from urllib.parse import parse_qsl, quote, urlencode

from playground.checks import (
    InputError,
    OneOf,
    Real,
    Switch,
    Text,
    Whole,
    check_choice,
    check_flag,
    check_number,
    check_text,
    shown,
)

from ..text.i18n import DEFAULT_LANGUAGE, text

_INTEGER = re.compile(r"-?\d{1,12}")
_NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)(e-?\d+)?", re.IGNORECASE)


class Refused(InputError):
    """A value a form does not accept: `param` names the control, `key` the message, `fields` fill it in."""

    def __init__(self, param: str, key: str, **fields):
        super().__init__(text(DEFAULT_LANGUAGE, key, name=param, **fields), key, param, **fields)

    @property
    def param(self) -> str:
        return self.field

    @property
    def fields(self) -> dict:
        return self.values


def as_refused(check, *args):
    """`check(*args)`, its InputError raised as the form's Refused."""
    try:
        return check(*args)
    except Refused:
        raise
    except InputError as error:
        raise Refused(error.field, error.key, **error.values) from None


@dataclass(frozen=True)
class Param:
    """One control's parameter: its default, its check, and its spelling in a query string."""

    default: Any

    def check(self, name: str, value):
        """`value` from a component or the API, as the form keeps it; Refused otherwise."""
        return value

    def read(self, name: str, raw: str):
        """`raw` from a query string, checked."""
        return self.check(name, raw)

    def write(self, value) -> str:
        return str(value)


@dataclass(frozen=True)
class String(Param):
    limit: int = 200

    def check(self, name, value):
        return as_refused(check_text, value, name, self.limit)


@dataclass(frozen=True)
class Integer(Param):
    """A whole number in [low, high]; `optional`: None (nothing chosen) is allowed too."""

    low: int = 0
    high: int = 0
    optional: bool = False

    def check(self, name, value):
        if value is None and self.optional:
            return None
        return as_refused(check_number, value, name, self.low, self.high, True)

    def read(self, name, raw):
        if raw == "" and self.optional:
            return None
        if not _INTEGER.fullmatch(raw):
            raise Refused(name, "err_not_integer", value=shown(raw), low=self.low, high=self.high)
        return self.check(name, int(raw))

    def write(self, value) -> str:
        return "" if value is None else str(int(value))


@dataclass(frozen=True)
class Number(Param):
    """A finite number in [low, high]."""

    low: float = 0.0
    high: float = 1.0

    def check(self, name, value):
        return as_refused(check_number, value, name, self.low, self.high)

    def read(self, name, raw):
        if not _NUMBER.fullmatch(raw):
            raise Refused(name, "err_not_number", value=shown(raw), low=self.low, high=self.high)
        return self.check(name, float(raw))

    def write(self, value) -> str:
        return repr(float(value))


@dataclass(frozen=True)
class Choice(Param):
    """One of `choices` (strings)."""

    choices: tuple[str, ...] = ()

    def check(self, name, value):
        return as_refused(check_choice, value, self.choices, name)


@dataclass(frozen=True)
class Flag(Param):
    """On or off; "1" / "0" in a link."""

    def check(self, name, value):
        return as_refused(check_flag, value, name)

    def read(self, name, raw):
        if raw not in ("0", "1"):
            raise Refused(name, "err_form_not_flag", value=shown(raw))
        return raw == "1"

    def write(self, value) -> str:
        return "1" if value else "0"


@dataclass(frozen=True)
class IntegerList(Param):
    """Distinct whole numbers in [low, high], sorted, at least one; "0,1,10" in a link."""

    low: int = 0
    high: int = 0

    def check(self, name, value):
        if not isinstance(value, (list, tuple)) or not value:
            raise Refused(name, "err_form_not_integers", low=self.low, high=self.high)
        return tuple(sorted({Integer(None, self.low, self.high).check(name, item) for item in value}))

    def read(self, name, raw):
        parts = raw.split(",") if raw else []
        if not parts or not all(_INTEGER.fullmatch(part) for part in parts):
            raise Refused(name, "err_form_not_integers", low=self.low, high=self.high)
        return self.check(name, [int(part) for part in parts])

    def write(self, value) -> str:
        return ",".join(str(int(item)) for item in value)


_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,40}")


@dataclass(frozen=True)
class NameList(Param):
    """Distinct names (letters, digits, ".", "_", "-"), in the order given, at most `limit`, possibly
    none; "cross.1.0,cross.1.1" in a link. Which names exist is for the form's fit and the handlers."""

    limit: int = 64

    def check(self, name, value):
        if value is None:
            return ()
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and _NAME.fullmatch(v) for v in value):
            raise Refused(name, "err_form_not_names")
        if len(value) > self.limit:
            raise Refused(name, "err_form_too_many", n=len(value), limit=self.limit)
        return tuple(dict.fromkeys(value))

    def read(self, name, raw):
        return self.check(name, raw.split(",") if raw else [])

    def write(self, value) -> str:
        return ",".join(value)


@dataclass(frozen=True)
class ModelName(String):
    """A model's name. Any session model is a valid control value; a link may name only a
    shipped model (links.py checks that against the registry). `generative`: only models that
    write text."""

    limit: int = 100
    generative: bool = False


def param(spec: Param):
    """Declare a form field from its parameter."""
    return dataclasses.field(default=spec.default, metadata={"param": spec})


def ruled_param(rule, default) -> Param:
    """The parameter of a field that declares a library rule (see playground.checks)."""
    if isinstance(rule, Whole):
        return Integer(default, rule.low, rule.high)
    if isinstance(rule, Real):
        return Number(default, rule.low, rule.high)
    if isinstance(rule, OneOf):
        return Choice(default, tuple(rule.choices))
    if isinstance(rule, Switch):
        return Flag(default)
    if isinstance(rule, Text):
        return String(default, rule.limit)
    raise TypeError(f"no form parameter for the rule {rule!r}")


@dataclass(frozen=True)
class Form:
    """A tab's controls. Subclasses set VIEW (the tab's name in links) and declare fields with param()."""

    VIEW: ClassVar[str] = ""
    LATE: ClassVar[tuple[str, ...]] = ()   # fields added after the tab's API was published: an API call
                                           # lists them after the language, so calls by position keep working

    @classmethod
    def params(cls) -> dict[str, Param]:
        """Field name -> its parameter, in declaration order."""
        return _params(cls)

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> "Form":
        """The form of the controls' `values` (missing ones at their default); Refused names the
        first value that is not accepted."""
        checked = {name: spec.check(name, values.get(name, spec.default)) for name, spec in cls.params().items()}
        return cls(**checked).validated()

    def validated(self) -> "Form":
        """Checks across fields (none by default); return the form, or raise Refused."""
        return self

    def fit(self, registry, given: set[str]) -> tuple["Form", list[Refused]]:
        """The form a link opens, fitted to its model (layers it has, its own first example, ...);
        `given`: the parameters the link named. Returns the fitted form and what was replaced."""
        return self, []

    def follow(self, catalog, current: str | None) -> tuple["Form", bool]:
        """The form showing `current`, the model the session works with now (None: none chosen yet),
        where this tab can show it, with the model's own inputs where it cannot read the form's; and
        whether an input was replaced. A tab that shows no model keeps its form."""
        return self, False

    def to_query(self) -> dict[str, str]:
        """Every parameter as written in a link (all of them, so a link keeps its meaning when a
        default changes)."""
        return {name: spec.write(getattr(self, name)) for name, spec in self.params().items()}

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> tuple["Form", list[Refused]]:
        """The form a link describes, and what was ignored: each parameter that is refused keeps
        its default and is reported (unknown parameter names are the caller's to report)."""
        values, ignored = {}, []
        for name, spec in cls.params().items():
            if name not in query:
                continue
            try:
                values[name] = spec.read(name, query[name])
            except Refused as error:
                ignored.append(error)
        form = cls(**{**{n: s.default for n, s in cls.params().items()}, **values})
        try:
            return form.validated(), ignored
        except Refused as error:
            fallback = dataclasses.replace(form, **{error.param: cls.params()[error.param].default})
            return fallback, [*ignored, error]


@functools.cache
def _params(form: type) -> dict[str, Param]:
    return {f.name: f.metadata["param"] if "param" in f.metadata else ruled_param(f.metadata["rule"], f.default)
            for f in dataclasses.fields(form)}


def encode_query(pairs: Mapping[str, str]) -> str:
    """"a=1&b=x%20y": spaces and every reserved character percent-encoded."""
    return urlencode(list(pairs.items()), quote_via=quote, safe="-_.~")


def decode_query(query: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of "?a=1&b=x%20y" (a leading "?" is ignored), blanks kept."""
    return parse_qsl(query.lstrip("?"), keep_blank_values=True)

