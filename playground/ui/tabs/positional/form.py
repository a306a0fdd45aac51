"""The Positional encoding tab's controls as one value, and how a link names them.

    ?view=positional&d_model=64&length=64&dims=0,1,10,11&model=copy&rope_dim=16&rope_positions=32
     &rope_pairs=0,1,3,7&shuffle_text=the%20cat%20sat&shuffle_seed=0&lang=en
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...page.forms import Form, Integer, IntegerList, ModelName, Refused, String, param
from ...inputs.validation import MAX_INPUT_CHARS, MAX_SEED, POSITIONAL_D_MODEL_RANGE, POSITIONAL_LENGTH_RANGE
from ...views.positional import (
    DEFAULT_D_MODEL,
    DEFAULT_DIMS,
    DEFAULT_LENGTH,
    DEFAULT_ROPE_DIM,
    DEFAULT_ROPE_PAIRS,
    DEFAULT_ROPE_POSITIONS,
    DEFAULT_SHUFFLE_TEXT,
    MAX_ROPE_DIM,
    MAX_ROPE_POSITIONS,
)


@dataclass(frozen=True)
class PositionalForm(Form):
    VIEW = "positional"

    d_model: int = param(Integer(DEFAULT_D_MODEL, *POSITIONAL_D_MODEL_RANGE))
    length: int = param(Integer(DEFAULT_LENGTH, *POSITIONAL_LENGTH_RANGE))
    dims: tuple[int, ...] = param(IntegerList(DEFAULT_DIMS, 0, POSITIONAL_D_MODEL_RANGE[1] - 1))
    model: str = param(ModelName("copy"))
    rope_dim: int = param(Integer(DEFAULT_ROPE_DIM, 2, MAX_ROPE_DIM))
    rope_positions: int = param(Integer(DEFAULT_ROPE_POSITIONS, 2, MAX_ROPE_POSITIONS))
    rope_pairs: tuple[int, ...] = param(IntegerList(DEFAULT_ROPE_PAIRS, 0, MAX_ROPE_DIM // 2 - 1))
    shuffle_text: str = param(String(DEFAULT_SHUFFLE_TEXT, MAX_INPUT_CHARS))
    shuffle_seed: int = param(Integer(0, 0, MAX_SEED))

    def validated(self) -> "PositionalForm":
        """Sine and cosine come in pairs, and so do RoPE's rotated dimensions: both sizes are even."""
        for name in ("d_model", "rope_dim"):
            if getattr(self, name) % 2:
                raise Refused(name, "err_even_d_model", d_model=getattr(self, name))
        return self

    def follow(self, catalog, current: str | None) -> tuple["PositionalForm", bool]:
        """The position vectors of the session's current model."""
        if not current or current == self.model or catalog.get(current) is None:
            return self, False
        return replace(self, model=current), False

    def fit(self, registry, given: set[str]) -> tuple["PositionalForm", list[Refused]]:
        """Dimensions and pairs that the chosen sizes have (those beyond them are dropped and reported)."""
        refused: list[Refused] = []
        changes = {}
        for name, limit, key, field in (("dims", self.d_model, "err_dims_outside", "dims"),
                                        ("rope_pairs", self.rope_dim // 2, "err_pairs_outside", "pairs")):
            values = getattr(self, name)
            kept = tuple(v for v in values if v < limit)
            if kept != values:
                changes[name] = kept or (0,)
                if name in given:
                    sizes = {"d_model": self.d_model} if name == "dims" else {"n_pairs": limit}
                    refused.append(Refused(name, key, **{field: [v for v in values if v >= limit]}, **sizes))
        return (replace(self, **changes) if changes else self), refused
