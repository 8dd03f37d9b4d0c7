"""Columns of ids (queries, documents, subtopics) and the few operations the core needs on them.

Two layouts behind one set of functions:

* small columns are numpy object arrays of ``str``: nothing heavy is imported,
  so evaluating a 50-query run starts as fast as Python and numpy allow;
* large columns are Arrow string arrays: compact, and encoded, looked up,
  fingerprinted and sorted in C (:mod:`.arrow_strings`, imported lazily).

String order is byte-wise on UTF-8 (trec_eval's ``strcmp``); Python's ``str``
order is the same (code point order).
"""
from __future__ import annotations

from typing import Any

import numpy as np

#: Columns with at least this many values use the Arrow layout.
ARROW_MIN_ROWS = 100_000
_MIX = np.uint64(0x9E3779B97F4A7C15)


def is_arrow(values: Any) -> bool:
    return type(values).__module__.startswith('pyarrow')


def column(values: Any) -> Any:
    """An id column from strings or numbers (numbers become their text), in the layout its size calls for."""
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.as_string_array(values)
    if len(values) >= ARROW_MIN_ROWS:
        from . import arrow_strings
        return arrow_strings.from_values(values)
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if not all(type(v) is str for v in items):
        items = [v if type(v) is str else _text(v) for v in items]
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        from .errors import InputError
        raise InputError('ids must not be missing (None/NaN)')
    if isinstance(value, bytes):
        return value.decode('utf-8')
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def to_arrow(values: Any):
    if is_arrow(values):
        return values
    from . import arrow_strings
    return arrow_strings.from_values(values)


def to_list(values: Any) -> list[str]:
    return values.to_pylist() if is_arrow(values) else values.tolist()


def empty() -> np.ndarray:
    return np.zeros(0, dtype=object)


def repeat(value: str, n: int) -> Any:
    return column(np.full(n, value, dtype=object))


def encode(values: Any) -> tuple[Any, np.ndarray]:
    """(vocabulary in order of first appearance, int32 code of each value)."""
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.encode(values)
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(v, len(index)) for v in values.tolist()), dtype=np.int32,
                        count=len(values))
    return np.array(list(index), dtype=object), codes


def lookup(values: Any, vocabulary: Any) -> np.ndarray:
    """Index (int64) of each value in ``vocabulary``, -1 where absent."""
    if is_arrow(values) or is_arrow(vocabulary):
        from . import arrow_strings
        return arrow_strings.lookup(to_arrow(values), to_arrow(vocabulary))
    index = {v: i for i, v in enumerate(vocabulary.tolist())}
    return np.fromiter((index.get(v, -1) for v in values.tolist()), dtype=np.int64, count=len(values))


def take(values: Any, indices: np.ndarray) -> Any:
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.take(values, indices)
    return values[np.asarray(indices, dtype=np.int64)]


def pair_fingerprint(codes: np.ndarray, values: Any) -> np.ndarray:
    """A 64-bit fingerprint of each (integer code, id) pair; equal pairs give equal fingerprints."""
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.pair_fingerprint(codes, values)
    hashed = np.fromiter((hash(v) for v in values.tolist()), dtype=np.int64, count=len(values)).view(np.uint64)
    with np.errstate(over='ignore'):
        return hashed ^ ((codes.astype(np.uint64) + np.uint64(1)) * _MIX)


def order_within_groups(values: Any, groups: np.ndarray) -> np.ndarray:
    """Permutation sorting rows by group ascending, then id descending (byte-wise)."""
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.order_within_groups(values, groups)
    keys = values.tolist()
    by_id = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    return np.asarray(sorted(by_id, key=groups.__getitem__), dtype=np.int64)


def less(a: Any, b: Any) -> np.ndarray:
    """Element-wise ``a < b`` (byte-wise) of two id columns of equal length."""
    if is_arrow(a) or is_arrow(b):
        from . import arrow_strings
        return arrow_strings.less(to_arrow(a), to_arrow(b))
    return np.fromiter((x < y for x, y in zip(a.tolist(), b.tolist())), dtype=bool, count=len(a))
