"""ERR (Chapelle et al. 2009, as gdeval computes it) and nERR.

The probability of reaching rank i is the product of (1 - R_j) over the documents above it.  Grades
are small integers, so that product is computed exactly as prod_g (1 - R_g)^(n_g), with n_g the
number of documents of grade g above rank i: integer counts, no running product over the ranking.
"""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, ranges, run_starts, running_count, running_sum
from ...measures import ERR, nERR
from .kernels import cutoff_of, kernel, safe_divide
from .table import QrelsIndex, RankedTable
from .ties import expects


def stop_probability(grade: np.ndarray, max_rel: int) -> np.ndarray:
    """R(g) = (2^g - 1) / 2^max_rel, grades clipped to [0, max_rel]."""
    return cast(np.ndarray, (np.exp2(np.clip(grade, 0, max_rel)) - 1.0) / 2.0 ** max_rel)


def expected_reciprocal_rank(query: np.ndarray, position: np.ndarray, grade: np.ndarray, nq: int,
                             max_rel: int) -> np.ndarray:
    """Per query, ERR of rows sorted by (query, position) (0-based positions, rows of grade <= 0 allowed)."""
    keep = grade > 0
    query, position, grade = query[keep], position[keep], np.minimum(grade[keep], max_rel)
    stop = stop_probability(grade, max_rel)
    return np.bincount(query, weights=stop * reach(query, grade, nq, max_rel) / (position + 1.0), minlength=nq)


def reach(query: np.ndarray, grade: np.ndarray, nq: int, max_rel: int) -> np.ndarray:
    """For each row (rows of grade 1..max_rel sorted by query and rank), the chance of passing every row of
    its query above it: prod_g (1 - R_g)^(rows of grade g above), multiplied grade by grade."""
    offsets = offsets_of(query, nq)
    out = np.ones(len(query))
    for g in np.unique(grade):
        above = running_count(grade == g, query, offsets) - (grade == g)
        out *= (1.0 - stop_probability(g, max_rel)) ** above
    return out


def expected_err(t: RankedTable, max_rel: int, depth: float) -> np.ndarray:
    """Per query, the expected ERR (Chapelle et al.) over the orders of tied documents.

    ERR sums, over ranks r, ``R_r / r`` times the chance ``prod_{i<r} (1 - R_i)`` of reaching r.  A tie group
    of n documents starting at rank s + 1, of which v have R > 0 (the set V) and u = n - v have R = 0, is
    reached with the chance ``B`` of passing every group above it; the document at its j-th rank is x with
    chance 1/n, and the j - 1 above it are a uniform (j-1)-subset of the others, i of them in V with the
    hypergeometric chance ``H(i, j) = C(v-1, i) C(u, j-1-i) / C(n-1, j-1)`` and then each i-subset of
    V minus x alike, so the group adds

        B / n * sum_{i=0}^{v-1} T_i * W_i,   W_i = sum_{j=i+1}^{i+1+u} H(i, j) / (s + j)

    (ranks beyond the cutoff left out), with ``T_i = sum_{x in V} R_x m_i(V - x)`` and ``m_i(S)`` the mean of
    ``prod (1 - R_y)`` over the i-subsets of S (an elementary symmetric polynomial over its number of terms).
    Every factor is a mean or a probability, so nothing overflows at any group size: ``m_i`` grows one
    document at a time by convex combinations (:func:`_stopping_sums`), and ``log H(i, j)`` is a running sum
    of logarithms of ratios of small integers, first down i at j = i + 1, then along j (:func:`_group_sums`),
    never a difference of large log-factorials.  A group of one document adds ``R B / (s + 1)`` as in
    trec_eval's order.
    """
    group, start, size = t.tie_groups(False)
    grade = np.minimum(t.grade, max_rel)
    keep = (grade > 0) & (start < depth)
    group, query, grade, start, size = group[keep], t.query[keep], grade[keep], start[keep], size[keep]
    stop = stop_probability(grade, max_rel)
    first = np.flatnonzero(run_starts(group))
    v = np.diff(np.append(first, len(group)))
    passed = reach(query, grade, t.nq, max_rel)[first]    # B: every positive document of the groups above
    s, n, q = start[first], size[first], query[first]
    out = np.zeros(t.nq)
    single = n == 1
    np.add.at(out, q[single], stop[first[single]] * passed[single] / (s[single] + 1.0))
    several = np.flatnonzero(~single)
    if len(several):
        terms = _group_sums(stop, first[several], v[several], s[several], n[several], depth)
        np.add.at(out, q[several], passed[several] / n[several] * terms)
    return out


def _group_sums(stop: np.ndarray, first: np.ndarray, v: np.ndarray, s: np.ndarray, n: np.ndarray,
                depth: float) -> np.ndarray:
    """``sum_i T_i W_i`` of each tie group of :func:`expected_err` (its positive documents are the rows
    ``first .. first + v - 1`` of ``stop``); only i below the group's ranks within the cutoff can count."""
    ranks = np.clip(np.minimum(n, depth - s), 0, None).astype(np.int64)
    width = np.minimum(v, ranks)                           # i = 0 .. width-1 of each group
    t_i = _stopping_sums(stop, first, v, width)
    owner = np.repeat(np.arange(len(first)), width)
    i = ranges(width)
    n_i, s_i, u_i = n[owner], s[owner], (n - v)[owner]
    # log H(i, i + 1) = log prod_{h < i} (v - 1 - h) / (n - 1 - h), a running sum down i within each group
    down = np.zeros(len(i))
    np.log1p(-u_i / (n_i - i), out=down, where=i > 0)
    # then j = i + 1 + w for w = 0 .. min(u, ranks - 1 - i), a running sum along w from log H(i, i + 1)
    count = np.minimum(u_i + 1, ranks[owner] - i)
    w = ranges(count)
    pair = np.repeat(np.arange(len(i)), count)
    step = running_sum(down, np.append(0, np.cumsum(width)))[pair]
    ii, uu, nn, later = i[pair], u_i[pair], n_i[pair], w > 0
    ii, uu, nn, wl = ii[later], uu[later], nn[later], w[later]
    # H(i, j + 1) / H(i, j) = (u - w + 1)(i + w) / (w (n - i - w)) at j = i + 1 + w: products of integers
    step[later] = np.log((uu - wl + 1.0) * (ii + wl) / (wl * (nn - ii - wl + 0.0)))
    chance = np.exp(running_sum(step, np.append(0, np.cumsum(count))))
    weights = np.bincount(pair, weights=chance / (s_i[pair] + i[pair] + w + 1.0), minlength=len(i))
    return np.bincount(owner, weights=t_i * weights, minlength=len(first))


def _stopping_sums(stop: np.ndarray, first: np.ndarray, v: np.ndarray, width: np.ndarray) -> np.ndarray:
    """``T_i = sum_{x in V} R_x m_i(V - x)`` of :func:`expected_err` for i = 0 .. width-1 of each group, the
    groups one after the other.  Adding a document z (R = r, 1 - R = q) to m documents, the means ``m_i``
    of the whole set and the sums ``c_i`` of ``R_x m_i(others)`` become

        m'_i = ((m + 1 - i) m_i + i q m_{i-1}) / (m + 1),   c'_i = ((m - i) c_i + i q c_{i-1}) / m + r m_i

    (nonnegative terms, no subtraction, no growth: ``m_i <= 1``, ``c_i <= m``); ``c_i`` needs ``m_h`` and
    ``c_h`` for h <= i only, so each group keeps its first width of them.  A group whose positive documents
    share one grade (every group, with binary judgments) has ``T_i = v r q^i`` at once."""
    out = np.zeros(int(width.sum()))
    offsets = np.cumsum(width) - width
    chances = stop[np.repeat(first, v) + ranges(v)]        # each group's, one group after another
    alike = np.minimum.reduceat(chances, np.cumsum(v) - v) == np.maximum.reduceat(chances, np.cumsum(v) - v)
    one = np.repeat(np.flatnonzero(alike), width[alike])
    i = ranges(width[alike])
    r = stop[first[one]]
    out[offsets[one] + i] = v[one] * r * (1.0 - r) ** i
    buckets = np.ceil(np.log2(np.maximum(width, 1))).astype(np.int64)
    for bucket in np.unique(buckets[(width > 0) & ~alike]):  # groups of like width, padded to 2^bucket
        at = np.flatnonzero((buckets == bucket) & (width > 0) & ~alike)
        at = at[np.argsort(-v[at], kind='stable')]         # most documents first: the live groups lead
        columns = int(width[at].max())
        docs = np.zeros((len(at), int(v[at].max())))       # each group's stopping chances, left-aligned
        docs[np.repeat(np.arange(len(at)), v[at]), ranges(v[at])] = stop[np.repeat(first[at], v[at]) + ranges(v[at])]
        live_counts = np.searchsorted(-v[at], -np.arange(docs.shape[1]), side='left')   # groups with v > m
        means = np.zeros((len(at), columns + 1))           # column 0 stays 0: m_{-1}, c_{-1}
        means[:, 1] = 1.0
        sums = np.zeros((len(at), columns + 1))
        i = np.arange(columns, dtype=np.float64)
        for m in range(docs.shape[1]):                     # one positive document of each group at a time
            live = slice(0, int(live_counts[m]))
            r = docs[live, m, None]
            keep, shift = np.maximum(m - i, 0) / max(m, 1), i / max(m, 1)
            sums[live, 1:] = keep * sums[live, 1:] + shift * (1.0 - r) * sums[live, :-1] + r * means[live, 1:]
            means[live, 1:] = ((m + 1 - i).clip(0) * means[live, 1:] + i * (1.0 - r) * means[live, :-1]) / (m + 1)
        kept = ranges(width[at])
        out[np.repeat(offsets[at], width[at]) + kept] = sums[np.repeat(np.arange(len(at)), width[at]), kept + 1]
    return out


def ideal_err(index: QrelsIndex, max_rel: int, cutoff: float) -> np.ndarray:
    """Per query, the ERR of the judged documents sorted by grade descending, cut at ``cutoff``."""
    def compute() -> np.ndarray:
        q, position, g = index.ideal(index.grades, cutoff)
        return expected_reciprocal_rank(q, position, g, index.nq, max_rel)
    return index.cached(('ideal_err', max_rel, cutoff), compute)


def _err(measure: Measure, t: RankedTable) -> np.ndarray:
    if expects(measure):                                   # ERR and nERR share it
        return t.memo(('expected_err', measure['max_rel'], cutoff_of(measure)),
                      lambda: expected_err(t, measure['max_rel'], cutoff_of(measure)))
    within = t.rank < cutoff_of(measure)
    return expected_reciprocal_rank(t.query[within], t.rank[within], t.grade[within], t.nq, measure['max_rel'])


@kernel(ERR)
def err(measure: Measure, t: RankedTable) -> np.ndarray:
    return _err(measure, t)


@kernel(nERR)
def normalised_err(measure: Measure, t: RankedTable) -> np.ndarray:
    return safe_divide(_err(measure, t), ideal_err(t.index, measure['max_rel'], cutoff_of(measure)))
