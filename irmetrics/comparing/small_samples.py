"""How few queries each test and interval supports, and what a comparison may claim with fewer.

A paired comparison cannot be surer than its n differences allow.  The exact paired randomisation
test on n non-zero differences enumerates the 2^n sign flips; the observed flip and its mirror are as
extreme as themselves, so its smallest two-sided p-value is ``2 / 2^n = 2^(1-n)``.  That bound uses no
model: the sign and Wilcoxon tests (whose exact null distributions are the same sign flips) cannot
go below it either, and a test that does (the t-test through its normal model, the bootstrap through
its resampling) claims more than the n differences carry.  So no test is reported significant at
level ``alpha`` for a pair and measure whose non-zero differences are too few for
``2^(1-n) <= alpha`` (:func:`reachable`): with ``alpha = 0.05`` that is 6 queries or more
(2^-5 = 0.031; 5 give 0.0625).

The bootstrap needs more: its B resamples are drawn from the ``C(2n-1, n)`` distinct multisets of n
queries (:func:`distinct_resamples`), so with fewer distinct multisets than B it only repeats a few
of them and its p-value and intervals have a resolution they do not show (2 queries: 3 multisets).
It supports n queries when ``C(2n-1, n) >= B`` (9 queries for B = 10,000), and the exact bound.

Each test's fewest queries is :func:`fewest_queries`; each interval's :func:`fewest_for_interval`
(Student's t interval is defined from 2 queries; the bootstrap's as above, and BCa's jackknife needs
3).  Below them the comparison warns, once per test or interval.

P. Hall, The Bootstrap and Edgeworth Expansion, 1992, appendix I (the number of distinct resamples); P. Good,
Permutation, Parametric and Bootstrap Tests of Hypotheses, 2005 (the attainable p-values of
permutation tests); T. Sakai, Statistical Reform in Information Retrieval?, SIGIR Forum 48(1), 2014.
"""
from __future__ import annotations

import math

import numpy as np


def smallest_exact_p(n: np.ndarray) -> np.ndarray:
    """The smallest two-sided p-value of the exact randomisation test on ``n`` non-zero differences:
    ``2^(1-n)``, and 1 for none."""
    return np.where(n > 0, np.exp2(1.0 - np.maximum(n, 1)), 1.0)


def reachable(n: np.ndarray, alpha: float) -> np.ndarray:
    """Where ``n`` non-zero differences can be significant at ``alpha`` at all (``2^(1-n) <= alpha``)."""
    return smallest_exact_p(n) <= alpha


def exact_fewest(alpha: float) -> int:
    """The fewest non-zero differences for which ``2^(1-n) <= alpha``."""
    return 1 + max(0, math.ceil(math.log2(1 / alpha) - 1e-12))


def distinct_resamples(n: int) -> int:
    """The distinct bootstrap resamples of n queries: multisets of n drawn from n, ``C(2n-1, n)``."""
    return math.comb(2 * n - 1, n)


def bootstrap_fewest(n_resamples: int) -> int:
    """The fewest queries whose distinct bootstrap resamples are at least ``n_resamples``."""
    n = 1
    while distinct_resamples(n) < n_resamples:
        n += 1
    return n


def fewest_queries(test: str, alpha: float, n_resamples: int) -> int:
    """The fewest queries with a non-zero difference for which ``test`` can report significance at
    ``alpha`` (see the module docstring)."""
    fewest = exact_fewest(alpha)
    return max(fewest, bootstrap_fewest(n_resamples)) if test == 'bootstrap' else fewest


def fewest_for_interval(method: str, n_resamples: int) -> int:
    """The fewest queries an interval method supports: 2 for Student's t, :func:`bootstrap_fewest` for
    the percentile bootstrap, and at least 3 for BCa (its jackknife)."""
    if method == 't':
        return 2
    return max(bootstrap_fewest(n_resamples), 3 if method == 'bca' else 2)
