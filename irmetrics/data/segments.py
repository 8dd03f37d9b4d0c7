"""Helpers for arrays segmented by query (rows of one query are contiguous)."""
from __future__ import annotations

from typing import cast

import numpy as np


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted, by one sort (numpy 2.4's ``np.unique`` hashes instead, and is an
    order of magnitude slower on millions of distinct integers)."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def run_starts(keys: np.ndarray) -> np.ndarray:
    """True at each element whose key differs from the previous one's: the first of each run of equal keys."""
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return first


def ranges(sizes: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(s)`` for each ``s`` in ``sizes`` (position within each segment)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    total = int(sizes.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    return cast(np.ndarray, np.arange(total, dtype=np.int64) - np.repeat(starts, sizes))


def offsets_of(sorted_codes: np.ndarray, n_segments: int) -> np.ndarray:
    """Start offsets (length ``n_segments + 1``) of each code in an array sorted by code."""
    # the needles in the codes' own type: searchsorted would otherwise convert the whole haystack
    kind = sorted_codes.dtype if sorted_codes.dtype.kind in 'iu' and n_segments < np.iinfo(sorted_codes.dtype).max \
        else np.int64
    return np.searchsorted(sorted_codes, np.arange(n_segments + 1, dtype=kind), side='left').astype(np.int64)


def running_count(mask: np.ndarray, query: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For every row (rows sorted by query), the rows of its query selected by ``mask`` up to and
    including it."""
    cum = np.cumsum(mask, dtype=np.int64)
    return cast(np.ndarray, cum - np.concatenate(([0], cum))[offsets[:-1]][query])


def running_sum(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For every row (rows sorted by segment), the sum of its segment's values up to and including it.

    Each segment is summed on its own, left to right, as a C loop over one query adds: no rounding
    from other segments leaks in (as it would through a global cumulative sum minus an offset).  The
    segments of like length (within a factor of 2) are the rows of one 2-D array, zero-padded on the
    right, summed along its rows by ``np.cumsum`` (sequential, as the loop): a few numpy calls for each
    power of 2, however long the longest segment.
    """
    out = np.array(values, dtype=np.float64)
    sizes = np.diff(offsets)
    buckets = np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.int64)
    for bucket in np.unique(buckets[sizes > 1]):
        segments = np.flatnonzero((buckets == bucket) & (sizes > 1))
        columns = np.arange(int(sizes[segments].max()))
        inside = columns < sizes[segments][:, None]
        rows = (offsets[segments][:, None] + columns)[inside]
        block = np.zeros(inside.shape)
        block[inside] = out[rows]
        out[rows] = np.cumsum(block, axis=1)[inside]
    return out


def suffix_max(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """For every row (rows sorted by segment), the largest value of its segment at or after it.

    Values are replaced by their rank among the distinct values, so that one running maximum over the
    reversed rows, keyed by segment, restarts at every segment without arithmetic on the values.
    """
    if not len(values):
        return np.zeros(0, dtype=np.float64)
    distinct, code = np.unique(values, return_inverse=True)
    reverse = slice(None, None, -1)
    later_segment = (segment.max() - segment)[reverse].astype(np.int64)    # non-decreasing over reversed rows
    key = later_segment * len(distinct) + code[reverse]
    return cast(np.ndarray, distinct[(np.maximum.accumulate(key) % len(distinct))[reverse]])
