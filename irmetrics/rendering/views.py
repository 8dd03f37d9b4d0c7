"""What the renderers read of a result: small protocols, so that this room never imports the result
types that render through it."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # numpy is imported by whoever holds the values
    import numpy as np


class ResultsView(Protocol):
    """The results of one run (:class:`~irmetrics.CalcResults` has it all)."""

    @property
    def query_ids(self) -> Sequence[str]: ...

    @property
    def measures(self) -> Sequence[Any]: ...

    @property
    def values(self) -> np.ndarray: ...

    def aggregate_items(self) -> Sequence[tuple[Any, float]]: ...

    def iter_metrics(self) -> Iterator[Any]: ...
