"""What the results of the trust room share: one table of rows, rendered in the formats of
:mod:`irmetrics.rendering.records`, with a legend under the aligned table."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ..rendering.records import render_records


class Tabled(ABC):
    """A result printed as one table: a subclass gives ``COLUMNS``, ``rows()`` and ``legend()``."""

    COLUMNS: ClassVar[tuple[str, ...]]

    @abstractmethod
    def rows(self) -> list[list[Any]]:
        """One list of values per row, one value per column of ``COLUMNS``."""

    @abstractmethod
    def legend(self) -> str:
        """Lines saying what the columns hold."""

    def render(self, fmt: str = 'table', places: int | None = None) -> str:
        """The table in one of the formats of :mod:`irmetrics.rendering.records` (with the legend under the
        aligned table); ``places``: decimals (default 4, every digit in CSV and JSON; < 0: every digit)."""
        return render_records(self.COLUMNS, self.rows(), fmt, places, legend=self.legend())

    def to_pandas(self) -> Any:
        """The rows as a DataFrame, columns ``COLUMNS``."""
        import pandas as pd
        return pd.DataFrame(self.rows(), columns=list(self.COLUMNS))

    def __str__(self) -> str:
        return self.render()
