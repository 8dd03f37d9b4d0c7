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

The values keep their digits at any size of group (tested against exact rational arithmetic up to 100,000
tied documents): a group's count or sum of values is taken once and multiplied by its share of the ranks
(not a share added once per document), and every chance above is a product of ratios of small integers
taken as a sum of logarithms of factors near 1 (``log1p``), never a difference of log-factorials (whose
size, about n log n, leaves ~1e-10 of relative error at n = 100,000) nor ``1 - exp`` of one (which cancels).

A ranking without ties gives trec_eval's values, to the bit: every group is one document at its rank.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...algebra.measure import Measure
from ...data.segments import ranges, run_starts, running_sum
from .table import RankedTable


def expects(measure: Measure) -> bool:
    """Whether ``measure`` asks for the expectation over the orders of tied documents."""
    return bool(measure['ties'] == 'expected')


def count_within(t: RankedTable, mask: np.ndarray, depth: float | np.ndarray, judged_only: bool,
                 expected: bool) -> np.ndarray:
    """Per query, the rows selected by ``mask`` ranked above ``depth`` (a number, or one per row): counted in
    trec_eval's order, or expected over the orders of tied documents (each group counts its selected rows
    times the share of its ranks above ``depth``, one product and one division: no sum of many shares)."""
    rank = t.rank_in(judged_only)
    if not expected:
        return t.count(mask & (rank >= 0) & (rank < depth))
    first, number, start, size = _selected_groups(t, mask, judged_only)
    if np.ndim(depth):
        depth = np.asarray(depth)[first]
    within = np.clip(depth - start, 0, size)                 # an infinite depth: every rank
    return t.total(first, np.bincount(number, minlength=len(start)) * within / size)


def sum_within(t: RankedTable, mask: np.ndarray, values: np.ndarray, weight: Callable[[np.ndarray], np.ndarray],
               depth: float, judged_only: bool, expected: bool) -> np.ndarray:
    """Per query, the sum over the rows selected by ``mask`` ranked above ``depth`` of ``values`` (one per
    selected row) times ``weight(rank)``; with ``expected``, each row's weight is the mean weight of its
    group's ranks (those above ``depth``; the others weigh 0): each group's values summed, times that mean."""
    rank = t.rank_in(judged_only)
    if not expected:
        within = (rank >= 0) & (rank < depth)
        return t.total(mask & within, values[within[mask]] * weight(rank[mask & within]))
    first, number, s, n = _selected_groups(t, mask, judged_only)
    ranks_within = np.clip(np.minimum(n, depth - s), 0, None).astype(np.int64)
    positions = np.repeat(s, ranks_within) + ranges(ranks_within)
    sums = np.bincount(np.repeat(np.arange(len(s)), ranks_within), weights=weight(positions), minlength=len(s))
    present = t.tie_groups(judged_only)[2][mask] > 0
    return t.total(first, np.bincount(number, weights=values[present], minlength=len(s)) * (sums / n))


def _selected_groups(t: RankedTable, mask: np.ndarray,
                     judged_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tie groups holding rows selected by ``mask``, in ranked order: a mask of their first selected
    rows, the group's number for each selected row, and each group's first rank and size."""
    group, start, size = t.tie_groups(judged_only)
    rows = np.flatnonzero(mask & (size > 0))
    head = run_starts(group[rows])
    first = np.zeros(len(mask), dtype=bool)
    first[rows[head]] = True
    return first, np.cumsum(head) - 1, start[rows[head]], size[rows[head]]


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
    # C(n - j, r - 1) / C(n, r) = (r / n) prod_{i < j} (1 - (r - 1) / (n - i)): a running sum of logarithms
    # within each group, each step near 0 (no difference of large log-factorials)
    steps = np.zeros(len(j))
    later = j > 1
    steps[later] = np.log1p(-(r[later] - 1) / (n[later] - j[later] + 1.0))
    chance = r / n * np.exp(running_sum(steps, np.append(0, np.cumsum(ranks))))
    return np.bincount(np.repeat(query, ranks), weights=chance / (s + j), minlength=t.nq)


def expected_success(t: RankedTable, rel: int, depth: float, judged_only: bool) -> np.ndarray:
    """Per query, the probability that a relevant document is ranked above ``depth``."""
    s, n, r, _, query = _relevant_groups(t, rel, judged_only)
    certain = np.bincount(query[s + n <= depth], minlength=t.nq) > 0
    across = (s < depth) & (s + n > depth)
    above, n, r = (depth - s[across]).astype(np.int64), n[across], r[across]   # the group's ranks above the depth
    out = np.zeros(t.nq)
    out[query[across]] = _chance_of_any(n, r, above)
    out[certain] = 1.0
    return out


def _chance_of_any(n: np.ndarray, r: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The chance that m given ranks of a tie group of n hold some of its r relevant documents: one minus
    ``C(n - m, r) / C(n, r) = prod_{i < a} (1 - b / (n - i))``, a and b the lesser and the greater of r and m
    (the product is symmetric in them), as ``-expm1`` of a sum of ``log1p`` terms, so that a chance near 0
    or near 1 keeps its digits (``1 - exp(...)`` of a difference of log-binomials loses them)."""
    few, many = np.minimum(r, m), np.maximum(r, m)
    fits = n - many >= few                                  # else every order puts a relevant document in the m
    few, many, n = few[fits], many[fits], n[fits]
    i = ranges(few)
    logs = np.bincount(np.repeat(np.arange(len(few)), few), minlength=len(few),
                       weights=np.log1p(-np.repeat(many, few) / (np.repeat(n, few) - i)))
    out = np.ones(len(fits))
    out[fits] = -np.expm1(logs)
    return out


def _relevant_groups(t: RankedTable, rel: int,
                     judged_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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

