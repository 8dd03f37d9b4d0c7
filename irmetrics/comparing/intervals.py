"""Confidence intervals for a mean: Student's t, and the percentile and BCa bootstrap intervals.

Each function works on the columns of a matrix at once; ``level`` is the confidence level (0.95).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .replicates import Replicates

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


def percentile_interval(replicates: Replicates, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The ``(1-level)/2`` and ``(1+level)/2`` quantiles of each column's bootstrap replicates.

    B. Efron and R. J. Tibshirani, An Introduction to the Bootstrap, 1993, ch. 13.
    """
    tail = np.full(replicates.width, (1 - level) / 2)
    low, high = _quantiles(replicates, [tail, 1 - tail])
    return low, high


def bca_interval(replicates: Replicates, values: np.ndarray, valid: np.ndarray,
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
    below = replicates.total(lambda block, c: (block < mean[c]).sum(axis=0) + (block <= mean[c]).sum(axis=0))
    z0 = ndtri(below / (2 * replicates.rows))
    centred = np.where(valid, values - mean, 0.0)
    spread = (centred ** 2).sum(axis=0)
    with np.errstate(invalid='ignore', divide='ignore'):
        accel = np.where(spread > 0, (centred ** 3).sum(axis=0) / (6 * spread ** 1.5), 0.0)
    levels = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        z = z0 + ndtri(q)
        levels.append(ndtr(z0 + z / (1 - accel * z)))
    low, high = _quantiles(replicates, levels)
    return low, high


def _quantiles(replicates: Replicates, levels: list[np.ndarray]) -> list[np.ndarray]:
    """Quantile ``q[j]`` of column j for each ``q`` of ``levels``, interpolated linearly between two order
    statistics (numpy's default definition); NaN where ``q[j]`` is (a BCa level of a column whose replicates
    all lie on one side of its mean).  Every order statistic is found in one go."""
    last = replicates.rows - 1
    positions = [np.nan_to_num(q) * last for q in levels]
    lowers = [np.clip(np.floor(p).astype(np.int64), 0, last) for p in positions]
    ranks = np.stack([rank for lower in lowers for rank in (lower, np.minimum(lower + 1, last))])
    values = replicates.smallest(ranks)
    out = []
    for i, (q, position, lower) in enumerate(zip(levels, positions, lowers, strict=True)):
        low, high = values[2 * i], values[2 * i + 1]
        out.append(np.where(np.isnan(q), np.nan, low + (position - lower) * (high - low)))
    return out
