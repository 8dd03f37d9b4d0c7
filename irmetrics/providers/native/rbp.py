"""RBP and its residual: geometric weights (1 - p) p^(i-1) over the ranks."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...algebra.params import NOT_PROVIDED
from ...data.segments import ranges
from ...measures import RBP, RBPResidual
from .kernels import cutoff_of, kernel
from .ndcg import Gains, gain_of, gains_of
from .table import QrelsIndex, RankedTable
from .ties import expects, sum_within


def query_gain_range(index: QrelsIndex, gains: Gains | None) -> tuple[np.ndarray, np.ndarray]:
    """Per query, the least and greatest gain among the grades 0 to its highest grade and the grades
    ``gains`` lists (trec_eval 10's rbp scales by these); NaN for a query with neither."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        top = np.full(index.nq, -1, dtype=index.grades.dtype)
        judged = index.grades >= 0
        np.maximum.at(top, index.query[judged], index.grades[judged])
        listed = dict(gains or ())
        low_free, high_free = np.zeros(index.nq, dtype=np.int64), top.copy()   # grades with their own gain
        for grade in sorted(listed):
            low_free += low_free == grade
        for grade in sorted(listed, reverse=True):
            high_free -= high_free == grade
        has_free = low_free <= top
        low = np.where(has_free, low_free, np.inf).astype(np.float64)
        high = np.where(has_free, high_free, -np.inf).astype(np.float64)
        if listed:
            low, high = np.minimum(low, min(listed.values())), np.maximum(high, max(listed.values()))
        return np.where(np.isinf(low), np.nan, low), np.where(np.isinf(high), np.nan, high)
    return index.cached(('query_gain_range', gains), compute)


def rbp_gain(measure: Measure, t: RankedTable, rows: np.ndarray) -> np.ndarray:
    """Gains of the table rows ``rows``: binary (rel), graded (gains), scaled by max_rel (a grade, or
    each query's own range); negative grades gain 0."""
    rel, max_rel, gains = measure['rel'], measure['max_rel'], gains_of(measure)
    grade = t.grade[rows]
    if rel is not NOT_PROVIDED:
        return cast(np.ndarray, (grade >= rel).astype(np.float64))
    gain = gain_of(grade, gains)
    if max_rel == 'query':
        low, high = (r[t.query[rows]] for r in query_gain_range(t.index, gains))
        scale = (grade >= 0) & (high > 1)
        with np.errstate(divide='ignore', invalid='ignore'):
            gain[scale] = (gain[scale] - low[scale]) / (high[scale] - low[scale])
    elif max_rel is not NOT_PROVIDED:
        gain = np.minimum(gain, max_rel) / max_rel
    return gain


def running_powers(p: float, n: int) -> np.ndarray:
    """``p**i`` for ``i`` in ``0 .. n - 1`` as a running product (``p * p * ...``, left to right), the way
    m_rbp.c computes them: a power computed directly can differ in its last bit."""
    factors = np.full(max(n, 1), p, dtype=np.float64)
    factors[0] = 1.0
    return np.cumprod(factors)


@kernel(RBP)
def rank_biased_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    """m_rbp.c's order: the sum over ranks of gain * p**i (p**i a running product), then times (1 - p)."""
    p = measure['p']
    ranked = t.rank_in(measure['judged_only']) >= 0

    def powers(rank: np.ndarray) -> np.ndarray:
        return cast(np.ndarray, running_powers(p, int(rank.max(initial=0)) + 1)[rank])
    return cast(np.ndarray, (1.0 - p) * sum_within(t, ranked, rbp_gain(measure, t, np.flatnonzero(ranked)), powers,
                                                   cutoff_of(measure), measure['judged_only'], expects(measure)))


@kernel(RBPResidual)
def rbp_residual(measure: Measure, t: RankedTable) -> np.ndarray:
    """m_rbp_resid.c's order: p**d (a running product over the d ranks, d = min(k, n)) plus (1 - p) times the
    sum of p**i over the unjudged ranks i, added from the top; the weight of what is not on a judged rank."""
    p, k, judged_only = measure['p'], cutoff_of(measure), measure['judged_only']
    depth = np.minimum(t.ret_count(judged_only), k).astype(np.int64)
    powers = running_powers(p, int(depth.max(initial=0)) + 1)
    # every rank above the depth, query by query, weighing p**i where the document is unjudged (the table
    # holds only the documents of the qrels) and 0 where it is judged: adding 0 changes no sum
    rank = t.rank_in(judged_only)
    judged = (t.grade >= 0) & (rank >= 0) & (rank < depth[t.query])
    weight = powers[ranges(depth)]
    weight[(np.cumsum(depth) - depth)[t.query[judged]] + rank[judged]] = 0.0
    residual = powers[depth] + (1.0 - p) * np.bincount(np.repeat(np.arange(t.nq), depth), weights=weight,
                                                       minlength=t.nq)
    if measure['tail'] == 'if_unjudged':
        return np.where(depth > t.count(judged), residual, 0.0)
    return cast(np.ndarray, residual)
