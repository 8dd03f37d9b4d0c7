"""Paired significance tests whose null distributions are known in closed form.

Each test takes the per-query differences ``d = x - y`` of two runs over their paired queries (a 1-d
array without NaN, at least two values) and returns a :class:`SignificanceResult` with scipy's
names, ``statistic`` and ``pvalue``.  Every p-value is two-sided, and every test gives p = 1 when
no difference is non-zero (a run against itself).  The p-values equal scipy's ``ttest_rel``,
``wilcoxon`` and ``binomtest`` on the same differences; scipy is imported only when a test runs.

The resampling tests (randomisation, bootstrap, randomised Tukey HSD) are in :mod:`.resampling`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Wilcoxon's test uses its exact null distribution up to this many differences (scipy's rule).
WILCOXON_EXACT_MAX = 50
#: ... and its exact distribution conditional on ties and zeros up to this many (scipy's rule, where
#: enumerating the 2^n sign changes stays below scipy's 9,999 resamples).
WILCOXON_EXACT_TIES_MAX = 13


@dataclass(frozen=True)
class SignificanceResult:
    """The outcome of a test: its statistic and its two-sided p-value."""

    statistic: float
    pvalue: float


def t_test(d: np.ndarray) -> SignificanceResult:
    """Student's paired t-test: ``t = mean(d) / (s / sqrt(n))`` with ``s`` the standard deviation of
    the n differences (n - 1 in the denominator), against Student's t with n - 1 degrees of freedom:
    ``p = 2 P(T_{n-1} >= |t|)``.  Differences all equal: t = 0 (p = 1) when they are zero, else
    t = +-inf (p = 0).

    W. S. Gosset ("Student"), The probable error of a mean, Biometrika 6(1), 1908.
    """
    from scipy.special import stdtr
    n = d.size
    mean = d.mean()
    sd = math.sqrt(np.sum((d - mean) ** 2) / (n - 1))
    if sd > 0:
        t = float(mean / (sd / math.sqrt(n)))
    else:                                           # every difference equal: t is 0 or infinite
        t = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    pvalue = 1.0 if t == 0 else float(2 * stdtr(n - 1, -abs(t)))
    return SignificanceResult(t, min(pvalue, 1.0))


def wilcoxon_test(d: np.ndarray) -> SignificanceResult:
    """Wilcoxon's signed-rank test; ``statistic`` is ``min(R+, R-)``.

    Zero differences are dropped (Wilcoxon's convention); the remaining n are ranked by ``|d|``
    (ties share their mean rank) and ``R+`` sums the ranks of the positive ones.  The p-value is
    ``2 min(P(R+ <= r), P(R+ >= r))`` (at most 1) under the exact null distribution, in which every
    difference is positive or negative with probability 1/2 independently: exact when the sample
    has at most 50 differences and neither ties nor zeros, and exact given the tied ranks when it
    has at most 13 (all 2^n sign changes).  Otherwise the normal approximation with the tie
    correction, without continuity correction: ``z = (R+ - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24 -
    sum(t^3 - t)/48)`` over tie groups of size t.  This is scipy's ``wilcoxon`` default.

    F. Wilcoxon, Individual comparisons by ranking methods, Biometrics Bulletin 1(6), 1945.
    """
    from scipy.special import ndtr
    size = d.size
    nonzero = d[d != 0]
    n = nonzero.size
    if n == 0:
        return SignificanceResult(0.0, 1.0)
    doubled, tie_sizes = _doubled_midranks(np.abs(nonzero))     # twice the mid-ranks: integers
    r_plus = doubled[nonzero > 0].sum() / 2
    statistic = float(min(r_plus, n * (n + 1) / 2 - r_plus))
    ties = bool((tie_sizes > 1).any())
    if size <= WILCOXON_EXACT_TIES_MAX or (size <= WILCOXON_EXACT_MAX and not ties and n == size):
        counts = _subset_sum_counts(doubled)          # counts[s]: sign patterns with 2 R+ = s
        total = counts.sum()
        observed = int(round(2 * r_plus))
        below = counts[:observed + 1].sum() / total
        above = counts[observed:].sum() / total
        return SignificanceResult(statistic, float(min(1.0, 2 * min(below, above))))
    mean = n * (n + 1) / 4
    var = (n * (n + 1) * (2 * n + 1) - np.sum(tie_sizes ** 3 - tie_sizes) / 2) / 24
    z = (r_plus - mean) / math.sqrt(var)
    return SignificanceResult(statistic, float(min(1.0, 2 * ndtr(-abs(z)))))


def _doubled_midranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(twice the mid-rank of each value, the size of each group of equal values)."""
    order = np.argsort(values, kind='stable')
    ranked = values[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    sizes = np.diff(np.r_[starts, ranked.size])
    group_doubled = 2 * starts + sizes + 1            # first rank + last rank (1-based)
    doubled = np.empty(values.size, dtype=np.int64)
    doubled[order] = np.repeat(group_doubled, sizes)
    return doubled, sizes


def _subset_sum_counts(weights: np.ndarray) -> np.ndarray:
    """``counts[s]``: how many subsets of ``weights`` (positive integers) sum to s."""
    counts = np.zeros(int(weights.sum()) + 1)
    counts[0] = 1
    top = 0
    for w in weights.tolist():        # one convolution per difference (at most 50 of them)
        counts[w:top + w + 1] += counts[:top + 1].copy()
        top += w
    return counts


def sign_test(d: np.ndarray) -> SignificanceResult:
    """The sign test; ``statistic`` is the number k of positive differences.

    Zero differences are dropped; under the null each of the n others is positive with probability
    1/2, so ``p = min(1, 2 P(B <= min(k, n - k)))`` with B binomial(n, 1/2): scipy's two-sided
    ``binomtest(k, n)``.

    W. J. Dixon and A. M. Mood, The statistical sign test, JASA 41(236), 1946.
    """
    from scipy.special import bdtr
    k = int(np.count_nonzero(d > 0))
    n = k + int(np.count_nonzero(d < 0))
    if n == 0:
        return SignificanceResult(0.0, 1.0)
    return SignificanceResult(float(k), float(min(1.0, 2 * bdtr(min(k, n - k), n, 0.5))))
