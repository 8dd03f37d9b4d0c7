"""Exact sums of per-query values, for aggregates computed where the values are (never gathered).

A float64 is an integer multiple of 2**-1074, so a sum of them is exactly an integer number of such
units: each partition adds its values exactly (numpy over the mantissas, grouped by exponent, then
Python integers for the few groups), the client adds the partitions' integers, and the mean is the
exact sum divided by the count, rounded once.  The result is the correctly rounded mean whatever the
partitioning and order; numpy's pairwise mean (the in-memory path) can differ from it by its own
rounding error, a few units in the last place (docs/scaling.md).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from irmetrics.algebra.measure import Measure

_UNIT = 1127                 # x = mantissa * 2**(exponent + 1074 - 1127): the shift is never negative
_HALF = 26


class ExactSum(NamedTuple):
    """Values added exactly: ``total`` in units of 2**-1127, how many (``n``), and the sum of any that
    are not finite (NaN or infinite: they decide the result as they would in a float sum)."""
    total: int
    n: int
    special: float


def exact_sum(values: np.ndarray, skip_nan: bool) -> ExactSum:
    """The :class:`ExactSum` of ``values`` (NaN left out with ``skip_nan``)."""
    if skip_nan:
        values = values[~np.isnan(values)]
    finite = np.isfinite(values)
    special = float(values[~finite].sum()) if not finite.all() else 0.0
    x = values[finite & (values != 0)]
    if len(x) == 0:
        return ExactSum(0, len(values), special)
    fraction, exponent = np.frexp(x)
    mantissa = (fraction * 2.0 ** 53).astype(np.int64)               # exact: |mantissa| < 2**53
    shift = exponent.astype(np.int64) + 1074
    order = np.argsort(shift, kind='stable')
    shift, mantissa = shift[order], mantissa[order]
    starts = np.flatnonzero(np.concatenate(([True], shift[1:] != shift[:-1])))
    high = np.add.reduceat(mantissa >> _HALF, starts)                # halves: no int64 overflow below 2**36 values
    low = np.add.reduceat(mantissa & ((1 << _HALF) - 1), starts)
    total = sum(((int(h) << _HALF) + int(lo)) << int(s)
                for h, lo, s in zip(high.tolist(), low.tolist(), shift[starts].tolist(), strict=True))
    return ExactSum(total, len(values), special)


def add(a: ExactSum, b: ExactSum) -> ExactSum:
    return ExactSum(a.total + b.total, a.n + b.n, a.special + b.special)


def column_sums(measures: list[Measure], values: np.ndarray) -> list[ExactSum]:
    """The exact sum of each measure's column of a (query x measure) array."""
    return [exact_sum(values[:, j], m.definition.skips_undefined) for j, m in enumerate(measures)]


def aggregate(measure: Measure, s: ExactSum) -> float:
    """The measure's aggregate (mean, or sum for counts) of values added exactly, as
    :func:`irmetrics.api.results.aggregate` defines it."""
    if s.special != 0.0 or math.isnan(s.special):      # a NaN or an infinity decides, as in a float sum
        return s.special
    if measure.definition.aggregate == 'sum':
        total = s.total / (1 << _UNIT)
        return int(total) if total.is_integer() else total
    return s.total / (s.n << _UNIT) if s.n else math.nan
