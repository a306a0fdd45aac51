"""The Generate tab's controls as one value, and how a link names them.

    ?view=generate&model=tiny-gpt&prompt=abc&strategy=sample&temperature=0.8&top_k=5&top_p=0.9
     &seed=3&max_new=40&beam_width=3&layer=0&head=1&steps=3&lang=en&ho_heads=decoder.1.0&ho_how=zero
     &xb_target=defgh&repetition_penalty=1.5

`prompt` empty: the model's first example; `steps`: how many tokens have been generated (a link
opens the generation after that many Step presses); `ho_heads`, `ho_how`: the heads the Switch
heads off panel switches off, and how; `xb_target` empty: the target of the model's exposure-bias
example for the prompt; `dla_token`: the token direct logit attribution splits (empty: the model's top
token); `gg_guess`, `gg_step`: the guessing game's guess and the training step it rematches against;
`repetition_penalty`: 1 is off (greedy and sampling only).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.checks import InputError, check_number
from playground.generate import SamplingConfig
from playground.model import ABLATIONS

from ...page.forms import Choice, Form, Integer, ModelName, NameList, Number, Refused, String, param
from ...inputs.validation import (
    CONFIG_LIMITS,
    MAX_BEAM_WIDTH,
    MAX_INPUT_CHARS,
    MAX_NEW_TOKENS,
    MAX_SEED,
    MAX_TOP_K,
    TEMPERATURE_RANGE,
    TOP_P_RANGE,
    refused,
)
from ...session.examples import GENERATE_EXAMPLES, examples_for, exposure_target, followed_input
from ...views.attribution import MAX_TOKEN_CHARS
from ...views.guessing import GUESS_CHARS
from ...views.interventions_panels import MAX_HEADS_OFF, fit_heads
from ...views.generate import DEFAULTS, REPETITION_PENALTY_RANGE, STRATEGIES

MAX_LAYER = CONFIG_LIMITS["n_layers"][1] - 1
MAX_HEAD = CONFIG_LIMITS["n_heads"][1] - 1
MAX_STEP = 10**9


@dataclass(frozen=True)
class GenerateForm(Form):
    VIEW = "generate"
    LATE = ("ho_heads", "ho_how", "xb_target", "dla_token", "gg_guess", "gg_step",     # the panels' controls
            "repetition_penalty")

    model: str = param(ModelName("copy", generative=True))
    prompt: str = param(String("", MAX_INPUT_CHARS))
    strategy: str = param(Choice(DEFAULTS["strategy"], STRATEGIES))
    temperature: float = param(Number(DEFAULTS["temperature"], *TEMPERATURE_RANGE))
    top_k: int = param(Integer(DEFAULTS["top_k"], 0, MAX_TOP_K))
    top_p: float = param(Number(DEFAULTS["top_p"], *TOP_P_RANGE))
    seed: int = param(Integer(DEFAULTS["seed"], 0, MAX_SEED))
    max_new: int = param(Integer(DEFAULTS["max_new"], 1, MAX_NEW_TOKENS))
    beam_width: int = param(Integer(DEFAULTS["beam_width"], 1, MAX_BEAM_WIDTH))
    layer: int = param(Integer(0, 0, MAX_LAYER))
    head: int = param(Integer(0, 0, MAX_HEAD))
    steps: int = param(Integer(0, 0, MAX_NEW_TOKENS))
    ho_heads: tuple[str, ...] = param(NameList((), MAX_HEADS_OFF))     # "SITE.LAYER.HEAD": heads switched off
    ho_how: str = param(Choice("zero", ABLATIONS))
    xb_target: str = param(String("", MAX_INPUT_CHARS))                  # the exposure-bias panel's target
    dla_token: str = param(String("", MAX_TOKEN_CHARS))                  # the token direct logit attribution splits
    gg_guess: str = param(String("", GUESS_CHARS))                       # the guessing game's guess
    gg_step: int | None = param(Integer(None, 0, MAX_STEP, optional=True))   # the step a rematch is played at
    repetition_penalty: float = param(Number(DEFAULTS["repetition_penalty"], *REPETITION_PENALTY_RANGE))

    @classmethod
    def from_values(cls, values: dict) -> "GenerateForm":
        """As Form.from_values; with beam search picked, the page's step count belongs to the stepped
        generation it replaces, so it reads as 0 (a link naming both is refused: see validated)."""
        return super().from_values({**values, "steps": 0} if values.get("strategy") == "beam" else values)

    def validated(self) -> "GenerateForm":
        """Beam search is run at once, never stepped: a beam form has no steps."""
        if self.strategy == "beam" and self.steps:
            raise Refused("steps", "err_beam_steps")
        return self

    def sampling(self, vocab_size: int, lang: str) -> SamplingConfig:
        """The decoding settings the form asks for (top-k 0, top-p 1 and repetition penalty 1 are off), with a
        top-k within the model's `vocab_size`; or a gr.Error saying what to change (a repetition penalty with
        beam search, too)."""
        try:
            check_number(self.top_k, "top_k", 0, min(MAX_TOP_K, vocab_size), integer=True)
            return SamplingConfig(strategy=self.strategy, temperature=self.temperature, top_k=self.top_k or None,
                                  top_p=self.top_p if self.top_p < 1 else None, seed=self.seed,
                                  beam_width=self.beam_width, max_new_tokens=self.max_new,
                                  repetition_penalty=self.repetition_penalty)
        except InputError as error:
            raise refused(error, lang) from None

    def follow(self, catalog, current: str | None) -> tuple["GenerateForm", bool]:
        """The session's current model where it writes text, with the form's prompt where it can read it
        (else its own first example) and that prompt's exposure-bias target, from the first token."""
        entry = catalog.get(current) if current and current != self.model else None
        if entry is None or not entry.generative:
            return self, False
        prompt, replaced = followed_input(entry, self.prompt, GENERATE_EXAMPLES)
        return replace(self, model=current, prompt=prompt, xb_target=exposure_target(entry, prompt), steps=0), replaced

    def fit(self, registry, given: set[str]) -> tuple["GenerateForm", list[Refused]]:
        """The form fitted to its (shipped) model: its first example when no prompt is given, a
        top-k within its vocabulary, a layer and head it has, heads to switch off it has, the
        exposure-bias target of its example when none is given; what a link named and the model lacks
        is reported."""
        entry = registry.get(self.model)
        refused: list[Refused] = []
        form = self
        if not form.prompt:
            form = replace(form, prompt=next(iter(examples_for(entry, GENERATE_EXAMPLES)), ""))
        limits = {"top_k": min(MAX_TOP_K, entry.tokenizer.vocab_size), "layer": entry.config.n_decoder_layers - 1,
                  "head": entry.config.n_heads - 1}
        for name, high in limits.items():
            if getattr(form, name) > high:
                if name in given:
                    refused.append(Refused(name, "err_out_of_range", value=getattr(form, name), low=0, high=high))
                form = replace(form, **{name: 0})
        heads, lacking = fit_heads(entry, form.ho_heads)
        if lacking is not None:
            if "ho_heads" in given:
                refused.append(lacking)
            form = replace(form, ho_heads=heads)
        if not form.xb_target:
            form = replace(form, xb_target=exposure_target(entry, form.prompt))
        return form, refused
