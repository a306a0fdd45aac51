"""Input checks that run before any handler touches a model.

Each check raises `gr.Error` with a message, in the session's language, that names the limit
and says what to change: the library's check (playground.checks) and its keyed InputError, said by
`refusal_text` (as `refused`, a gr.Error), the one way the page turns the library's and the forms'
refusals into its own. The limits are named
constants so the messages, the sliders and the tests share one number.
"""
from __future__ import annotations

from typing import Callable

import gradio as gr

from playground import checks
from playground.checks import InputError
from playground.data import Tokenizer
from playground.generate import settings as decoding
from playground.limits import (  # noqa: F401  (the Train tab's and uploads' limits)
    MAX_MODEL_VOCAB,
    MAX_TRAIN_PARAMETERS,
    MAX_TRAIN_STEP_GFLOPS,
    MAX_TRAIN_TEXT_CHARS,
    MAX_UPLOAD_CONTEXT,
    TRAIN_LIMITS,
    UPLOAD_LIMITS,
)
from playground.model import FIELD_RANGES

from ..text.i18n import text
from ..text.markup import literal, literal_fields

SHOWN_NAME_CHARS = 40            # a parameter name from a link is shown cut to this length
MAX_INPUT_CHARS = 200            # attention / generation prompts
MAX_TOKENIZER_CHARS = 2_000      # text shown as token spans
MAX_CORPUS_CHARS = 200_000       # text a BPE is trained on live
TEMPERATURE_RANGE = (0.05, 5.0)
TOP_P_RANGE = (0.01, 1.0)        # 1 = off
MAX_TOP_K = 1_000                # 0 = off
# Decoding on the page stays below the library's limits (decoding.MAX_NEW_TOKENS and MAX_BEAM_WIDTH, which
# admit long outputs and the wide beams that exhaustive checks of beam search need): Run to the end is one
# event on a shared CPU, so it writes at most 200 tokens, and a beam tree wider than 6 hypotheses no longer
# reads at 1280x720.
MAX_NEW_TOKENS = min(200, decoding.MAX_NEW_TOKENS)
MAX_BEAM_WIDTH = min(6, decoding.MAX_BEAM_WIDTH)
MAX_SEED = 2**31 - 1
POSITIONAL_D_MODEL_RANGE = (2, 512)
POSITIONAL_LENGTH_RANGE = (2, 512)
BPE_VOCAB_RANGE = (262, 4_000)   # 5 special tokens + 256 bytes + at least one merge
MAX_UPLOAD_BYTES = 32 * 1024 * 1024
CONFIG_LIMITS = {                # the Architecture tab's custom config: the library's own ranges
    "n_layers": FIELD_RANGES["n_decoder_layers"], "n_heads": FIELD_RANGES["n_heads"],
    "d_model": (2, FIELD_RANGES["d_model"][1]), "d_ff": FIELD_RANGES["d_ff"],
    "vocab_size": FIELD_RANGES["vocab_size"], "max_len": FIELD_RANGES["max_len"],
}
MAX_LAYER = CONFIG_LIMITS["n_layers"][1] - 1   # the layer and head a view's form may name, in any model
MAX_HEAD = CONFIG_LIMITS["n_heads"][1] - 1
MAX_TEXT_UPLOAD_BYTES = 2 * 1024 * 1024  # an uploaded .txt (tiny Shakespeare is 1.1 MB)
MAX_FILE_BYTES = max(MAX_UPLOAD_BYTES, MAX_TEXT_UPLOAD_BYTES)   # Gradio refuses a larger file while it arrives


def refusal_text(error: InputError, lang: str) -> str:
    """The library's or a form's refusal in `lang`, naming the input by its label; every field but a number
    (a value or name from a link or a component) is written literally, for a toast, a Markdown note or a figure."""
    name = {} if error.field is None else {"name": literal(parameter_label(error.field, lang))}
    return text(lang, error.key, **name, **literal_fields(error.values))


def parameter_label(name: str, lang: str) -> str:
    """A parameter's name as the page shows it ("layer" -> "the layer"), else as the link spells it."""
    try:
        return text(lang, f"param_{name}")
    except KeyError:
        return link_name(name)


def link_name(name: str) -> str:
    """A parameter's name as a link spells it, cut to SHOWN_NAME_CHARS characters (a link may name anything)."""
    return name if len(name) <= SHOWN_NAME_CHARS else name[:SHOWN_NAME_CHARS - 1] + "…"


def fail(lang: str, key: str, **values) -> gr.Error:
    """A gr.Error with the message `key` in `lang`, under a title in `lang` (Gradio's own says "Error").
    Every value but a number is written literally (the message may show as a toast, in Markdown or in
    a figure), so a name, a token or typed text in it cannot become markup."""
    error = gr.Error(text(lang, key, **literal_fields(values)), title=text(lang, "err_title"), print_exception=False)
    error.keyed = (key, values)          # `said` writes it again in another language
    return error


def said(error: gr.Error) -> Callable[[str], str]:
    """`error`'s message as a function of the language: written again from its key where `fail` made it,
    else as it was said. It holds neither the error nor its traceback (and the frames' objects)."""
    keyed, message = getattr(error, "keyed", None), str(error.message)
    if keyed is None:
        return lambda lang: message
    key, values = keyed
    return lambda lang: text(lang, key, **literal_fields(values))


def refused(error: InputError, lang: str) -> gr.Error:
    """The library's (or a form's) refusal as a gr.Error in `lang`, naming the input at fault by its label."""
    return gr.Error(refusal_text(error, lang), title=text(lang, "err_title"), print_exception=False)


def check_text(value, lang: str, limit: int = MAX_INPUT_CHARS, what: str = "input") -> str:
    """A non-empty string of at most `limit` characters."""
    if not isinstance(value, str):
        raise fail(lang, "err_not_text", what=text(lang, f"what_{what}"))
    if not value.strip():
        raise fail(lang, "err_empty", what=text(lang, f"what_{what}"))
    if len(value) > limit:
        raise fail(lang, "err_too_long", what=text(lang, f"what_{what}"), length=len(value), limit=limit)
    return value


def check_known_chars(value: str, tokenizer: Tokenizer, model_name: str, lang: str) -> None:
    """Every character is in the model's vocabulary (byte-level BPE knows them all)."""
    unknown = tokenizer.unknown_chars(value)
    if unknown:
        shown = ", ".join(repr(ch) for ch in unknown[:12])
        raise fail(lang, "err_unknown_chars", model=model_name, chars=shown, count=len(unknown))


def check_number(value, lang: str, name: str, low: float, high: float, integer: bool = False) -> float | int:
    """A finite number in [low, high]; an integer when `integer`."""
    try:
        return checks.check_number(value, name, low, high, integer)
    except InputError as error:
        raise refused(error, lang) from None


def check_choice(value, choices, lang: str, name: str):
    """One of `choices`."""
    try:
        return checks.check_choice(value, choices, name)
    except InputError as error:
        raise refused(error, lang) from None
