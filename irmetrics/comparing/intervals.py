"""Confidence intervals for a mean: Student's t, and the percentile and BCa bootstrap intervals.

Each function works on the columns of a matrix at once; ``level`` is the confidence level (0.95).
"""
from __future__ import annotations

import numpy as np

METHODS = ('t', 'bootstrap', 'bca')


def mean_sd(values: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, mean, standard deviation with n - 1 in the denominator) of each column's valid values.

    Each column is summed as one contiguous row, so its numbers do not depend on the other columns
    (which measures or runs are compared alongside) down to the last digit.
    """
    ok = np.ascontiguousarray(valid.T)
    x = np.ascontiguousarray(np.where(valid, values, 0.0).T)
    n = ok.sum(axis=1)
    with np.errstate(invalid='ignore', divide='ignore'):
        mean = x.sum(axis=1) / n
        sd = np.sqrt((np.where(ok, x - mean[:, None], 0.0) ** 2).sum(axis=1) / (n - 1))
    return n, mean, sd


def t_interval(values: np.ndarray, valid: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """``mean -+ t_{(1+level)/2, n-1} s / sqrt(n)`` of each column over its n valid rows, with s the
    standard deviation (n - 1 in the denominator); NaN for a column of fewer than two values.

    W. S. Gosset ("Student"), The probable error of a mean, Biometrika 6(1), 1908.
    """
    from scipy.special import stdtrit
    n, mean, sd = mean_sd(values, valid)
    with np.errstate(invalid='ignore', divide='ignore'):
        half = stdtrit(np.maximum(n - 1, 1), (1 + level) / 2) * sd / np.sqrt(n)
    half = np.where(n >= 2, half, np.nan)
    return mean - half, mean + half


def percentile_interval(replicates: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The ``(1-level)/2`` and ``(1+level)/2`` quantiles of each column's bootstrap replicates.

    B. Efron and R. J. Tibshirani, An Introduction to the Bootstrap, 1993, ch. 13.
    """
    ordered = np.sort(replicates, axis=0)
    tail = np.full(replicates.shape[1], (1 - level) / 2)
    return _quantiles(ordered, tail), _quantiles(ordered, 1 - tail)


def bca_interval(replicates: np.ndarray, values: np.ndarray, valid: np.ndarray,
                 level: float) -> tuple[np.ndarray, np.ndarray]:
    """The bias-corrected and accelerated (BCa) bootstrap interval of each column's mean.

    With ``theta`` the column's mean, ``z0 = Phi^-1((#{theta* < theta} + #{theta* <= theta}) / 2B)``
    the bias correction and ``a = sum(x_i - xbar)^3 / (6 (sum(x_i - xbar)^2)^(3/2))`` the
    acceleration (the jackknife's, which for a mean reduces to this skewness term), the interval
    is the quantiles ``Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q)))`` of the replicates for
    ``q = (1-level)/2`` and ``(1+level)/2``.  ``replicates`` are :func:`.resampling.bootstrap_means`
    of ``values`` (rows where ``valid``).

    B. Efron, Better bootstrap confidence intervals, JASA 82(397), 1987.
    """
    from scipy.special import ndtr, ndtri
    _, mean, _ = mean_sd(values, valid)
    below = (replicates < mean).sum(axis=0) + (replicates <= mean).sum(axis=0)
    z0 = ndtri(below / (2 * replicates.shape[0]))
    centred = np.where(valid, values - mean, 0.0)
    spread = (centred ** 2).sum(axis=0)
    with np.errstate(invalid='ignore', divide='ignore'):
        accel = np.where(spread > 0, (centred ** 3).sum(axis=0) / (6 * spread ** 1.5), 0.0)
    ordered = np.sort(replicates, axis=0)
    bounds = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        z = z0 + ndtri(q)
        bounds.append(_quantiles(ordered, ndtr(z0 + z / (1 - accel * z))))
    return bounds[0], bounds[1]


def _quantiles(ordered: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantile ``q[j]`` of sorted column j, interpolated linearly (numpy's default definition); NaN
    where ``q[j]`` is (a BCa level of a column whose replicates all lie on one side of its mean)."""
    position = np.nan_to_num(q) * (ordered.shape[0] - 1)
    lower = np.clip(np.floor(position).astype(np.int64), 0, ordered.shape[0] - 1)
    upper = np.minimum(lower + 1, ordered.shape[0] - 1)
    columns = np.arange(ordered.shape[1])
    low, high = ordered[lower, columns], ordered[upper, columns]
    return np.where(np.isnan(q), np.nan, low + (position - lower) * (high - low))
