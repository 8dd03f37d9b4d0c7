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
_MIX = np.uint64(0x9E3779B97F4A7C15)      # golden-ratio constant
_MULT = np.uint64(0x100000001B3)          # FNV 64-bit prime
_BYTE_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)   # keep the first k bytes
_BLOCK = 1 << 16


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
    """The Arrow layout of an id column."""
    if is_arrow(values):
        return values
    from . import arrow_strings
    return arrow_strings.from_strings(values.tolist())


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


def fingerprint(values: Any) -> np.ndarray:
    """A 64-bit fingerprint of each id, the same in both layouts and every process.

    Equal ids give equal fingerprints; different ids collide with probability
    about 2**-64 per pair, so callers confirm matches exactly.
    """
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.fingerprint(values)
    encoded = [v.encode('utf-8') for v in values.tolist()]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    return fingerprint_bytes(np.frombuffer(b''.join(encoded), dtype=np.uint8), offsets)


def fingerprint_bytes(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Fingerprints of the strings ``data[offsets[i]:offsets[i+1]]``, hashed eight bytes at a time.

    Works in cache-sized blocks of strings, so temporaries stay small.
    """
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint64)
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        first, last = offsets[lo], offsets[hi]
        padded = np.zeros(last - first + 8, np.uint8)          # this block's bytes, plus room for a word
        padded[:last - first] = data[first:last]
        # word i = the 8 bytes starting at byte i (an unaligned, overlapping view)
        words = np.ndarray(shape=(last - first + 1,), dtype=np.uint64, buffer=padded, strides=(1,))
        starts = offsets[lo:hi] - first
        lengths = offsets[lo + 1:hi + 1] - offsets[lo:hi]
        with np.errstate(over='ignore'):
            h = lengths.astype(np.uint64) * _MIX
            for j in range((int(lengths.max()) + 7) // 8):
                word = words[np.minimum(starts + 8 * j, last - first)]
                word &= _BYTE_MASKS[np.clip(lengths - 8 * j, 0, 8)]
                mixed = (h ^ word) * _MULT
                mixed ^= mixed >> np.uint64(29)
                h = np.where(lengths > 8 * j, mixed, h)      # a string's own words only, not its block's
        out[lo:hi] = h
    return out


def mix(fingerprints: np.ndarray, *codes: np.ndarray) -> np.ndarray:
    """Fingerprints of (id, code, ...) tuples from the ids' fingerprints and integer codes (a new array).

    Computed in cache-sized blocks: the result is the only large allocation.
    """
    out = fingerprints.copy()
    with np.errstate(over='ignore'):
        for lo in range(0, len(out), _BLOCK):
            block = out[lo:lo + _BLOCK]
            for c in codes:
                term = c[lo:lo + _BLOCK].astype(np.uint64)
                term += np.uint64(1)
                term *= _MIX
                block ^= term
                block *= np.uint64(0xBF58476D1CE4E5B9)
                np.right_shift(block, np.uint64(31), out=term)
                block ^= term
    return out


def order_within_groups(values: Any, groups: np.ndarray) -> np.ndarray:
    """Permutation sorting rows by group ascending, then id descending (byte-wise)."""
    if is_arrow(values):
        from . import arrow_strings
        return arrow_strings.order_within_groups(values, groups)
    keys = values.tolist()
    by_id = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    return np.asarray(sorted(by_id, key=groups.__getitem__), dtype=np.int64)


def equal(a: Any, b: Any) -> np.ndarray:
    """Element-wise ``a == b`` of two id columns of equal length."""
    if is_arrow(a) or is_arrow(b):
        from . import arrow_strings
        return arrow_strings.equal(to_arrow(a), to_arrow(b))
    return np.asarray(a == b, dtype=bool)


def less(a: Any, b: Any) -> np.ndarray:
    """Element-wise ``a < b`` (byte-wise) of two id columns of equal length."""
    if is_arrow(a) or is_arrow(b):
        from . import arrow_strings
        return arrow_strings.less(to_arrow(a), to_arrow(b))
    return np.fromiter((x < y for x, y in zip(a.tolist(), b.tolist())), dtype=bool, count=len(a))
