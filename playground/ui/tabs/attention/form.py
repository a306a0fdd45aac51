"""The Attention tab's controls as one value, and how a link names them.

    ?view=attention&model=reverse&text=abcdefghij&target=&kind=cross&layer=1&head=2&mean=0
     &score=anti_diagonal&step=400&lang=zh-CN

`text` empty: the model's first example; `target` empty: the model writes its own (greedy);
`step` empty: the model as trained to the end. The panels' fields come last: `ho_heads`, `ho_how` (heads
switched off), `dla_token` (the token whose logit is split; empty: the model's top token), `pt_corrupted`
(the corrupted input patched; empty: the suggested one), `pr_property` (what the probes read).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.model import ABLATIONS
from playground.model.sites import SITES

from ...page.forms import Choice, Flag, Form, Integer, ModelName, NameList, Refused, String, param
from ...inputs.validation import MAX_HEAD, MAX_INPUT_CHARS, MAX_LAYER
from ...session.examples import ATTENTION_EXAMPLES, examples_for, followed_input
from ...views.attribution import MAX_TOKEN_CHARS
from ...views.interventions_panels import MAX_HEADS_OFF, fit_heads
from ...views.probes import PROPERTIES, probe_properties
from ...views.attention import ALL_SCORES, default_kind, kinds_of, score_names, stack_depth, timeline_of

MAX_STEP = 10**9


@dataclass(frozen=True)
class AttentionForm(Form):
    VIEW = "attention"
    LATE = ("ho_heads", "ho_how", "dla_token", "pt_corrupted", "pr_property")     # the panels' controls

    model: str = param(ModelName("copy"))
    text: str = param(String("", MAX_INPUT_CHARS))
    target: str = param(String("", MAX_INPUT_CHARS))
    kind: str = param(Choice("cross", tuple(site.id for site in SITES)))
    layer: int = param(Integer(0, 0, MAX_LAYER))
    head: int = param(Integer(0, 0, MAX_HEAD))
    mean: bool = param(Flag(False))
    score: str = param(Choice("diagonal", ALL_SCORES))
    step: int | None = param(Integer(None, 0, MAX_STEP, optional=True))
    ho_heads: tuple[str, ...] = param(NameList((), MAX_HEADS_OFF))     # "SITE.LAYER.HEAD": heads switched off
    ho_how: str = param(Choice("zero", ABLATIONS))
    dla_token: str = param(String("", MAX_TOKEN_CHARS))                 # the token direct logit attribution splits
    pt_corrupted: str = param(String("", MAX_INPUT_CHARS))              # the corrupted input activation patching reads
    pr_property: str = param(Choice(PROPERTIES[0], PROPERTIES))         # what the linear probes read

    def follow(self, catalog, current: str | None) -> tuple["AttentionForm", bool]:
        """The session's current model with the form's text where it can read it (else its own first
        example), the target it writes itself, as trained to the end."""
        entry = catalog.get(current) if current and current != self.model else None
        if entry is None:
            return self, False
        text, replaced = followed_input(entry, self.text, ATTENTION_EXAMPLES)
        return replace(self, model=current, text=text, target="", step=None), replaced

    def fit(self, registry, given: set[str]) -> tuple["AttentionForm", list[Refused]]:
        """The form fitted to its (shipped) model: a kind, layer, head, score and step the model has,
        its first example when no text is given; what a link named and the model lacks is reported."""
        entry = registry.get(self.model)
        refused: list[Refused] = []

        def fix(name: str, value, error: Refused):
            if name in given:
                refused.append(error)
            return value

        form = self
        if not form.text:
            form = replace(form, text=next(iter(examples_for(entry, ATTENTION_EXAMPLES)), ""))
        kinds = kinds_of(entry)
        if form.kind not in kinds:
            form = replace(form, kind=fix("kind", default_kind(entry), Refused(
                "kind", "err_bad_choice", value=form.kind, choices=", ".join(kinds))))
        scores = score_names(form.kind)
        if form.score not in scores:
            form = replace(form, score=fix("score", scores[0], Refused(
                "score", "err_bad_choice", value=form.score, choices=", ".join(scores))))
        n_layers, n_heads = stack_depth(entry, form.kind)
        if form.layer > n_layers - 1:
            form = replace(form, layer=fix("layer", 0, Refused(
                "layer", "err_out_of_range", value=form.layer, low=0, high=n_layers - 1)))
        if form.head > n_heads - 1:
            form = replace(form, head=fix("head", 0, Refused(
                "head", "err_out_of_range", value=form.head, low=0, high=n_heads - 1)))
        steps = timeline_of(registry, entry)
        if form.step is not None and form.step not in steps:
            form = replace(form, step=fix("step", None, Refused(
                "step", "err_bad_choice", value=form.step, choices=", ".join(map(str, steps)) or "—")))
        heads, lacking = fit_heads(entry, form.ho_heads)
        if lacking is not None:
            form = replace(form, ho_heads=fix("ho_heads", heads, lacking))
        offered = probe_properties(entry)
        if offered and form.pr_property not in offered:
            form = replace(form, pr_property=fix("pr_property", offered[0], Refused(
                "pr_property", "err_bad_choice", value=form.pr_property, choices=", ".join(offered))))
        return form, refused
