"""The id layer: columns of query, document and subtopic ids behind one interface (:class:`Ids`).

:func:`column` builds a column in the layout its values and size call for, once: non-negative
integers are held as numbers (:mod:`.int_ids`: no string is made; text order and fingerprints are
found from the numbers); small columns of text are numpy arrays of Python strings
(:mod:`.numpy_ids`: nothing heavy is imported, so a 50-query job starts as fast as Python and numpy
allow); large ones are Arrow string arrays (:mod:`.arrow_ids`: compact, and encoded, looked up,
fingerprinted and sorted in C; pyarrow is imported only then).  Callers use the :class:`Ids` methods
and never ask which layout they hold.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import int_ids
from .base import Ids, fingerprint_bytes, mix
from .int_ids import IntIds
from .numpy_ids import NumpyIds

__all__ = ['ARROW_MIN_ROWS', 'Ids', 'column', 'concatenated', 'empty', 'fingerprint_bytes', 'mix', 'repeat']

#: Columns with at least this many values use the Arrow layout.
ARROW_MIN_ROWS = 100_000


def column(values: Any) -> Ids:
    """An id column of strings or numbers (numbers are their text), in the layout they call for.

    Non-negative integers (numpy or Arrow) are held as numbers; other Arrow arrays stay Arrow: they go
    into the Arrow layout without a copy through Python objects.
    """
    if isinstance(values, Ids):
        return values
    if type(values).__module__.startswith('pyarrow'):
        numbers = _arrow_integers(values)
        if numbers is not None and int_ids.holds(numbers):
            return IntIds(numbers)
        from .arrow_ids import ArrowIds
        return ArrowIds.of(values)
    if int_ids.holds(values):
        return IntIds(values)
    if len(values) >= ARROW_MIN_ROWS:
        from .arrow_ids import ArrowIds
        return ArrowIds.from_values(values)
    return NumpyIds.from_values(values)


def concatenated(columns: Sequence[Ids]) -> Ids:
    """The ids of ``columns`` one after another: numbers when every column holds numbers, a numpy column when
    every column is one and the whole is small, else Arrow strings (numbers converted in Arrow)."""
    numbers = [c.values for c in columns if isinstance(c, IntIds)]
    if len(numbers) == len(columns):
        return IntIds(np.concatenate(numbers) if numbers else np.zeros(0, dtype=np.int64))
    texts = [c.values for c in columns if isinstance(c, NumpyIds)]
    if len(texts) == len(columns) and sum(map(len, texts)) < ARROW_MIN_ROWS:
        return NumpyIds(np.concatenate(texts))
    from .arrow_ids import ArrowIds
    return ArrowIds.concatenated(columns)


def empty() -> Ids:
    return NumpyIds(np.zeros(0, dtype=object))


def repeat(value: str, n: int) -> Ids:
    """``value`` ``n`` times (a decimal number such as qrels' iteration ``'0'`` held as a number, one value
    broadcast ``n`` times: no memory per row)."""
    if value.isdecimal() and value.isascii() and str(int(value)) == value:
        return column(np.broadcast_to(np.int64(int(value)), (n,)))
    return column(np.full(n, value, dtype=object))


def _arrow_integers(values: Any) -> np.ndarray | None:
    """An Arrow array (or chunked array) of integers without nulls as numpy, else None."""
    import pyarrow as pa

    from ..arrow_arrays import numbers
    if not pa.types.is_integer(values.type) or values.null_count:
        return None
    return numbers(values)
