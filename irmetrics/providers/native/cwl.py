"""C/W/L measures as cwl_eval computes them, in closed form over the ranks that carry gain.

A C/W/L measure weighs rank i (0-based here) by A(i) = prod_{j<i} C(j) and scores
EU = sum_i A(i) g(i) / Z with Z = sum_{i<1000} A(i).  cwl_eval builds 1000 ranks per
query and multiplies C out; here only the retrieved documents with a positive gain
are touched.  Between two of them C follows a fixed profile, so A is a profile times
a per-query running product over the gain-bearing rows, and Z is a sum of profile
segments read from a cumulative table of 1000 entries (computed once per parameter
value).  INST's profile changes with every gain, and its segment sums are
differences of the trigamma function.
"""
from __future__ import annotations

from functools import lru_cache
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, ranges
from ...measures import BPM, INSQ, INST, NERR8, NERR9, NERR10, NERR11, SDCG
from ...measures.cwl import CWL_DEPTH
from .kernels import kernel
from .table import RankedTable


class GainRows:
    """The retrieved documents with a positive scaled gain within ranks 0..last, per query.

    ``query``, ``rank`` (0-based, ascending within a query), ``gain`` in (0, 1],
    ``offsets`` per query, ``first`` (per query, the rank of its first row, or
    ``last`` when it has none) and ``next`` (per row, the rank of the next row of
    its query, or ``last``).
    """

    def __init__(self, measure: Measure, t: RankedTable, last: int):
        low, high = measure['min_rel'], measure['max_rel']
        within = t.rank <= last
        grade = np.clip(np.maximum(t.grade[within], 0), low, high)
        gain = (grade - low) / (high - low)
        positive = gain > 0
        self.nq, self.last = t.nq, last
        self.query = t.query[within][positive]
        self.rank = t.rank[within][positive]
        self.gain = gain[positive]
        self.offsets = offsets_of(self.query, self.nq)
        counts = np.diff(self.offsets)
        self.starts = self.offsets[:-1][counts > 0]
        self.ends = self.offsets[1:][counts > 0] - 1
        self.first = np.full(self.nq, last, dtype=np.int64)
        self.first[self.query[self.starts]] = self.rank[self.starts]
        self.next = np.empty_like(self.rank)
        self.next[:-1] = self.rank[1:]
        self.next[self.ends] = last

    def scan(self, values: np.ndarray, op: np.ufunc = np.add) -> np.ndarray:
        """Inclusive running ``op`` (add or multiply) of ``values`` within each query, in rank order.

        Sequential like cwl_eval's cumsum (bit for bit: BPM compares the running gain with
        T), vectorised across queries: one step per position within a query (at most 1000).
        """
        out = np.array(values, dtype=np.float64)
        position = ranges(np.diff(self.offsets))
        if len(position) == 0:
            return out
        order = np.argsort(position, kind='stable')
        bounds = offsets_of(position[order], int(position.max()) + 1)
        for m in range(1, len(bounds) - 1):
            rows = order[bounds[m]:bounds[m + 1]]
            out[rows] = op(out[rows - 1], values[rows])
        return out

    def exclusive_product(self, factors: np.ndarray) -> np.ndarray:
        """Per row, the product of the ``factors`` of the earlier rows of its query (1 for the first)."""
        inclusive = self.scan(factors, np.multiply)
        out = np.empty_like(inclusive)
        out[1:] = inclusive[:-1]
        out[self.starts] = 1.0
        return out

    def total(self, values: np.ndarray) -> np.ndarray:
        return np.bincount(self.query, weights=values, minlength=self.nq)


def _last_rank(measure: Measure) -> int:
    """The deepest 0-based rank with weight: k - 1 for the truncated measures, 999 otherwise."""
    k = measure['cutoff'] if measure.definition.at_param == 'cutoff' else None
    return min(k, CWL_DEPTH) - 1 if isinstance(k, int) else CWL_DEPTH - 1


@lru_cache(maxsize=64)
def _profile(name: str, value: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(profile(i), sum_{j<=i} profile(j)) for ranks i = 0..999 (read-only)."""
    i = np.arange(CWL_DEPTH, dtype=np.float64)
    base: np.ndarray
    if name == 'flat':
        base = np.ones(CWL_DEPTH)
    elif name == 'reciprocal':                       # NERR9: prod_{j<i} (j+1)/(j+2) = 1/(i+1)
        base = 1.0 / (i + 1.0)
    elif name == 'geometric':                        # NERR10: p^i
        base = np.cumprod(np.concatenate(([1.0], np.full(CWL_DEPTH - 1, value))))
    elif name == 'insq':                             # INSQ, NERR11: prod_{j<i} ((j+2T)/(j+1+2T))^2
        base = (2.0 * value / (i + 2.0 * value)) ** 2
    elif name == 'log2':                             # SDCG: prod_{j<i} log(j+2)/log(j+3) = 1/log2(i+2)
        base = np.log(2.0) / np.log(i + 2.0)
    else:  # pragma: no cover
        raise ValueError(name)
    cumulative = np.cumsum(base)
    base.flags.writeable = cumulative.flags.writeable = False
    return base, cumulative


def _static(rows: GainRows, base: np.ndarray, cumulative: np.ndarray) -> np.ndarray:
    """EU of a measure whose continuation ignores the gains: sum A(r) g / sum_{i<=last} A(i)."""
    return cast(np.ndarray, rows.total(base[rows.rank] * rows.gain) / cumulative[rows.last])


def _satisfaction(rows: GainRows, base: np.ndarray, cumulative: np.ndarray) -> np.ndarray:
    """EU when C(i) = profile ratio * (1 - g(i)): A(i) = profile(i) * prod over earlier gains of (1 - g).

    The product is constant between gain-bearing ranks, so Z adds, per segment, that
    product times the profile summed over the segment.
    """
    before = rows.exclusive_product(1.0 - rows.gain)            # prod_{earlier rows} (1 - g)
    after = before * (1.0 - rows.gain)
    numerator = rows.total(before * base[rows.rank] * rows.gain)
    z = cumulative[rows.first] + rows.total(after * (cumulative[rows.next] - cumulative[rows.rank]))
    return cast(np.ndarray, numerator / z)


@kernel(SDCG)
def scaled_dcg(measure: Measure, t: RankedTable) -> np.ndarray:
    rows = GainRows(measure, t, _last_rank(measure))
    return _static(rows, *_profile('log2'))


@kernel(INSQ)
def insq(measure: Measure, t: RankedTable) -> np.ndarray:
    rows = GainRows(measure, t, _last_rank(measure))
    return _static(rows, *_profile('insq', measure['T']))


@kernel(NERR8)
def nerr8(measure: Measure, t: RankedTable) -> np.ndarray:
    return _satisfaction(GainRows(measure, t, _last_rank(measure)), *_profile('flat'))


@kernel(NERR9)
def nerr9(measure: Measure, t: RankedTable) -> np.ndarray:
    return _satisfaction(GainRows(measure, t, _last_rank(measure)), *_profile('reciprocal'))


@kernel(NERR10)
def nerr10(measure: Measure, t: RankedTable) -> np.ndarray:
    return _satisfaction(GainRows(measure, t, _last_rank(measure)), *_profile('geometric', measure['p']))


@kernel(NERR11)
def nerr11(measure: Measure, t: RankedTable) -> np.ndarray:
    return _satisfaction(GainRows(measure, t, _last_rank(measure)), *_profile('insq', measure['T']))


@kernel(BPM)
def bejeweled_player(measure: Measure, t: RankedTable) -> np.ndarray:
    # C is 1 up to the stop rank s and 0 from it: the user reads s + 1 documents with weight 1/(s+1).
    rows = GainRows(measure, t, _last_rank(measure))
    cumulative = rows.scan(rows.gain)
    reached = cumulative >= measure['T']
    stop = np.full(rows.nq, rows.last, dtype=np.int64)
    np.minimum.at(stop, rows.query[reached], rows.rank[reached])
    read = rows.rank <= stop[rows.query]
    return cast(np.ndarray, rows.total(np.where(read, rows.gain, 0.0)) / (stop + 1.0))


@kernel(INST)
def inst(measure: Measure, t: RankedTable) -> np.ndarray:
    # With a = 2T - (gain so far), C(j) = ((j + a) / (j + 1 + a))^2 between gain-bearing ranks, so
    # A(i) = A(r) * ((r + a) / (i + a))^2 after a gain-bearing rank r, and before the first one A
    # is INSQ's profile.
    T = measure['T']
    rows = GainRows(measure, t, _last_rank(measure))
    base, cumulative = _profile('insq', T)
    a = 2.0 * T - rows.scan(rows.gain)
    with np.errstate(divide='ignore', invalid='ignore'):      # 0/0 only on a last row, never used
        step = ((rows.rank + a) / (rows.next + a)) ** 2            # A(next) / A(r)
    weight = base[rows.first][rows.query] * rows.exclusive_product(step)   # A(r)
    tail = _sum_inverse_squares(rows.rank + 1 + a, rows.next - rows.rank)
    z = cumulative[rows.first] + rows.total(weight * (rows.rank + a) ** 2 * tail)
    return cast(np.ndarray, rows.total(weight * rows.gain) / z)


def _sum_inverse_squares(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """sum_{i=0}^{n-1} 1 / (x + i)^2 for x > 0, as trigamma(x) - trigamma(x + n)."""
    return cast(np.ndarray, _trigamma(x) - _trigamma(x + n))


def _trigamma(x: np.ndarray) -> np.ndarray:
    """The trigamma function for x > 0: recurrence up to x >= 20, then its asymptotic series."""
    x = np.array(x, dtype=np.float64)
    total = np.zeros_like(x)
    while True:
        small = x < 20.0
        if not small.any():
            break
        total[small] += 1.0 / x[small] ** 2
        x[small] += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv * (1.0 + inv * (0.5 + inv * (1.0 / 6 - inv2 * (1.0 / 30 - inv2 * (
        1.0 / 42 - inv2 * (1.0 / 30 - inv2 * 5.0 / 66))))))
    return total + series
