"""Measures over tied documents: trec_eval's order, or the exact expectation over every order (``ties='expected'``).

Documents with equal scores form a tie group of ``n`` consecutive ranks starting at ``s`` (0-based); with
``ties='expected'`` every order of a group is equally likely and independent of the other groups, so each
document of a group lies at each of its ranks with probability 1/n (McSherry and Najork, "Computing
information retrieval performance measures efficiently in the presence of tied scores", ECIR 2008).
Nothing here enumerates orders:

* a measure linear in the ranking, ``sum over documents of value(d) * weight(rank(d))`` (P, R, Hits,
  Rprec, F1 at a depth, DCG, nDCG, RBP, Judged), has the expectation ``sum over documents of value(d) *
  mean weight of the ranks of d's group``: :func:`count_within` and :func:`sum_within`;
* AP: a relevant document at the j-th rank of a group (j = 1..n) with r relevant documents of the group and c
  relevant documents ranked above the group has, in expectation, ``1 + c + (j - 1)(r - 1)/(n - 1)``
  relevant documents at or above it, and is there with probability r/n, so the group adds
  ``sum_j (r/n) (c + 1 + (j - 1)(r - 1)/(n - 1)) / (s + j)`` to the sum of precisions (:func:`expected_ap`);
* RR: the first relevant document is in the first group holding one; it is at the group's j-th rank with
  probability ``C(n - j, r - 1) / C(n, r)`` (:func:`expected_rr`);
* Success@k: one minus the probability that the group across rank k keeps all its relevant documents
  below k, ``C(n - m, r) / C(n, r)`` for m of its ranks above k, when no relevant document is certainly
  above k (:func:`expected_success`).

A ranking without ties gives trec_eval's values, to the bit: every group is one document at its rank.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, ranges, running_count
from .table import RankedTable


def expects(measure: Measure) -> bool:
    """Whether ``measure`` asks for the expectation over the orders of tied documents."""
    return bool(measure['ties'] == 'expected')


def count_within(t: RankedTable, mask: np.ndarray, depth: float | np.ndarray, judged_only: bool,
                 expected: bool) -> np.ndarray:
    """Per query, the rows selected by ``mask`` ranked above ``depth`` (a number, or one per row): counted in
    trec_eval's order, or expected over the orders of tied documents (each row counts the share of its
    group's ranks above ``depth``)."""
    rank = t.rank_in(judged_only)
    if not expected:
        return t.count(mask & (rank >= 0) & (rank < depth))
    _, start, size = t.tie_groups(judged_only)
    rows = mask & (size > 0)
    if np.ndim(depth):
        depth = np.asarray(depth)[rows]
    with np.errstate(invalid='ignore'):                       # infinite depth: every rank counts
        share = np.where(np.isinf(depth), 1.0, np.clip(depth - start[rows], 0, size[rows]) / size[rows])
    return t.total(rows, share)


def sum_within(t: RankedTable, mask: np.ndarray, values: np.ndarray, weight: Callable[[np.ndarray], np.ndarray],
               depth: float, judged_only: bool, expected: bool) -> np.ndarray:
    """Per query, the sum over the rows selected by ``mask`` ranked above ``depth`` of ``values`` (one per
    selected row) times ``weight(rank)``; with ``expected``, each row's weight is the mean weight of its
    group's ranks (those above ``depth``; the others weigh 0)."""
    rank = t.rank_in(judged_only)
    if not expected:
        within = (rank >= 0) & (rank < depth)
        return t.total(mask & within, values[within[mask]] * weight(rank[mask & within]))
    group, start, size = t.tie_groups(judged_only)
    rows = np.flatnonzero(mask)
    present = size[rows] > 0
    rows, values = rows[present], values[present]
    head = _heads(group[rows])
    number = np.cumsum(head) - 1
    s, n = start[rows][head], size[rows][head]
    ranks_within = np.clip(np.minimum(n, depth - s), 0, None).astype(np.int64)
    positions = np.repeat(s, ranks_within) + ranges(ranks_within)
    sums = np.bincount(np.repeat(np.arange(len(s)), ranks_within), weights=weight(positions), minlength=len(s))
    selected = np.zeros(len(mask), dtype=bool)
    selected[rows] = True
    return t.total(selected, values * (sums / n)[number])


def expected_ap(t: RankedTable, rel: int, depth: float, judged_only: bool) -> np.ndarray:
    """Per query, the expected sum of the precisions at the relevant documents ranked above ``depth``
    (AP times its divisor; see the module docstring)."""
    s, n, r, c, query = _relevant_groups(t, rel, judged_only)
    ranks_within = np.clip(np.minimum(n, depth - s), 0, None).astype(np.int64)
    j = ranges(ranks_within) + 1
    s, n, r, c = (np.repeat(x, ranks_within) for x in (s, n, r, c))
    slope = np.zeros(len(n))
    np.divide(r - 1, n - 1, out=slope, where=n > 1)
    terms = (r / n) * ((c + 1) + (j - 1) * slope) / (s + j)
    return np.bincount(np.repeat(query, ranks_within), weights=terms, minlength=t.nq)


def expected_rr(t: RankedTable, rel: int, depth: float, judged_only: bool) -> np.ndarray:
    """Per query, the expected reciprocal rank of the first relevant document ranked above ``depth``."""
    s, n, r, _, query = _relevant_groups(t, rel, judged_only)
    first = _heads(query)
    s, n, r, query = s[first], n[first], r[first], query[first]
    ranks = np.clip(np.minimum(n - r + 1, depth - s), 0, None).astype(np.int64)   # where the first can be
    j = ranges(ranks) + 1
    s, n, r = (np.repeat(x, ranks) for x in (s, n, r))
    chance = np.exp(_log_choose(n - j, r - 1) - _log_choose(n, r))
    return np.bincount(np.repeat(query, ranks), weights=chance / (s + j), minlength=t.nq)


def expected_success(t: RankedTable, rel: int, depth: float, judged_only: bool) -> np.ndarray:
    """Per query, the probability that a relevant document is ranked above ``depth``."""
    s, n, r, _, query = _relevant_groups(t, rel, judged_only)
    certain = np.bincount(query[s + n <= depth], minlength=t.nq) > 0
    across = (s < depth) & (s + n > depth)
    rest, n, r = s[across] + n[across] - depth, n[across], r[across]    # the group's ranks below the depth
    missed = np.zeros(len(n))
    fits = rest >= r                                        # else some relevant document is above the depth
    missed[fits] = np.exp(_log_choose(rest[fits], r[fits]) - _log_choose(n[fits], r[fits]))
    out = np.zeros(t.nq)
    out[query[across]] = 1.0 - missed
    out[certain] = 1.0
    return out


def _relevant_groups(t: RankedTable, rel: int, judged_only: bool):
    """The tie groups holding a relevant document, in ranked order: their first rank s, size n, relevant
    documents r, relevant documents ranked above them c, and query."""
    group, start, size = t.tie_groups(judged_only)
    mask = t.relevant(rel) & (size > 0)
    rows = np.flatnonzero(mask)
    head = _heads(group[rows])
    heads = rows[head]
    r = np.diff(np.append(np.flatnonzero(head), len(rows)))
    c = t.count_before(mask)[head]
    return start[heads], size[heads], r, c, t.query[heads]


def _heads(keys: np.ndarray) -> np.ndarray:
    """True at each row whose key differs from the previous row's (the first row of each run of equal keys)."""
    head = np.ones(len(keys), dtype=bool)
    head[1:] = keys[1:] != keys[:-1]
    return head


def _log_choose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log C(a, b) for integers 0 <= b <= a (scipy's log-gamma, imported only for ties='expected')."""
    from scipy.special import gammaln
    return gammaln(a + 1.0) - gammaln(b + 1.0) - gammaln(a - b + 1.0)


def expected_err(t: RankedTable, max_rel: int, depth: float) -> np.ndarray:
    """Per query, the expected ERR (Chapelle et al.) over the orders of tied documents.

    ERR sums, over ranks r, ``R_r / r`` times the chance ``prod_{i<r} (1 - R_i)`` of reaching r.  A tie group
    of n documents starting at rank s + 1, of which v have R > 0 (the set V) and u = n - v have R = 0, is
    reached with the chance ``B`` of passing every group above it; the document at its j-th rank is x with
    chance 1/n, and the j - 1 above it are a uniform (j-1)-subset of the others, so the group adds

        B / n * sum_{i=0}^{v-1} T_i * W_i,   W_i = sum_{j=1}^{n} C(u, j-1-i) / C(n-1, j-1) / (s + j)

    (ranks beyond the cutoff left out), with ``T_i = sum_{x in V} R_x e_i({1 - R_y : y in V, y != x})``, e_i
    the elementary symmetric polynomials: the coefficients of ``sum_x R_x prod_{y != x} (1 + (1 - R_y) t)``,
    built one document at a time (no subtraction, so no cancellation).  A group of one document adds
    ``R B / (s + 1)`` as in trec_eval's order.
    """
    from .err import stop_probability
    group, start, size = t.tie_groups(False)
    grade = np.minimum(t.grade, max_rel)
    keep = (grade > 0) & (start < depth)
    group, query, grade, start, size = group[keep], t.query[keep], grade[keep], start[keep], size[keep]
    stop = stop_probability(grade, max_rel)
    first = np.flatnonzero(_heads(group))
    v = np.diff(np.append(first, len(group)))
    offsets = offsets_of(query, t.nq)
    reach = np.ones(len(first))                         # B: every positive document of the groups above
    for g in np.unique(grade):                          # as the ERR kernel multiplies, grade by grade
        above = running_count(grade == g, query, offsets) - (grade == g)
        reach *= (1.0 - stop_probability(g, max_rel)) ** above[first]
    s, n, q = start[first], size[first], query[first]
    out = np.zeros(t.nq)
    single = n == 1
    np.add.at(out, q[single], stop[first[single]] * reach[single] / (s[single] + 1.0))
    several = np.flatnonzero(~single)
    if len(several):
        terms = _group_sums(stop, first[several], v[several], s[several], n[several], depth)
        np.add.at(out, q[several], reach[several] / n[several] * terms)
    return out


def _group_sums(stop: np.ndarray, first: np.ndarray, v: np.ndarray, s: np.ndarray, n: np.ndarray,
                depth: float) -> np.ndarray:
    """``sum_i T_i W_i`` of each tie group of :func:`expected_err` (its positive documents are the rows
    ``first .. first + v - 1`` of ``stop``)."""
    out = np.zeros(len(first))
    for bucket in np.unique(np.ceil(np.log2(v)).astype(np.int64)):     # groups of like v, padded to 2^bucket
        at = np.flatnonzero(np.ceil(np.log2(v)).astype(np.int64) == bucket)
        width = int(v[at].max())
        p = np.zeros((len(at), width + 1))
        p[:, 0] = 1.0
        coefficients = np.zeros((len(at), width + 1))
        for c in range(width):                               # one positive document of each group at a time
            live = np.flatnonzero(v[at] > c)
            r = stop[first[at[live]] + c][:, None]
            shifted_p = np.zeros_like(p[live])
            shifted_p[:, 1:] = p[live, :-1]
            shifted_q = np.zeros_like(coefficients[live])
            shifted_q[:, 1:] = coefficients[live, :-1]
            coefficients[live] = coefficients[live] + (1.0 - r) * shifted_q + r * p[live]
            p[live] = p[live] + (1.0 - r) * shifted_p
        vv, ss, nn = v[at], s[at], n[at]
        uu = nn - vv
        i = ranges(vv)                                       # i = 0 .. v-1 of each group
        owner = np.repeat(np.arange(len(at)), vv)
        t_i = coefficients[owner, i]
        # j from i + 1 to min(n, u + i + 1, depth - s)
        last = np.minimum(np.minimum(nn[owner], uu[owner] + i + 1), np.clip(depth - ss[owner], 0, None))
        count = np.clip(last - i, 0, None).astype(np.int64)
        j = np.repeat(i, count) + 1 + ranges(count)
        term_of = np.repeat(np.arange(len(i)), count)
        ui, ni, si, ii = uu[owner][term_of], nn[owner][term_of], ss[owner][term_of], i[term_of]
        w = np.exp(_log_choose(ui, j - 1 - ii) - _log_choose(ni - 1, j - 1)) / (si + j)
        weights = np.bincount(term_of, weights=w, minlength=len(i))
        out[at] = np.bincount(owner, weights=t_i * weights, minlength=len(at))
    return out
