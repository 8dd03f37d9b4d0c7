"""Where a row came from, for messages: a file's line number, or an item number of a Python input."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InputError
from . import ids
from .ids import Ids
from .ids.base import EMPTY, MISSING, IdError

Positions = np.ndarray | Callable[[], np.ndarray]


class RowLocator:
    """Turns a row index into the place a user can find it (file line or item number).

    ``lines`` gives each row's 1-based line number, or is a function computing
    them (readers compute line numbers only when an error needs one).  ``items``
    gives each row's 1-based item number when the rows are a part of a larger
    input (a chunk of a Parquet file); with neither, row ``i`` is item ``i + 1``.
    ``located=False``: the rows' places are unknown (a partition of a distributed
    run), and messages name only the ids.  ``part=True``: the rows are a part of the input
    read so far (a chunk of a large run), so a count of faulty rows is said to be of that part.
    """

    def __init__(self, source: str, lines: Positions | None = None, *, items: Positions | None = None,
                 located: bool = True, part: bool = False):
        self.source = source
        self._lines = lines
        self._items = items
        self.located = located
        self.part = part

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

    def error(self, cls: type[InputError], problem: str, row: int | None = None) -> InputError:
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
            count = _count_like(values, ex.problem)
            raise self.error(InputError, f'{column} {ex.problem}{self.such_rows(count)}', ex.row) from None

    def such_rows(self, count: int) -> str:
        """How many rows share a fault, after the first one's message (nothing for one row)."""
        if count <= 1:
            return ''
        return f' (the first of {count:,} such rows{" in this part of the input" if self.part else ""})'

    def at(self, rows: np.ndarray) -> str:
        """``', at lines 3, 7'`` (or items) for a message; empty when rows cannot be located."""
        if not self.located:
            return ''
        if self.lines is not None:
            word, places = 'lines', [self.line(r) for r in rows[:5]]
        else:
            word, places = 'items', [self._item(r) for r in rows[:5]]
        return f', at {word} {", ".join(map(str, places))}{", ..." if len(rows) > 5 else ""}'


def _count_like(values: Any, problem: str) -> int:
    """How many of ``values`` are missing or empty ids, as ``problem`` says the first one is (1 for any
    other fault: such values are named one at a time).  Vectorised: runs on the error path only."""
    if problem not in (MISSING, EMPTY):
        return 1
    if type(values).__module__.startswith('pyarrow'):
        import pyarrow as pa
        import pyarrow.compute as pc
        if problem == MISSING:
            return int(pc.sum(pc.is_null(values, nan_is_null=True)).as_py() or 0)
        if pa.types.is_dictionary(values.type):
            values = values.cast(values.type.value_type)
        return int(pc.sum(pc.equal(pc.binary_length(values), 0)).as_py() or 0)
    array = np.asarray(values, dtype=object)
    if problem == MISSING:
        import pandas as pd
        return int(np.count_nonzero(pd.isna(array)))
    return int(np.count_nonzero((array == '') | (array == b'')))


def id_at(values: Ids, row: int | np.integer) -> str:
    """The id of one row, for a message."""
    return values.take(np.array([int(row)])).to_list()[0]
