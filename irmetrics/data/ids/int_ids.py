"""Ids that are non-negative integers, held as numbers: the layout of integer columns and of arrays.

A recommender's users and items, a DataFrame's integer ``query_id``, the rows and columns of a score
matrix: each id *is* the decimal text of its number (``7`` is the id ``'7'``), and every operation
gives what it gives on that text, without making a string:

* order is trec_eval's ``strcmp`` order of the text (``'10' < '9'``), found by a numeric key
  (:func:`text_key`): the number's digits left-aligned to :data:`DIGITS` places, then its length;
* fingerprints are those of the text (:func:`decimal_fingerprints`), so an integer column joins a
  column of strings as its text would;
* equality and lookups compare the numbers.

Only numbers in ``0 .. 10**DIGITS - 1`` are held so; other integers (negative, or of more digits)
become text in the string layouts.
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from .base import Ids, fingerprint_bytes

#: the most decimal digits an id of this layout has
DIGITS = 17
_POWERS = 10 ** np.arange(DIGITS + 1, dtype=np.int64)
#: a vocabulary whose largest id is below this (or below four times its size) is looked up through a table
_TABLE_MIN = 1 << 20
#: columns of at least this many numbers are made text by Arrow's cast (5 times faster than
#: :func:`decimal_text`: benchmarks/bench_structures.py); smaller ones by numpy, which imports nothing heavy
_ARROW_TEXT_ROWS = 100_000


def holds(values: Any) -> bool:
    """Whether ``values`` is a numpy array of integers this layout holds (see the module docstring)."""
    if not isinstance(values, np.ndarray) or values.dtype.kind not in 'iu' or values.ndim != 1:
        return False
    return len(values) == 0 or (int(values.min()) >= 0 and int(values.max()) < _POWERS[DIGITS])


def digit_counts(values: np.ndarray) -> np.ndarray:
    """The number of decimal digits of each value (1 for 0)."""
    return np.searchsorted(_POWERS[1:], values, side='right') + 1


def text_key(values: np.ndarray) -> np.ndarray:
    """An int64 key that orders the values as ``strcmp`` orders their decimal text.

    Text order compares the digits from the left, a prefix first: the digits left-aligned to
    :data:`DIGITS` places (``7`` and ``70`` both give 7 followed by zeros) order all but prefixes,
    which the length then orders (``'7' < '70'``).  Keys stay below ``2 * 10**18``.
    """
    lengths = digit_counts(values)
    return cast(np.ndarray, values.astype(np.int64) * _POWERS[DIGITS - lengths] * 20 + lengths)


def decimal_text(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The UTF-8 bytes of the values' decimal text, concatenated, and the offsets of each value's."""
    lengths = digit_counts(values)
    offsets = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = np.empty(int(offsets[-1]), dtype=np.uint8)
    rest, last, live = values.astype(np.int64), offsets[1:] - 1, np.arange(len(values))
    for place in range(int(lengths.max(initial=0))):        # the digit `place` places from the right
        live = live[lengths[live] > place]
        data[last[live] - place] = rest[live] % 10 + ord('0')
        rest[live] //= 10
    return data, offsets


def decimal_fingerprints(values: np.ndarray) -> np.ndarray:
    """:func:`.base.fingerprint_bytes` of each value's decimal text.

    Values with many repeats in a small range (a run's item indices) are fingerprinted once each,
    as the range ``0 .. max``, and gathered.
    """
    if len(values) == 0:
        return np.zeros(0, dtype=np.uint64)
    top = int(values.max())
    if top + 1 < len(values):
        return cast(np.ndarray, decimal_fingerprints(np.arange(top + 1, dtype=np.int64))[values])
    if len(values) >= _ARROW_TEXT_ROWS:
        from ..arrow_arrays import decimal_strings, string_bytes
        return fingerprint_bytes(*string_bytes(decimal_strings(values)))
    return fingerprint_bytes(*decimal_text(values))


class IntIds(Ids):
    """Ids held as an int64 numpy array of non-negative numbers (see the module docstring)."""

    layout = 'int'
    rank = -1                 # meeting a column of strings, this column becomes strings

    def __init__(self, values: np.ndarray):
        self.values = values.astype(np.int64, copy=False)

    @classmethod
    def adopt(cls, other: Ids) -> IntIds:
        if not isinstance(other, IntIds):           # rank -1: only ever asked to adopt its own layout
            raise TypeError(f'{type(other).__name__} cannot become integer ids')
        return other

    def __len__(self) -> int:
        return len(self.values)

    def to_list(self) -> list[str]:
        return list(map(str, self.values.tolist()))

    def take(self, indices: np.ndarray) -> IntIds:
        return IntIds(self.values[np.asarray(indices, dtype=np.int64)])

    def encode(self) -> tuple[IntIds, np.ndarray]:
        values = self.values
        if len(values) == 0 or bool(np.all(values[1:] >= values[:-1])):     # grouped and sorted: linear
            starts = self.run_starts()
            codes = np.zeros(len(values), dtype=np.int32)
            codes[starts[1:]] = 1
            return IntIds(values[starts]), np.cumsum(codes, dtype=np.int32)
        top = int(values.max())
        if top < 4 * len(values) + 1024:                                   # small numbers: a table, no sort
            first = np.full(top + 1, len(values), dtype=np.int64)
            np.minimum.at(first, values, np.arange(len(values)))
            seen = np.flatnonzero(first < len(values))
            distinct = seen[np.argsort(first[seen], kind='stable')]
            code_of = np.empty(top + 1, dtype=np.int32)
            code_of[distinct] = np.arange(len(distinct), dtype=np.int32)
            return IntIds(distinct), code_of[values]
        distinct, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        appearance = np.argsort(first)
        code_of = np.empty(len(distinct), dtype=np.int32)
        code_of[appearance] = np.arange(len(distinct), dtype=np.int32)
        return IntIds(distinct[appearance]), code_of[inverse.ravel()]

    def fingerprint(self) -> np.ndarray:
        return decimal_fingerprints(self.values)

    def order_within_groups(self, groups: np.ndarray) -> np.ndarray:
        return np.lexsort((-text_key(self.values), groups)).astype(np.int64)

    def run_starts(self) -> np.ndarray:
        values = self.values
        if len(values) == 0:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1]))).astype(np.int64)

    def _lookup(self, vocabulary: IntIds) -> np.ndarray:
        """By a table indexed by the id when the vocabulary's ids are small numbers (items, users),
        else by binary search in the sorted vocabulary."""
        vocab = vocabulary.values
        if len(vocab) == 0:
            return np.full(len(self.values), -1, dtype=np.int64)
        top = int(vocab.max())
        if top < max(4 * len(vocab), _TABLE_MIN):
            table = np.full(top + 2, -1, dtype=np.int64)          # the last slot answers every larger id
            table[vocab] = np.arange(len(vocab))
            return table[np.minimum(self.values, top + 1)]
        order = np.argsort(vocab, kind='stable')
        ordered = vocab[order]
        at = np.minimum(np.searchsorted(ordered, self.values), len(vocab) - 1)
        return np.where(ordered[at] == self.values, order[at], -1).astype(np.int64)

    def _equal(self, other: IntIds) -> np.ndarray:
        return cast(np.ndarray, self.values == other.values)

    def _less(self, other: IntIds) -> np.ndarray:
        return text_key(self.values) < text_key(other.values)


def numbers_of(ids: Ids) -> np.ndarray:
    """The number each id is the decimal text of (``'7'`` -> 7), -1 for an id that is no such text (``'07'``,
    ``'d7'``, a number of more than :data:`DIGITS` digits): the row or item index an id names in an array."""
    if isinstance(ids, IntIds):
        return ids.values
    texts = ids.to_list()
    return np.fromiter((int(t) if t.isascii() and t.isdigit() and len(t) <= DIGITS and (t == '0' or t[0] != '0')
                        else -1 for t in texts), dtype=np.int64, count=len(texts))
