"""Compat: rank-biased overlap of the ranking with the ideal ranking (Clarke et al. 2021).

A document retrieved at rank a and placed at b in the ideal ranking is in both prefixes of every
depth i >= max(a, b), so RBO's sum over depths becomes a sum over the relevant retrieved documents of
sum_{i = max(a, b)}^{D-1} p^i / (i + 1): a difference of one prefix-sum array, shared by all queries.
"""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import ranges
from ...measures import Compat
from .kernels import kernel, safe_divide
from .table import QrelsIndex, RankedTable


def _ideal_grade_start(index: QrelsIndex) -> tuple[np.ndarray, np.ndarray]:
    """(grades present, sorted keys): per query, where each grade's block starts in the ideal ranking."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        positive = index.grades > 0
        levels, code = np.unique(index.grades[positive], return_inverse=True)
        keys = np.sort(index.query[positive] * len(levels) + (len(levels) - 1 - code))
        return levels, keys
    return index.cached(('ideal_grade_start',), compute)


def ideal_positions(t: RankedTable, relevant: np.ndarray) -> np.ndarray:
    """0-based position in the ideal ranking of each relevant retrieved row.

    Ideal: grades descending; within a grade the retrieved documents in rank order, then the others.
    """
    levels, keys = _ideal_grade_start(t.index)
    q, g, rank = t.query[relevant], t.grade[relevant], t.rank[relevant]
    code = len(levels) - 1 - np.searchsorted(levels, g)
    higher = np.searchsorted(keys, q * len(levels) + code) - np.searchsorted(keys, q * len(levels))
    order = np.lexsort((rank, g, q))                        # rows of one (query, grade) in rank order
    same = q[order] * len(levels) + code[order]
    starts = np.flatnonzero(np.concatenate(([True], same[1:] != same[:-1])))
    sizes = np.diff(np.append(starts, len(same)))
    same_above = np.empty(len(order), dtype=np.int64)
    same_above[order] = ranges(sizes)
    return cast(np.ndarray, higher + same_above)


@kernel(Compat)
def compat(measure: Measure, t: RankedTable) -> np.ndarray:
    p = measure['p']
    index = t.index
    # the ideal's length: the documents graded above 0 (real grades in (0, 1) included)
    ideal_len = index.cached(('ideal_length',), lambda: np.bincount(index.query[index.grades > 0],
                                                                    minlength=index.nq).astype(np.int64))
    depth = np.maximum(t.n_ret, ideal_len)
    i = np.arange(int(depth.max(initial=0)), dtype=np.float64)
    weight = np.power(p, i)
    overlap_tail = np.concatenate(([0.0], np.cumsum(weight / (i + 1.0))))    # H[j] = sum_{i<j} p^i/(i+1)
    weight_sum = np.concatenate(([0.0], np.cumsum(weight)))                 # W[j] = sum_{i<j} p^i
    relevant = t.grade > 0
    both = np.maximum(t.rank[relevant], ideal_positions(t, relevant))
    score = t.total(relevant, overlap_tail[depth[t.query[relevant]]] - overlap_tail[both])
    if measure['normalize']:
        # RBO(ideal, ideal): min(i + 1, L) documents in common at depth i
        best = weight_sum[ideal_len] + ideal_len * (overlap_tail[depth] - overlap_tail[ideal_len])
        return safe_divide(score, best)
    return safe_divide(score, weight_sum[depth])
