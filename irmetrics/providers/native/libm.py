"""Logarithms as trec_eval's C code gets them: from the platform's C library, one value at a time.

``math.log2`` and ``math.log`` call the C library's ``log2`` and ``log``, as trec_eval does.  numpy's
vectorised ``np.log2`` and ``np.log`` need not: on processors with AVX-512 numpy has routines of its own,
which differ from glibc's in the last bit for about one argument in 4,000 (among the integers, log2 of
1621: the discount of rank 1620).  A kernel of a measure trec_eval computes with ``log2`` or ``log``
(nDCG and DCG, G, YAAP) takes its logarithms here, so that its values are trec_eval's to the last bit on
every machine.  DCG's discounts, log2 of the integers rank + 1, come from a table computed once.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import cast

import numpy as np

#: The smallest table of discounts (ranks 0 .. 1023); a longer ranking doubles it as often as needed.
_SMALLEST_TABLE = 10


def log2_rank(rank: np.ndarray) -> np.ndarray:
    """log2(rank + 2) of each 0-based rank (integers from 0): the discount of DCG at rank + 1."""
    rank = np.asarray(rank, dtype=np.int64)
    if rank.size == 0:
        return np.zeros(rank.shape)
    return cast(np.ndarray, _log2_table(max(_SMALLEST_TABLE, int(rank.max()).bit_length()))[rank])


@functools.lru_cache(maxsize=4)
def _log2_table(bits: int) -> np.ndarray:
    """log2(i + 2) for i from 0 to 2^bits - 1, read-only (the cache shares it)."""
    size = 1 << bits
    table = np.fromiter(map(math.log2, range(2, size + 2)), dtype=np.float64, count=size)
    table.flags.writeable = False
    return table


def log2(x: np.ndarray) -> np.ndarray:
    """The C library's log2 of each value."""
    return _each(math.log2, np.log2, x)


def log(x: np.ndarray) -> np.ndarray:
    """The C library's natural logarithm of each value."""
    return _each(math.log, np.log, x)


def _each(function: Callable[[float], float], vectorised: Callable[[np.ndarray], np.ndarray],
          x: np.ndarray) -> np.ndarray:
    """``function`` (the C library's) of each positive finite value; numpy's value of the others, where
    Python raises (0, negative numbers) and C returns -inf or NaN as numpy does."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide='ignore', invalid='ignore'):
        out = np.asarray(vectorised(x), dtype=np.float64)
    fine = (x > 0) & np.isfinite(x)
    out[fine] = np.fromiter(map(function, x[fine].tolist()), dtype=np.float64, count=int(fine.sum()))
    return out
