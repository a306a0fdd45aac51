"""The Inside the model tab's controls as one value, and how a link names them. Each section has
its own model and input:

    ?view=inside&emb_model=shakespeare-char&emb_token=e&worked_model=copy&worked_text=abcd
     &worked_site=cross&worked_layer=0&worked_head=0&mask_model=copy&mask_first=abcdefghij&mask_second=abcd
     &norm_model=shakespeare-char&norm_text=To%20be&norm_layer=0&norm_position=0
     &fill_model=masked-char&fill_text=To%20be%2C%20or%20not%20to%20b_&lang=en
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.model.sites import SITES

from ...page.forms import Choice, Form, Integer, ModelName, Refused, String, param
from ...inputs.validation import MAX_HEAD, MAX_INPUT_CHARS, MAX_LAYER
from ...session.examples import FILL_EXAMPLES, MASK_EXAMPLES, followed_input, suitable_input
from ...views.embeddings import MAX_TOKEN_CHARS

DEFAULT_TOKEN = "e"
DEFAULT_WORKED_TEXT = "abcd"
DEFAULT_MASK_INPUTS = ("abcdefghij", "abcd")
DEFAULT_NORM_TEXT = "To be or not"
DEFAULT_FILL_TEXT = "To be, or not to b_, that is the qu_stion"
CHINESE_TOKEN = "春"                # the Chinese interface's token (its nearest neighbour in Tang poems: 秋)
CHINESE_NORM_TEXT = "春眠不觉晓"     # and the LayerNorm section's text


def norm_stack_depth(entry) -> int:
    """Layers of the stack the LayerNorm section reads (the encoder when the model has one)."""
    return entry.config.n_encoder_layers if entry.model.has_encoder else entry.config.n_decoder_layers


def masked(entry) -> bool:
    """Whether the model fills in blanks (an encoder-only model trained on masked text)."""
    return entry.config.arch == "encoder_only"


def first_token(entry, value: str) -> str:
    """`value` where the model knows it as a character, else the first character of its first example."""
    if isinstance(value, str) and len(value) == 1 and not entry.tokenizer.unknown_chars(value):
        return value
    return (suitable_input(entry, "", {}) or DEFAULT_TOKEN)[:1]


def site_depth(entry, site_id: str) -> int:
    """Layers of the stack that holds the attention site `site_id`."""
    return entry.config.n_encoder_layers if site_id == "encoder" else entry.config.n_decoder_layers


@dataclass(frozen=True)
class InsideForm(Form):
    VIEW = "inside"

    emb_model: str = param(ModelName("shakespeare-char"))
    emb_token: str = param(String(DEFAULT_TOKEN, MAX_TOKEN_CHARS))
    worked_model: str = param(ModelName("copy"))
    worked_text: str = param(String(DEFAULT_WORKED_TEXT, MAX_INPUT_CHARS))
    worked_site: str = param(Choice("cross", tuple(site.id for site in SITES)))
    worked_layer: int = param(Integer(0, 0, MAX_LAYER))
    worked_head: int = param(Integer(0, 0, MAX_HEAD))
    mask_model: str = param(ModelName("copy"))
    mask_first: str = param(String(DEFAULT_MASK_INPUTS[0], MAX_INPUT_CHARS))
    mask_second: str = param(String(DEFAULT_MASK_INPUTS[1], MAX_INPUT_CHARS))
    norm_model: str = param(ModelName("shakespeare-char"))
    norm_text: str = param(String(DEFAULT_NORM_TEXT, MAX_INPUT_CHARS))
    norm_layer: int = param(Integer(0, 0, MAX_LAYER))
    norm_position: int = param(Integer(0, 0, MAX_INPUT_CHARS))
    fill_model: str = param(ModelName("masked-char"))
    fill_text: str = param(String(DEFAULT_FILL_TEXT, MAX_INPUT_CHARS))

    def follow(self, catalog, current: str | None) -> tuple["InsideForm", bool]:
        """Every section showing the session's current model (the blanks only for a masked model),
        each keeping its input where the model can read it, else taking the model's own."""
        entry = catalog.get(current) if current else None
        if entry is None:
            return self, False
        inputs = {"emb_model": {"emb_token": {}}, "worked_model": {"worked_text": {}},
                  "mask_model": {"mask_first": {current: [MASK_EXAMPLES.get(current, ("",))[0]]},
                                 "mask_second": {current: [MASK_EXAMPLES.get(current, ("", ""))[1]]}},
                  "norm_model": {"norm_text": {}}, "fill_model": {"fill_text": FILL_EXAMPLES}}
        changes, replaced = {}, False
        layout = InsideForm()                         # the layout's inputs are not the learner's own
        for model_field, texts in inputs.items():
            if getattr(self, model_field) == current or (model_field == "fill_model" and not masked(entry)):
                continue
            changes[model_field] = current
            for field, examples in texts.items():
                value = getattr(self, field)
                if field == "emb_token":
                    changes[field] = first_token(entry, value)
                    gave_up = changes[field] != value
                else:
                    changes[field], gave_up = followed_input(entry, value, examples)
                replaced = replaced or (gave_up and value != getattr(layout, field))
        return (replace(self, **changes) if changes else self), replaced

    def fit(self, registry, given: set[str]) -> tuple["InsideForm", list[Refused]]:
        """An attention site, layer and head the worked model has, and a layer the LayerNorm model
        has; what a link named and the model lacks is replaced and reported."""
        refused: list[Refused] = []
        changes = {}

        def fix(name: str, value, error: Refused):
            changes[name] = value
            if name in given:
                refused.append(error)

        worked = registry.get(self.worked_model)
        sites = [site.id for site in worked.model.sites()]
        site = self.worked_site
        if site not in sites:
            site = sites[0]
            fix("worked_site", site, Refused("worked_site", "err_bad_choice", value=self.worked_site,
                                             choices=", ".join(sites)))
        for name, limit in (("worked_layer", site_depth(worked, site) - 1), ("worked_head", worked.config.n_heads - 1),
                            ("norm_layer", norm_stack_depth(registry.get(self.norm_model)) - 1)):
            if getattr(self, name) > limit:
                fix(name, 0, Refused(name, "err_out_of_range", value=getattr(self, name), low=0, high=limit))
        return (replace(self, **changes) if changes else self), refused
