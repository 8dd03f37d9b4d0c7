"""Helpers for arrays segmented by query (rows of one query are contiguous)."""
from __future__ import annotations

import numpy as np


def ranges(sizes: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(s)`` for each ``s`` in ``sizes`` (position within each segment)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    total = int(sizes.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    return np.arange(total, dtype=np.int64) - np.repeat(starts, sizes)


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
    return cum - np.concatenate(([0], cum))[offsets[:-1]][query]
