"""The Labs tab's controls as one value, and how a link names them.

    ?view=labs&lab=causal-mask&metric=losses&variant=upper_triangular&kind=decoder.self_attn&stage=end&lang=en

`lab` is the lab's id; the other parameters pick among its views (a pick the lab does not offer
falls back to the lab's own). The kept results ticked for comparison are the session's, not
part of a link.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.labs import LABS, list_labs

from ...page.forms import Choice, Form, Refused, param
from ...views.training import SHORT_KIND
from .views import METRICS, STAGES, kind_choices, metric_choices, variant_choices

FIRST_LAB = list_labs()[0]
VARIANTS = tuple(dict.fromkeys(variant.id for lab in list_labs() for variant in lab.variants[1:]))


def _values(choices: list[tuple[str, str]]) -> list[str]:
    return [value for _, value in choices]


@dataclass(frozen=True)
class LabsForm(Form):
    VIEW = "labs"

    lab: str = param(Choice(FIRST_LAB.id, tuple(LABS)))
    metric: str = param(Choice("losses", tuple(METRICS)))
    variant: str = param(Choice(_values(variant_choices(FIRST_LAB, "en"))[0], VARIANTS))
    kind: str = param(Choice(_values(kind_choices(FIRST_LAB, "en"))[0], tuple(SHORT_KIND)))
    stage: str = param(Choice(STAGES[0], STAGES))

    def fit(self, registry, given: set[str]) -> tuple["LabsForm", list[Refused]]:
        """The picks fitted to the lab: the lab's own first metric, variant and attention kind where
        the link names none; one the link names and the lab does not offer falls back to the lab's
        own first and is reported."""
        lab = LABS[self.lab]
        offered = {"metric": _values(metric_choices(lab, "en")), "variant": _values(variant_choices(lab, "en")),
                   "kind": _values(kind_choices(lab, "en"))}
        changes, refused = {}, []
        for name, values in offered.items():
            value = getattr(self, name)
            if name not in given or value not in values:
                changes[name] = values[0]
            if name in given and value not in values:
                refused.append(Refused(name, "err_bad_choice", value=value, choices=", ".join(values)))
        return replace(self, **changes), refused
