"""Risk-sensitive evaluation of runs: :func:`urisk` and :func:`trisk` of a run against a baseline,
:func:`georisk` of several runs, each on one measure (the formulas and citations: :mod:`.risk`).

The runs are evaluated by one :class:`~irmetrics.Evaluator`, as :func:`~.comparison.compare` evaluates
them: the queries are the qrels', a qrels query missing from a run scores the measure's missing value
(trec_eval ``-c``), and a measure undefined on some queries (NaN) is compared on the queries where the
runs are all defined.  Each function returns a small frozen result with a readable ``repr``,
``to_dict()``, ``to_dataframe()`` and ``render(format)``.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from . import risk, small_samples
from .base import (
    ComparisonError,
    EvaluationOptions,
    Measure,
    OptionError,
    Options,
    Table,
    Tabled,
    default_names,
    measures_first,
    parse_measures,
    source_path,
    warn,
)
from .comparison import evaluated
from .statistics import directions
from .vocabulary import RunsLike

if TYPE_CHECKING:
    from typing_extensions import Unpack


@dataclass(frozen=True, eq=False)
class URiskResult(Tabled):
    """URisk of ``run`` against ``baseline`` on ``measure`` at ``risk_weight``: ``urisk``, and what it is made
    of: ``delta`` (``run - baseline`` on each query of ``query_ids``, NaN where the measure is undefined),
    and the queries the run wins, loses and ties."""

    urisk: float
    risk_weight: float
    measure: Measure
    run: str
    baseline: str
    query_ids: tuple[str, ...]
    delta: np.ndarray
    wins: int
    losses: int
    ties: int

    @property
    def adjusted(self) -> np.ndarray:
        """The risk-adjusted differences: ``delta`` where >= 0, ``(1 + risk_weight) delta`` where < 0."""
        return risk.risk_adjusted(self.delta, self.risk_weight)

    @property
    def n_queries(self) -> int:
        """The paired queries: those where the measure is defined for both runs."""
        return self.wins + self.losses + self.ties

    def to_dict(self) -> dict[str, Any]:
        """The numbers (not the per-query values: :meth:`per_query`) as plain Python values."""
        return {'run': self.run, 'baseline': self.baseline, 'measure': str(self.measure),
                'risk_weight': self.risk_weight,
                'urisk': self.urisk, 'n_queries': self.n_queries, 'wins': self.wins, 'losses': self.losses,
                'ties': self.ties}

    def table(self) -> Table:
        """:meth:`to_dict` as one row."""
        record = self.to_dict()
        return Table(list(record), [list(record.values())], numeric_from=3)

    def per_query(self) -> Any:
        """A pandas DataFrame, one row per query: ``query_id, delta, adjusted``."""
        import pandas as pd
        return pd.DataFrame({'query_id': list(self.query_ids), 'delta': self.delta, 'adjusted': self.adjusted})

    def _head(self) -> str:
        return (f'{self.run} against {self.baseline} on {self.measure}, risk weight {self.risk_weight:g}, '
                f'{self.n_queries} queries (wins {self.wins}, losses {self.losses}, ties {self.ties})')

    def __repr__(self) -> str:
        return f'URiskResult({self._head()}: URisk = {self.urisk:.4f})'


@dataclass(frozen=True, eq=False)
class TRiskResult(URiskResult):
    """TRisk, URisk's t statistic, with its standard error ``se`` (the standard deviation of the
    risk-adjusted differences with ``ddof``, over ``sqrt(n_queries)``), its two-sided ``pvalue``
    (Student's t with ``n_queries - 1`` degrees of freedom) and whether it is ``significant`` at
    ``alpha``: ``p <= alpha``, and never with fewer queries with a difference than ``fewest_queries``,
    the fewest for which the exact randomisation test could reach ``alpha`` (:mod:`.small_samples`)."""

    trisk: float
    ddof: int
    se: float
    pvalue: float
    alpha: float
    significant: bool
    fewest_queries: int

    @property
    def interpretation(self) -> str:
        """What the TRisk says, in words."""
        if not self.significant:
            return f'not significantly different from the baseline in risk at {self.alpha:g}'
        return (f'significantly {"less risky" if self.trisk > 0 else "riskier"} than the baseline at '
                f'{self.alpha:g}')

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), 'trisk': self.trisk, 'ddof': self.ddof, 'se': self.se, 'pvalue': self.pvalue,
                'alpha': self.alpha, 'significant': self.significant, 'fewest_queries': self.fewest_queries}

    def __repr__(self) -> str:
        return (f'TRiskResult({self._head()}: URisk = {self.urisk:.4f}, TRisk = {self.trisk:.4f}, p = '
                f'{self.pvalue:.4g}: {self.interpretation})')


@dataclass(frozen=True, eq=False)
class GeoRiskResult(Tabled):
    """GeoRisk of each of ``runs`` on ``measure`` at ``risk_weight``, over the ``n_queries`` queries where every
    run is defined: ``georisk``, and its parts ``mean`` (each run's mean score, ``S_i / c``) and ``zrisk``
    (arrays in the order of ``runs``)."""

    runs: tuple[str, ...]
    measure: Measure
    risk_weight: float
    n_queries: int
    georisk: np.ndarray
    zrisk: np.ndarray
    mean: np.ndarray

    def to_dict(self) -> dict[str, float]:
        """``{run: GeoRisk}``."""
        return {run: float(g) for run, g in zip(self.runs, self.georisk, strict=True)}

    def table(self) -> Table:
        """One row per run: ``run, mean, zrisk, georisk``."""
        rows = [[run, float(m), float(z), float(g)]
                for run, m, z, g in zip(self.runs, self.mean, self.zrisk, self.georisk, strict=True)]
        return Table(['run', 'mean', 'zrisk', 'georisk'], rows)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame indexed by run: ``mean, zrisk, georisk``."""
        import pandas as pd
        return pd.DataFrame({'mean': self.mean, 'zrisk': self.zrisk, 'georisk': self.georisk},
                            index=pd.Index(list(self.runs), name='run'))

    def __repr__(self) -> str:
        values = ', '.join(f'{run}: {g:.4f}' for run, g in zip(self.runs, self.georisk, strict=True))
        return (f'GeoRiskResult({len(self.runs)} runs on {self.measure}, risk weight {self.risk_weight:g}, '
                f'{self.n_queries} queries: {values})')


@measures_first('urisk(run, baseline, qrels, measure)')
def urisk(measure: Any, qrels: Any, run: Any, *, baseline: Any, risk_weight: float = 1.0,
          **options: Unpack[EvaluationOptions]) -> URiskResult:
    """URisk of ``run`` against ``baseline`` on ``measure``: wins minus losses weighted ``1 + risk_weight``.

    ``URisk = (1/c) [sum_{wins} delta_q - (1 + w) sum_{losses} |delta_q|]`` with
    ``delta_q = run_q - baseline_q`` over the c paired queries (the qrels' queries, a query missing from a
    run scoring the measure's missing value) and ``w = risk_weight``.  Positive: the run gains more than it
    loses; a run equal to the baseline: 0.

    Parameters
    ----------
    measure : str or Measure
        One measure of one value per query.
    qrels : any qrels input
        The judgments.
    run : any run input
        The run whose risk is measured (a path, a DataFrame, a dict, ...).
    baseline : any run input
        The run it is measured against.
    risk_weight : float
        ``w >= 0``, the weight of losses beyond wins (0: the mean difference).
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    URiskResult
        URisk, the wins, losses and ties, and the per-query differences.

    Raises
    ------
    ArgumentOrderError
        When the arguments are in the order before 1.0 (``urisk(run, baseline, qrels, measure)``).

    References
    ----------
    L. Wang, P. N. Bennett and K. Collins-Thompson, Robust ranking models via risk-sensitive
    optimization, SIGIR 2012 (and the TREC 2013/2014 Web track risk-sensitive task).

    Examples
    --------
    >>> found = irmetrics.urisk('AP', 'examples/qrels.txt', 'examples/run_dense.txt',
    ...                         baseline='examples/run_bm25.txt', risk_weight=1)
    >>> round(found.urisk, 4), found.wins, found.losses
    (0.1272, 9, 1)
    """
    return _paired(measure, qrels, run, baseline, risk_weight, Options.of(options, 'urisk'), None)


@measures_first('trisk(run, baseline, qrels, measure)')
def trisk(measure: Any, qrels: Any, run: Any, *, baseline: Any, risk_weight: float = 1.0, alpha: float = 0.05,
          ddof: int = 1, level: float | None = None, **options: Unpack[EvaluationOptions]) -> TRiskResult:
    """TRisk of ``run`` against ``baseline`` on ``measure``: URisk over its standard error, with a p-value.

    ``TRisk = URisk / SE``, ``SE = s_d / sqrt(c)`` with ``s_d`` the sample standard deviation (c - 1) of the
    risk-adjusted differences ``d_q`` (``delta_q`` where >= 0, ``(1 + risk_weight) delta_q`` where < 0)
    over the c paired queries: Student's one-sample t statistic of the ``d_q``, with its two-sided p-value
    (c - 1 degrees of freedom).  ``|TRisk| > 2`` is significant at about 0.05: above 2 the run is
    significantly less risky than the baseline, below -2 significantly riskier.  Every ``d_q`` equal:
    TRisk 0 (p = 1) for a run equal to the baseline, else +-inf (p = 0).  Needs two paired queries or
    more; the queries and the runs are read as :func:`urisk` reads them.

    Parameters
    ----------
    measure : str or Measure
        The measure (one value per query).
    qrels : any qrels input
        The judgments.
    run : any run input
        The run tested.
    baseline : any run input
        The run it is tested against.
    risk_weight : float
        How much more a loss weighs than a win, beyond 1 (``>= 0``).
    alpha : float
        The significance level: ``significant`` is ``p <= alpha``, and never with fewer queries with a
        difference than the exact randomisation test needs to reach ``alpha`` (6 at 0.05; a warning says
        so).
    ddof : int
        1: ``s_d`` divides by c - 1.  0: by c instead, as the rmit-ir/trisk scripts do (TRisk larger by
        ``sqrt(c / (c - 1))``, its p-value read from the same t distribution), to reproduce their numbers.
    level : float, optional
        Deprecated: ``alpha``'s name before 1.0 (``level`` is a measurement level, in
        :func:`~irmetrics.krippendorff_alpha`); it warns, and giving both is an ``OptionError``.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    TRiskResult
        URisk, TRisk, its standard error, p-value and significance, and the per-query differences.

    Raises
    ------
    ArgumentOrderError
        When the arguments are in the order before 1.0 (``trisk(run, baseline, qrels, measure)``).

    Warns
    -----
    IrmetricsWarning
        When fewer queries differ than the exact randomisation test needs to reach ``alpha``: the run is
        then not significant, whatever its p-value.

    References
    ----------
    B. T. Dincer, C. Macdonald and I. Ounis, Hypothesis testing for the risk-sensitive evaluation of
    retrieval systems, SIGIR 2014.

    Examples
    --------
    >>> found = irmetrics.trisk('AP', 'examples/qrels.txt', 'examples/run_dense.txt',
    ...                         baseline='examples/run_bm25.txt')
    >>> round(found.trisk, 4), round(found.pvalue, 4), found.significant
    (3.3863, 0.008, True)
    """
    alpha = risk.ALPHA.check(_deprecated_level(alpha, level))
    ddof = risk.DDOF.check(ddof)
    return cast(TRiskResult, _paired(measure, qrels, run, baseline, risk_weight, Options.of(options, 'trisk'),
                                     (alpha, ddof)))


def _deprecated_level(alpha: float, level: float | None) -> float:
    """``alpha``, or the significance level given by its name before 1.0 (``level``), with a warning."""
    if level is None:
        return alpha
    if alpha != 0.05:
        raise OptionError(f'trisk: alpha={alpha!r} and level={level!r} are both the significance level: give '
                          f'alpha only (level is its name before 1.0)')
    warnings.warn('trisk(level=...) is deprecated: the significance level is alpha, as in compare '
                  '(trisk(..., alpha=...)); level will be removed', FutureWarning, stacklevel=3)
    return level


@measures_first('georisk(runs, qrels, measure)')
def georisk(measure: Any, qrels: Any, runs: RunsLike, *, risk_weight: float = 1.0,
            **options: Unpack[EvaluationOptions]) -> GeoRiskResult:
    """GeoRisk of each run of ``runs`` on ``measure``: every run is a baseline of the others.

    ``GeoRisk_i = sqrt(S_i / c * Phi(ZRisk_i / c))`` over the c queries where every run is defined, with
    ``S_i`` the run's total score, ``ZRisk_i = sum_{z > 0} z_iq + (1 + w) sum_{z < 0} z_iq`` (``w``:
    ``risk_weight``), ``z_iq = (x_iq - e_iq) / sqrt(e_iq)`` (0 where ``e_iq = 0``), ``e_iq = S_i T_q / N``
    (``T_q``: the runs' total on query q, N: the total of all) and Phi the standard normal CDF.  GeoRisk
    rewards a high mean and scores that do not fall below what the other runs make of each query.  Higher
    is better; it depends on which runs are compared together.

    Parameters
    ----------
    measure : str or Measure
        One measure, whose values must be non-negative and higher the better.
    qrels : any qrels input
        The judgments.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of two runs or more, named as :func:`irmetrics.compare` names them.
    risk_weight : float
        ``w >= 0``, the extra weight of the queries where a run falls below its expected score.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    GeoRiskResult
        Each run's mean, ZRisk and GeoRisk.

    Raises
    ------
    ArgumentOrderError
        When the arguments are in the order before 1.0 (``georisk(runs, qrels, measure)``).
    ComparisonError
        For a measure where lower is better, a negative score, or no query where every run is defined.

    References
    ----------
    B. T. Dincer, C. Macdonald and I. Ounis, Risk-sensitive evaluation and learning to rank using
    multiple baselines, SIGIR 2016.

    Examples
    --------
    >>> irmetrics.georisk('AP', 'examples/qrels.txt',
    ...                   {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt'})
    GeoRiskResult(2 runs on AP, risk weight 1, 10 queries: bm25: 0.4440, dense: 0.5133)
    """
    weight = risk.checked_weight(risk_weight)
    found = evaluated(_one(measure), qrels, runs, None, Options.of(options, 'georisk'))
    names, measures, values = found.runs, found.measures, found.values
    if not measures[0].definition.higher_is_better:
        raise ComparisonError(f'GeoRisk reads scores where higher is better; lower is better for {measures[0]}')
    scores = values[:, :, 0]
    scores = scores[:, ~np.isnan(scores).any(axis=0)]
    if scores.shape[1] == 0:
        raise ComparisonError(f'{measures[0]} is defined on no query for every run: no GeoRisk')
    zrisk = risk.zrisk_values(scores, weight)
    g = risk.georisk_values(scores, weight, zrisk)
    return GeoRiskResult(runs=tuple(names), measure=measures[0], risk_weight=weight, n_queries=scores.shape[1],
                         georisk=_frozen(g), zrisk=_frozen(zrisk), mean=_frozen(scores.mean(axis=1)))


def _paired(measure: Any, qrels: Any, run: Any, baseline: Any, weight: float, options: Options,
            test: tuple[float, int] | None) -> URiskResult:
    """URisk (``test`` None) or TRisk (``test``: its significance level and ddof) of ``run`` against
    ``baseline``."""
    checked = risk.checked_weight(weight)
    names = _pair_names(run, baseline)
    found = evaluated(_one(measure), qrels, dict(zip(names, (baseline, run), strict=True)), None, options)
    measures, query_ids, values = found.measures, found.query_ids, found.values
    delta = (values[1, :, 0] - values[0, :, 0]) * directions(measures)[0]   # a gain in the measure's direction
    defined = delta[~np.isnan(delta)]
    if not defined.size:
        raise ComparisonError(f'{measures[0]} is defined on no query for both runs: no risk to measure')
    wins, losses = int((defined > 0).sum()), int((defined < 0).sum())
    common: dict[str, Any] = dict(urisk=risk.urisk_value(delta, checked), risk_weight=checked, measure=measures[0],
                                  run=names[1], baseline=names[0], query_ids=tuple(query_ids), delta=_frozen(delta),
                                  wins=wins, losses=losses, ties=int(defined.size) - wins - losses)
    if test is None:
        return URiskResult(**common)
    alpha, ddof = test
    t = risk.trisk_value(delta, checked, ddof)
    fewest = small_samples.exact_fewest(alpha)
    if wins + losses < fewest:
        warn(f'TRisk of {names[1]} against {names[0]} on {measures[0]} rests on {wins + losses} queries with a '
             f'difference: it supports {fewest} or more at {alpha:g}, and is not reported significant with fewer')
    se = float(np.std(risk.risk_adjusted(defined, checked), ddof=ddof) / math.sqrt(defined.size))
    significant = bool(t.pvalue <= alpha and small_samples.reachable(np.array(wins + losses), alpha))
    return TRiskResult(**common, trisk=t.statistic, ddof=ddof, se=se, pvalue=t.pvalue, alpha=alpha,
                       significant=significant, fewest_queries=fewest)


def _one(measure: Any) -> Measure:
    chosen = parse_measures(measure)
    if len(chosen) != 1:
        raise ComparisonError(f'measure: give one measure, got {len(chosen)} ({", ".join(map(str, chosen))})')
    return chosen[0]


def _pair_names(run: Any, baseline: Any) -> tuple[str, str]:
    """(baseline's name, run's name): a file's stem, else 'baseline' and 'run' (both of these when the stems
    are the same)."""
    paths = ((source_path(baseline), 'baseline'), (source_path(run), 'run'))
    names = [default_names([path])[0] if path is not None else default for path, default in paths]
    return (names[0], names[1]) if names[0] != names[1] else ('baseline', 'run')



def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64)
    array.flags.writeable = False
    return array
