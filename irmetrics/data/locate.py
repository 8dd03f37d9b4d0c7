"""Where a row came from, for messages: a file's line number, or an item number of a Python input."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InputError
from . import ids
from .ids import Ids
from .ids.base import IdError

Positions = np.ndarray | Callable[[], np.ndarray]


class RowLocator:
    """Turns a row index into the place a user can find it (file line or item number).

    ``lines`` gives each row's 1-based line number, or is a function computing
    them (readers compute line numbers only when an error needs one).  ``items``
    gives each row's 1-based item number when the rows are a part of a larger
    input (a chunk of a Parquet file); with neither, row ``i`` is item ``i + 1``.
    ``located=False``: the rows' places are unknown (a partition of a distributed
    run), and messages name only the ids.
    """

    def __init__(self, source: str, lines: Positions | None = None, *, items: Positions | None = None,
                 located: bool = True):
        self.source = source
        self._lines = lines
        self._items = items
        self.located = located

    @property
    def lines(self) -> np.ndarray | None:
        if callable(self._lines):
            self._lines = self._lines()
        return self._lines

    def _item(self, row: int) -> int:
        if callable(self._items):
            self._items = self._items()
        return int(self._items[row]) if self._items is not None else int(row) + 1

    def line(self, row: int) -> int:
        return int(self.lines[row]) if self.lines is not None else int(row) + 1

    def error(self, cls, problem: str, row: int | None = None) -> InputError:
        if row is None or not self.located:
            return cls(problem, self.source)
        if self.lines is None:
            return cls(f'item {self._item(row)}: {problem}', self.source)
        return cls(problem, self.source, self.line(row))

    def ids(self, values: Any, column: str) -> Ids:
        """The id column of ``values`` (:func:`irmetrics.data.ids.column`); a value that is no id is an
        error naming the column and its line or item."""
        try:
            return ids.column(values)
        except IdError as ex:
            raise self.error(InputError, f'{column} {ex.problem}', ex.row) from None

    def at(self, rows: np.ndarray) -> str:
        """``', at lines 3, 7'`` (or items) for a message; empty when rows cannot be located."""
        if not self.located:
            return ''
        if self.lines is not None:
            word, places = 'lines', [self.line(r) for r in rows[:5]]
        else:
            word, places = 'items', [self._item(r) for r in rows[:5]]
        return f', at {word} {", ".join(map(str, places))}{", ..." if len(rows) > 5 else ""}'


def id_at(values: Ids, row: int | np.integer) -> str:
    """The id of one row, for a message."""
    return values.take(np.array([int(row)])).to_list()[0]
