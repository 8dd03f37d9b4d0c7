"""The id layer: columns of query, document and subtopic ids behind one interface (:class:`Ids`).

:func:`column` builds a column in the layout its size calls for, once: small columns are numpy
arrays of Python strings (:mod:`.numpy_ids`: nothing heavy is imported, so a 50-query job starts
as fast as Python and numpy allow); large ones are Arrow string arrays (:mod:`.arrow_ids`: compact,
and encoded, looked up, fingerprinted and sorted in C; pyarrow is imported only then).  Callers use
the :class:`Ids` methods and never ask which layout they hold.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .base import Ids, fingerprint_bytes, mix
from .numpy_ids import NumpyIds

__all__ = ['ARROW_MIN_ROWS', 'Ids', 'column', 'empty', 'fingerprint_bytes', 'mix', 'repeat']

#: Columns with at least this many values use the Arrow layout.
ARROW_MIN_ROWS = 100_000


def column(values: Any) -> Ids:
    """An id column of strings or numbers (numbers become their text), in the layout its size calls for.

    Arrow arrays stay Arrow: they go into the Arrow layout without a copy through Python objects.
    """
    if isinstance(values, Ids):
        return values
    if type(values).__module__.startswith('pyarrow'):
        from .arrow_ids import ArrowIds
        return ArrowIds.of(values)
    if len(values) >= ARROW_MIN_ROWS:
        from .arrow_ids import ArrowIds
        return ArrowIds.from_values(values)
    return NumpyIds.from_values(values)


def empty() -> Ids:
    return NumpyIds(np.zeros(0, dtype=object))


def repeat(value: str, n: int) -> Ids:
    return column(np.full(n, value, dtype=object))
