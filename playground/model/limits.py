"""Upper bounds on a model's size, checked from its config before any weight is allocated."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .config import ModelConfig
from .params import count_parameters


class SizeLimitError(ValueError):
    """A config over a size limit: `field` (a ModelConfig field, or "parameters"), its `value`, the `limit`."""

    def __init__(self, field: str, value: int, limit: int):
        super().__init__(f"{field} is {value:,}; the limit is {limit:,}")
        self.field, self.value, self.limit = field, value, limit


@dataclass(frozen=True)
class SizeLimits:
    """The largest model a caller accepts.

    largest: ModelConfig field -> its largest allowed value (layers per stack, d_model, max_len, ...).
    max_parameters: all parameters, token embeddings and learned position tables included.
    """

    largest: Mapping[str, int]
    max_parameters: int

    def check_fields(self, values: Mapping[str, object]) -> None:
        """Each integer field within its limit (fields of other types are left to ModelConfig)."""
        for name, limit in self.largest.items():
            value = values.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value > limit:
                raise SizeLimitError(name, value, limit)

    def check(self, config: ModelConfig) -> int:
        """The config's parameter count, or a SizeLimitError for the first field or count over its limit.

        The fields are compared first, so an absurd shape costs nothing; the parameters are then
        counted on the meta device, which allocates no weights.
        """
        self.check_fields(config.to_dict())
        parameters = count_parameters(config)["total"]
        if parameters > self.max_parameters:
            raise SizeLimitError("parameters", parameters, self.max_parameters)
        return parameters
