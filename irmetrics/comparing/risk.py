"""Risk-sensitive evaluation on per-query values: URisk, TRisk and GeoRisk, as pure numpy functions.

A run that is better than a baseline on average may still lose badly on some queries.  The risk
measures weigh those losses more than the wins, by ``1 + alpha``: the risk weight ``alpha >= 0`` of the
papers, the option ``risk_weight`` here (``0`` is the plain mean difference; in irmetrics' options ``alpha``
is always a significance level).  Every function here takes per-query values (NaN where a measure is undefined
on a query) and returns numbers; :mod:`.risk_of_runs` evaluates runs into such values (the qrels'
queries, a query missing from a run scoring the measure's missing value, as ``calc`` does) and
:func:`~.comparison.compare` adds the columns of :class:`RiskColumns` to its report.

* URisk (Wang, Bennett & Collins-Thompson, SIGIR 2012; the TREC 2013 and 2014 Web track risk task, its
  ``gdeval -riskAlpha``): with ``delta_q = run_q - baseline_q`` over the c paired queries,
  ``d_q = delta_q`` where ``delta_q >= 0`` and ``(1 + alpha) delta_q`` where ``delta_q < 0``, and
  ``URisk = (1/c) sum_q d_q = (1/c) [sum_{wins} delta_q - (1 + alpha) sum_{losses} |delta_q|]``.
  Positive: the run gains more than it loses, losses weighted; 0: a run equal to the baseline.
* TRisk (Dincer, Macdonald & Ounis, SIGIR 2014): ``TRisk = URisk / SE``, ``SE = s_d / sqrt(c)`` with
  ``s_d`` the standard deviation of the risk-adjusted differences ``d_q``.  By default (``ddof=1``)
  ``s_d`` is the sample standard deviation (c - 1 in the denominator): TRisk is then Student's
  one-sample t statistic of the ``d_q``, and its two-sided p-value Student's t with c - 1 degrees of
  freedom.  ``ddof=0`` divides by c instead, as the rmit-ir/trisk scripts (Ruby and R, written for
  Benham & Culpepper, ADCS 2017) do: TRisk is then larger by ``sqrt(c / (c - 1))``, its p-value read
  from the same t distribution.  ``TRisk > 2``: significantly less risky than the baseline (at about
  0.05), ``TRisk < -2``: significantly riskier.  Every ``d_q`` equal: TRisk 0 (p = 1) when they are 0,
  else +-inf (p = 0), as :func:`~.significance.t_test`.
* GeoRisk (Dincer, Macdonald & Ounis, SIGIR 2016): over m runs and c queries with non-negative scores
  ``x_iq``, ``S_i = sum_q x_iq``, ``T_q = sum_i x_iq``, ``N = sum_i S_i``, expected values
  ``e_iq = S_i T_q / N`` and ``z_iq = (x_iq - e_iq) / sqrt(e_iq)`` (0 where ``e_iq = 0``: then
  ``x_iq = 0``, no deviation), ``ZRisk_i = sum_{z_iq > 0} z_iq + (1 + alpha) sum_{z_iq < 0} z_iq`` and
  ``GeoRisk_i = sqrt(S_i / c * Phi(ZRisk_i / c))``, Phi the standard normal CDF: the geometric mean of
  the run's mean score and how its per-query scores sit among the other runs', losses weighted.
  Higher is better; it needs no single baseline (every run is one), and two runs or more.

Each risk measure uses the queries on which the values it compares are defined (all of them for a
measure defined on every query).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from . import significance, small_samples
from .base import ComparisonError, Float, Int, Option, warn
from .statistics import nonzero_differences, significant_where

#: The weight of losses beyond wins: ``risk_weight`` of :func:`~.risk_of_runs.urisk`, ``trisk``, ``georisk`` and
#: :func:`~.comparison.compare` (``alpha`` in the papers; irmetrics' ``alpha`` is always a significance level)
RISK_WEIGHT = Option('risk_weight', Float(0))
#: The significance level of TRisk (:func:`~.risk_of_runs.trisk`) ...
#: TRisk's significance level, ``alpha`` as everywhere a significance level is asked
ALPHA = Option('alpha', Float(0, 1, low_open=True, high_open=True))
#: ... and the delta degrees of freedom of its standard deviation (1: the sample's; 0: rmit-ir/trisk's).
DDOF = Option('ddof', Int(minimum=0, maximum=1))


def checked_weight(value: object) -> float:
    """``value`` as a risk weight (a finite number >= 0), or the option's one-line error."""
    checked: float = RISK_WEIGHT.check(value)
    return checked


def risk_adjusted(delta: np.ndarray, alpha: float) -> np.ndarray:
    """The risk-adjusted differences: ``delta`` where it is >= 0, ``(1 + alpha) delta`` where < 0 (NaN stays)."""
    delta = np.asarray(delta, dtype=np.float64)
    return np.where(delta < 0, (1.0 + alpha) * delta, delta)


def urisk_value(delta: np.ndarray, alpha: float) -> float:
    """URisk of the per-query differences ``run - baseline`` (the module docstring), over the defined
    ones; NaN when none is."""
    adjusted = risk_adjusted(delta, alpha)
    adjusted = adjusted[~np.isnan(adjusted)]
    return float(adjusted.mean()) + 0.0 if adjusted.size else math.nan


def trisk_value(delta: np.ndarray, alpha: float, ddof: int = 1) -> significance.SignificanceResult:
    """TRisk and its two-sided p-value of the per-query differences ``run - baseline`` (the defined
    ones, two or more): Student's t statistic of the risk-adjusted differences (``ddof=1``), or with
    their standard deviation over c (``ddof=0``, the module docstring)."""
    adjusted = risk_adjusted(delta, alpha)
    adjusted = adjusted[~np.isnan(adjusted)]
    n = adjusted.size
    if n < 2:
        raise ComparisonError(f'TRisk needs two or more paired queries, got {n}')
    result = significance.t_test(adjusted)
    if ddof == 1:
        return significance.SignificanceResult(result.statistic + 0.0, result.pvalue)
    from scipy.special import stdtr
    statistic = result.statistic * math.sqrt(n / (n - 1)) + 0.0     # s over c = s over c - 1, times sqrt((c-1)/c)
    pvalue = 1.0 if statistic == 0 else float(min(1.0, 2 * stdtr(n - 1, -abs(statistic))))
    return significance.SignificanceResult(statistic, pvalue)


def zrisk_values(scores: np.ndarray, alpha: float) -> np.ndarray:
    """ZRisk of each run (row) of the runs x queries matrix of non-negative ``scores`` (the module
    docstring)."""
    x = np.asarray(scores, dtype=np.float64)
    s, t = x.sum(axis=1), x.sum(axis=0)
    total = s.sum()
    expected = np.outer(s, t) / total if total > 0 else np.zeros_like(x)
    z = np.divide(x - expected, np.sqrt(expected), out=np.zeros_like(x), where=expected > 0)
    return cast(np.ndarray, z.sum(axis=1) + alpha * np.where(z < 0, z, 0.0).sum(axis=1))


def georisk_values(scores: np.ndarray, alpha: float, zrisk: np.ndarray | None = None) -> np.ndarray:
    """GeoRisk of each run (row) of the runs x queries matrix of non-negative ``scores``, two runs or
    more and one query or more, without NaN (the module docstring); ``zrisk``: the runs' ZRisk when the
    caller has it already."""
    from scipy.special import ndtr  # the standard normal CDF (scipy.stats.norm.cdf's own)
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 1:
        raise ComparisonError(f'GeoRisk needs a runs x queries matrix of two runs or more and one query or more, '
                              f'got shape {x.shape}')
    if np.isnan(x).any():
        raise ComparisonError('GeoRisk needs a score for every run on every query, got NaN')
    if (x < 0).any():
        raise ComparisonError(f'GeoRisk needs non-negative scores (its expected values are those of a '
                              f'chi-square table), got {x.min():g}')
    c = x.shape[1]
    zrisk = zrisk_values(x, alpha) if zrisk is None else zrisk
    return cast(np.ndarray, np.sqrt(x.sum(axis=1) / c * ndtr(zrisk / c)))


@dataclass(frozen=True)
class RiskColumns:
    """The risk columns of a comparison against one baseline, at ``risk_weight``: ``urisk``, ``trisk`` and
    ``pvalue`` (TRisk's two-sided p-value, not corrected for multiple comparisons) are indexed
    ``[comparison, measure]`` like the comparison's differences, ``georisk`` ``[run, measure]`` (over
    every run of the comparison; NaN for a measure with negative values); ``fewest_queries``: the fewest
    queries with a difference for which a TRisk can be significant at the comparison's significance
    level (:mod:`.small_samples`), and ``significant`` says where TRisk is (``p <= level`` and reachable)."""

    risk_weight: float
    urisk: np.ndarray
    trisk: np.ndarray
    pvalue: np.ndarray
    significant: np.ndarray
    georisk: np.ndarray
    fewest_queries: int


def risk_columns(measures: Sequence[object], values: np.ndarray, pairs: Sequence[tuple[int, int]],
                 alpha: float, level: float, gain: np.ndarray | None = None) -> RiskColumns:
    """URisk, TRisk (with p-values, significance at ``level``) of every pair ``(base, other)`` and GeoRisk
    of every run, for each measure of ``values`` (runs x queries x measures).  ``gain``: each measure's
    direction (:func:`~.statistics.directions`; default: higher is better), so that a difference times it
    is a gain; GeoRisk, which reads the scores themselves, is left out where lower is better."""
    n_pairs, n_measures = len(pairs), values.shape[2]
    urisk, trisk, pvalue = (np.empty((n_pairs, n_measures)) for _ in range(3))
    gain = np.ones(n_measures) if gain is None else gain
    for k, (b, o) in enumerate(pairs):
        for j in range(n_measures):
            delta = (values[o, :, j] - values[b, :, j]) * gain[j]
            urisk[k, j] = urisk_value(delta, alpha)
            result = trisk_value(delta, alpha)
            trisk[k, j], pvalue[k, j] = result.statistic, result.pvalue
    georisk = np.full((values.shape[0], n_measures), np.nan)
    for j, m in enumerate(measures):
        scores = values[:, :, j]
        scores = scores[:, ~np.isnan(scores).any(axis=0)]
        if gain[j] < 0:
            warn(f'GeoRisk of {m} is left out (NaN): it reads scores where higher is better, and lower is for {m}')
        elif (scores < 0).any():
            warn(f'GeoRisk of {m} is left out (NaN): it needs non-negative scores, and {m} has {scores.min():g}')
        elif scores.shape[1]:
            georisk[:, j] = georisk_values(scores, alpha)
    nonzero = nonzero_differences(values, pairs)
    fewest = small_samples.exact_fewest(level)
    if (nonzero < fewest).any():
        warn(f'TRisk: {int((nonzero < fewest).sum())} of {nonzero.size} comparisons rest on fewer than {fewest} '
             f'queries with a difference (as few as {int(nonzero.min())}); TRisk supports {fewest} or more at '
             f'{level:g}, and none with fewer is reported significant')
    significant = significant_where({'trisk': pvalue}, nonzero, level)['trisk']
    return RiskColumns(risk_weight=alpha, urisk=urisk, trisk=trisk, pvalue=pvalue, significant=significant,
                       georisk=georisk, fewest_queries=fewest)
