"""nDCG and DCG with log2 discount: linear gains (trec_eval ndcg / ndcg_cut) or exponential (gdeval, Burges);
trec_eval's averages of the nDCG curve, nDCGRel and RnDCG.

Every kernel here sums DCG as trec_eval does (m_ndcg.c, m_ndcg_cut.c): query by query from the top, each
term the gain divided by log2(rank + 1) (:func:`discounted`, the C library's log2; a product with
1 / log2(rank + 1) can differ in the last bit), and nDCG the DCG divided by the ideal DCG summed the same
way, so that the values are trec_eval's to the last bit.  Only the expectation over tied documents
(``ties='expected'``) weighs each gain by the mean of 1 / log2(rank + 1) over its group's ranks.
"""
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ...algebra.measure import Measure
from ...data.array_library import NUMPY, Library
from ...data.segments import offsets_of, running_sum
from ...errors import MeasureError
from ...measures import DCG, IDCG, RnDCG, nDCG, nDCGRel
from .kernels import cutoff_of, kernel, safe_divide
from .libm import log2_rank
from .table import QrelsIndex, RankedTable
from .ties import expects, sum_within

#: The greatest exponent of an exponential gain (2^960 - 1, as :data:`~irmetrics.constraints.MAX_GAIN`).
MAX_EXP_GAIN = 960
#: A measure's gain map: (grade, gain) pairs sorted by grade (:class:`~irmetrics.constraints.GainMap`).
Gains = tuple[tuple[int, float], ...]


def gain_of(grades: np.ndarray, gains: Gains | None, exp: bool = False) -> np.ndarray:
    """Gain of each grade: the grade itself, or ``gains[grade]``; negative grades gain 0.

    With ``exp`` the gain is ``2^gain - 1`` (gdeval, Burges et al.), still 0 for negative grades; a gain
    whose power would pass :data:`MAX_EXP_GAIN` is a :class:`MeasureError` (never an infinite sum).
    """
    out = np.maximum(grades, 0).astype(np.float64)
    for grade, gain in gains or ():
        out[grades == grade] = gain
    if not exp:
        return cast(np.ndarray, out)
    if len(out) and out.max() > MAX_EXP_GAIN:
        raise MeasureError(f'an exponential gain of {out.max():g} (2^{out.max():g} - 1) is beyond a double\'s range: '
                           f'give gains= of at most {MAX_EXP_GAIN:g}, or the linear gains (dcg=\'log2\')')
    return cast(np.ndarray, np.exp2(out) - 1.0)


def discount(rank: np.ndarray) -> np.ndarray:
    """1 / log2(rank + 2) for 0-based ranks (the weights averaged over a tie group)."""
    return 1.0 / log2_rank(rank)


def discounted(gain: Any, rank: np.ndarray, lib: Library = NUMPY) -> Any:
    """gain / log2(rank + 2) for 0-based ranks (on the host): a term of DCG as trec_eval computes it (the C
    library's log2, :mod:`.libm`); ``gain`` an array of ``lib`` (the hit kernels': numpy or torch)."""
    return gain / lib.from_host(log2_rank(rank))


def ideal_ranking(index: QrelsIndex, gains: Gains | None, exp: bool = False) -> tuple[np.ndarray, np.ndarray,
                                                                                        np.ndarray]:
    """The ideal ranking by gain (:meth:`QrelsIndex.ideal`), sorted once for every cutoff."""
    return index.cached(('ideal_ranking', gains, exp), lambda: index.ideal(gain_of(index.grades, gains, exp), np.inf))


def ideal_dcg(index: QrelsIndex, gains: Gains | None, cutoff: float, exp: bool = False) -> np.ndarray:
    """Per query, the DCG of the judged documents sorted by gain, cut at ``cutoff``."""
    def compute() -> np.ndarray:
        q, position, g = ideal_ranking(index, gains, exp)
        within = position < cutoff
        return np.bincount(q[within], weights=discounted(g[within], position[within]), minlength=index.nq)
    return index.cached(('ideal_dcg', gains, cutoff, exp), compute)


def dcg_form(measure: Measure) -> tuple[Gains | None, bool]:
    gains = measure['gains'] if isinstance(measure['gains'], tuple) else None
    return gains, measure['dcg'] == 'exp-log2'


def _dcg(measure: Measure, t: RankedTable) -> np.ndarray:
    """Per query, DCG at the cutoff: the terms summed from the top (rows of a query are in ranked order)."""
    gains, exp = dcg_form(measure)
    judged_only, cutoff = measure['judged_only'], cutoff_of(measure)
    rank = t.rank_in(judged_only)
    within = (rank >= 0) & (rank < cutoff)
    if not expects(measure):
        return t.total(within, discounted(gain_of(t.grade[within], gains, exp), rank[within]))
    # a document tied with no other is at its rank in every order: its term is trec_eval's, so that a
    # ranking without ties gives trec_eval's value to the bit
    size = t.tie_groups(judged_only)[2]
    alone, tied = within & (size == 1), (rank >= 0) & (size > 1)
    return cast(np.ndarray, t.total(alone, discounted(gain_of(t.grade[alone], gains, exp), rank[alone]))
                + sum_within(t, tied, gain_of(t.grade[tied], gains, exp), discount, cutoff, judged_only, True))


@kernel(nDCG)
def ndcg(measure: Measure, t: RankedTable) -> np.ndarray:
    gains, exp = dcg_form(measure)
    return safe_divide(_dcg(measure, t), ideal_dcg(t.index, gains, cutoff_of(measure), exp))


@kernel(DCG)
def dcg(measure: Measure, t: RankedTable) -> np.ndarray:
    return _dcg(measure, t)


@kernel(IDCG)
def idcg(measure: Measure, t: RankedTable) -> np.ndarray:
    gains, exp = dcg_form(measure)
    return ideal_dcg(t.index, gains, cutoff_of(measure), exp)


def gains_of(measure: Measure) -> Gains | None:
    """The measure's gain map, or None for the grades themselves."""
    return measure['gains'] if isinstance(measure['gains'], tuple) else None


def value_at(prefix: np.ndarray, offsets: np.ndarray, query: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """``prefix`` (a running sum per query, rows from ``offsets``) after ``depth`` rows of ``query``; 0 at depth 0."""
    out = np.zeros(len(query))
    some = depth > 0
    out[some] = prefix[offsets[query[some]] + depth[some] - 1]
    return out


def ideal_curve(ideal: tuple[np.ndarray, np.ndarray, np.ndarray], nq: int) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray]:
    """Of an ideal ranking (query, position, gain): per query offsets into it, and per position the gain
    and the running DCG."""
    q, position, gain = ideal
    offsets = offsets_of(q, nq)
    return offsets, gain, running_sum(discounted(gain, position), offsets)


def ranking_curve(t: RankedTable, gain_of_grades: Callable[[np.ndarray], np.ndarray],
                  judged_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The judged rows of the ranking trec_eval sees (unjudged documents gain 0 and need none): query,
    0-based rank, gain, per-query offsets and the running DCG."""
    rank = t.rank_in(judged_only)
    keep = rank >= 0
    query, rank = t.query[keep], rank[keep]
    gain = gain_of_grades(t.grade[keep])
    offsets = offsets_of(query, t.nq)
    return query, rank, gain, offsets, running_sum(discounted(gain, rank), offsets)


def _curves(measure: Measure, t: RankedTable) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    gains = gains_of(measure)
    ideal = t.index.cached(('ideal_curve', gains), lambda: ideal_curve(ideal_ranking(t.index, gains), t.nq))
    return ideal, ranking_curve(t, lambda g: gain_of(g, gains), measure['judged_only'])


@kernel(nDCGRel)
def ndcg_at_relevant(measure: Measure, t: RankedTable) -> np.ndarray:
    (ideal_offsets, _, ideal_dcg_at), (query, rank, gain, offsets, dcg_at) = _curves(measure, t)
    num_rel = np.diff(ideal_offsets)                      # judged documents of positive gain
    positive = gain > 0
    q = query[positive]
    idcg = value_at(ideal_dcg_at, ideal_offsets, q, np.minimum(rank[positive] + 1, num_rel[q]))
    total = np.bincount(q, weights=dcg_at[positive] / idcg, minlength=t.nq)
    missed = num_rel - np.bincount(q, minlength=t.nq)
    final_dcg = value_at(dcg_at, offsets, np.arange(t.nq), np.diff(offsets))
    full_ideal = value_at(ideal_dcg_at, ideal_offsets, np.arange(t.nq), num_rel)
    with np.errstate(divide='ignore', invalid='ignore'):
        total = total + missed * final_dcg / full_ideal      # 0/0 (no positive gain) is NaN, then 0 below
        return np.where(total > 0, total / num_rel, 0.0)


@kernel(RnDCG)
def ndcg_at_r_levels(measure: Measure, t: RankedTable) -> np.ndarray:
    (ideal_offsets, ideal_gain, ideal_dcg_at), (query, rank, _, offsets, dcg_at) = _curves(measure, t)
    num_pos = np.diff(ideal_offsets)
    ideal_q = np.repeat(np.arange(t.nq), num_pos)
    after = np.append(ideal_gain[1:], 0.0)
    after[ideal_offsets[1:][num_pos > 0] - 1] = 0.0       # beyond each ideal ranking the gain is 0
    level_ends = np.flatnonzero(ideal_gain != after)       # depth b = position + 1 ends a gain level
    n = t.ret_count(measure['judged_only'])
    tail = np.flatnonzero((num_pos > 0) & (n >= num_pos + 2))   # the ranking outlasts the ideal: nDCG@n
    point_q = np.concatenate((ideal_q[level_ends], tail))
    depth = np.concatenate((level_ends - ideal_offsets[ideal_q[level_ends]] + 1, n[tail]))
    idcg = np.concatenate((ideal_dcg_at[level_ends], ideal_dcg_at[ideal_offsets[tail + 1] - 1]))
    order = np.lexsort((depth, point_q))
    point_q, depth, idcg = point_q[order], depth[order], idcg[order]
    # DCG@b: the running DCG at the last judged row ranked above b
    span = int(max(n.max(initial=0), num_pos.max(initial=0))) + 2
    above = np.searchsorted(query * span + rank, point_q * span + depth) - offsets[point_q]
    dcg = value_at(dcg_at, offsets, point_q, above)
    total = np.bincount(point_q, weights=dcg / idcg, minlength=t.nq)
    with np.errstate(divide='ignore', invalid='ignore'):
        out = total / np.bincount(point_q, minlength=t.nq)   # no point: trec_eval's 0/0
    out[t.index.num_rel(measure['rel']) == 0] = 0.0
    return out
