"""Result objects whose arrays cannot be changed: what a result holds is what was computed."""
from __future__ import annotations

import numpy as np


class ReadOnlyArrays:
    """A frozen dataclass mixin: every numpy array among the fields is made read-only when it is built
    (as :class:`irmetrics.CalcResults` makes its matrix)."""

    def __post_init__(self) -> None:
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
