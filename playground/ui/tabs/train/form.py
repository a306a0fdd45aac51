"""The Train tab's form: the task, its text, the architecture, the optimiser and the stability
settings, as one value, and how a link names them.

    ?view=train&task=copy&data=bundled&pasted=&layers=2&n_heads=4&d_model=64&...&grad_clip=1.0&lang=en

The form is the recipe's input (playground.train.recipes.Recipe): its fields, defaults and rules are
the recipe's, and `spec` has the recipe check it, once. A link opens the form; training starts only
when Start or Step is pressed. A link that names a task and none of the other settings opens that
task's preset (its defaults in every field).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from playground.checks import InputError
from playground.train import recipes
from playground.train.recipes import (
    PRESET_FIELDS,
    STABILITY_FIELDS,
    Recipe,
    TrainSpec,
    check_consistent,
    form_defaults,
    stability_defaults,
)

from ...page.forms import Form, Refused, as_refused
from ...inputs.validation import refused


@dataclass(frozen=True)
class TrainForm(Form, Recipe):
    VIEW = "train"

    def validated(self) -> "TrainForm":
        """Heads that divide d_model, key/value heads that divide the heads, an even RoPE head size, a
        warm-up within the training."""
        as_refused(check_consistent, self)
        return self

    def recipe(self) -> Recipe:
        """The recipe the form asks for."""
        return Recipe(**{f.name: getattr(self, f.name) for f in fields(Recipe)})

    def settings(self) -> dict:
        """The fields a task's preset gives (architecture with its LLM pieces, optimiser), by name."""
        return {name: getattr(self, name) for name in PRESET_FIELDS}

    def spec(self, lang: str) -> TrainSpec:
        """The TrainSpec the form asks for, or a gr.Error saying what to change."""
        try:
            return recipes.check_spec(self.recipe())
        except InputError as error:
            raise refused(error, lang) from None

    def with_task_defaults(self) -> "TrainForm":
        """The form with its task's preset in the architecture and optimiser fields."""
        return replace(self, **form_defaults(self.task))

    def fit(self, registry, given: set[str]) -> tuple["TrainForm", list[Refused]]:
        """A link naming a task and no setting opens the task's preset (with its stability settings);
        settings that still do not fit together once a refused one took its default (from_query
        reported it) are the task's preset."""
        if "task" not in given or given & {*PRESET_FIELDS, *STABILITY_FIELDS}:
            try:
                return self.validated(), []
            except Refused:
                return self.with_task_defaults(), []
        stability = {name: value for name, value in stability_defaults(self.task).items() if value is not None}
        return replace(self.with_task_defaults(), **stability), []
