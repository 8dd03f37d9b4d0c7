"""G (and binG = G(rel=r)): each gain discounted by log2(2 + the ideal's cost so far - the gain so far).

The ideal's cost after i ranks is the running sum of max(ideal gain, 1) over its first i positions
(1 per rank beyond it), summed per query as trec_eval sums it; the logarithms are the C library's, as
m_G.c's (:mod:`.libm`).
"""
import numpy as np

from ...algebra.measure import Measure
from ...algebra.params import NOT_PROVIDED
from ...data.segments import running_sum
from ...measures import G
from .kernels import kernel, safe_divide
from .libm import log2
from .ndcg import gain_of, gains_of, ideal_curve, ideal_ranking, ranking_curve, value_at
from .table import RankedTable


@kernel(G)
def normalized_gain(measure: Measure, t: RankedTable) -> np.ndarray:
    rel, gains = measure['rel'], gains_of(measure)

    def gain(grades: np.ndarray) -> np.ndarray:
        return (grades >= rel).astype(np.float64) if rel is not NOT_PROVIDED else gain_of(grades, gains)

    def ideal() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ranking = ideal_ranking(t.index, gains) if rel is NOT_PROVIDED else t.index.ideal(gain(t.index.grades), np.inf)
        offsets, ideal_gain, _ = ideal_curve(ranking, t.nq)
        ideal_query = np.repeat(np.arange(t.nq), np.diff(offsets))
        return offsets, running_sum(np.maximum(ideal_gain, 1.0), offsets), \
            np.bincount(ideal_query, weights=ideal_gain, minlength=t.nq)
    ideal_offsets, cost_at, ideal_total = t.index.cached(('normalized_gain', rel, gains), ideal)
    query, rank, g, offsets, _ = ranking_curve(t, gain, measure['judged_only'])
    collected = running_sum(g, offsets)
    within = np.minimum(rank + 1, np.diff(ideal_offsets)[query])
    cost = value_at(cost_at, ideal_offsets, query, within) + (rank + 1 - within)
    some = g != 0
    terms = g[some] / log2((2.0 + cost[some]) - collected[some])
    return safe_divide(np.bincount(query[some], weights=terms, minlength=t.nq), ideal_total)
