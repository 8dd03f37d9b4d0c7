"""One protocol for the results irmetrics returns that are a table of their own (the checks of the evaluation,
risk, pools, agreement): ``render(format, *, places)``, ``to_dataframe()``, ``to_dict()``.

A result says what its table is (:meth:`Tabled.table`: columns, rows, notes); every format of
:data:`~.formats.FORMATS` is then rendered from it by :func:`~.records.render_table`, for Python and the
command line alike, so a new format is one renderer there and every result has it.  A result with several
views takes keyword options (``by_query=True``, ...) in :meth:`table`, :meth:`render` and :meth:`to_dataframe`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .records import Table, render_table

__all__ = ['Table', 'Tabled', 'frame_of']


class Tabled(ABC):
    """A result printed as a table (see the module docstring)."""

    @abstractmethod
    def table(self) -> Table:
        """The result's table (a result with several views takes them as keyword options here)."""

    def render(self, format: str = 'table', *, places: int | None = None, **view: Any) -> str:
        """The table in ``format`` (:data:`~.formats.FORMATS`); ``places``: decimals (default 4 in the formats
        people read, every digit in CSV and JSON; < 0: every digit)."""
        return render_table(self.table(**view), format, places)

    def to_dataframe(self) -> Any:
        """The table as a pandas DataFrame (its columns, every digit); a result may give a richer frame."""
        return frame_of(self.table())

    def to_dict(self) -> dict[str, Any]:
        """The table's rows as records ``{column: value}`` (a result may give more: its own numbers)."""
        table = self.table()
        return {'rows': [dict(zip(table.columns, row, strict=True)) for row in table.rows]}

    def __str__(self) -> str:
        return self.render()


def frame_of(table: Table) -> Any:
    """A table as a pandas DataFrame."""
    import pandas as pd
    return pd.DataFrame([list(row) for row in table.rows], columns=list(table.columns))
