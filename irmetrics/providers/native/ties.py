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
  above k (:func:`expected_success`);
* ERR and nERR: :func:`~.err.expected_err`, by elementary symmetric polynomials of each group's stopping
  chances.

A ranking without ties gives trec_eval's values, to the bit: every group is one document at its rank.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import ranges, run_starts
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
    head = run_starts(group[rows])
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
    first = run_starts(query)
    s, n, r, query = s[first], n[first], r[first], query[first]
    ranks = np.clip(np.minimum(n - r + 1, depth - s), 0, None).astype(np.int64)   # where the first can be
    j = ranges(ranks) + 1
    s, n, r = (np.repeat(x, ranks) for x in (s, n, r))
    chance = np.exp(log_choose(n - j, r - 1) - log_choose(n, r))
    return np.bincount(np.repeat(query, ranks), weights=chance / (s + j), minlength=t.nq)


def expected_success(t: RankedTable, rel: int, depth: float, judged_only: bool) -> np.ndarray:
    """Per query, the probability that a relevant document is ranked above ``depth``."""
    s, n, r, _, query = _relevant_groups(t, rel, judged_only)
    certain = np.bincount(query[s + n <= depth], minlength=t.nq) > 0
    across = (s < depth) & (s + n > depth)
    rest, n, r = s[across] + n[across] - depth, n[across], r[across]    # the group's ranks below the depth
    missed = np.zeros(len(n))
    fits = rest >= r                                        # else some relevant document is above the depth
    missed[fits] = np.exp(log_choose(rest[fits], r[fits]) - log_choose(n[fits], r[fits]))
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
    head = run_starts(group[rows])
    first = rows[head]
    r = np.diff(np.append(np.flatnonzero(head), len(rows)))
    c = t.count_before(mask)[head]
    return start[first], size[first], r, c, t.query[first]


def log_choose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log C(a, b) for integers 0 <= b <= a (scipy's log-gamma, imported only for ties='expected')."""
    from scipy.special import gammaln
    return gammaln(a + 1.0) - gammaln(b + 1.0) - gammaln(a - b + 1.0)

