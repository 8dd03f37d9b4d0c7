"""Comparing runs: from runs and qrels to paired statistics in one call, :func:`compare`.

The runs are evaluated by one :class:`~irmetrics.Evaluator` (qrels prepared once), so every
per-query value and every mean is exactly what ``calc`` gives: the queries are the qrels', a qrels
query missing from a run scores the measure's missing value (trec_eval ``-c``).  Two runs are
compared on their paired queries: every qrels query, except for the measures that are undefined on
some queries (NaN, ``skips_undefined``), where a query counts when both runs are defined on it.
"""
from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import plots, report
from . import risk as risk_module
from .base import (
    ComparisonError,
    EvaluationOptions,
    Evaluator,
    InputError,
    Measure,
    MeasureError,
    Options,
    find_run,
    measures_first,
    parse_measures,
    recorded_warnings,
)
from .leaderboard import rank_table
from .replicates import check_block_fits
from .settings import Settings
from .small_samples import exact_fewest
from .statistics import QUERIES, directions, nonzero_differences, paired_statistics, pairs_of
from .vocabulary import RunsLike, name_runs

if TYPE_CHECKING:
    from typing_extensions import Unpack


@measures_first('compare(runs, qrels, measures)')
def compare(measures: Any, qrels: Any, runs: RunsLike, *, baseline: str | Sequence[str] | None = None,
            test: str | Sequence[str] = 't', correction: str | None = None, correction_scope: str = 'measure',
            alpha: float = 0.05, ci: float = 0.95, ci_method: str = 't', n_resamples: int = 10000,
            seed: int | None = 0, risk_weight: float | None = None,
            **options: Unpack[EvaluationOptions]) -> Comparison:
    """Compare runs on ``measures`` against ``qrels`` with paired significance tests.

    The runs are evaluated by one :class:`~irmetrics.Evaluator`, so every per-query value and every mean
    is what ``calc`` gives; two runs are compared on their paired queries (see the module docstring).

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures to compare on: per-query scores averaged over the queries (counts and measures of a
        whole run are refused).
    qrels : any qrels input
        The judgments (see :func:`irmetrics.to_qrels`).
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs (named by their files' stems, else ``run1``, ``run2``, ...),
        each any run input irmetrics reads.
    baseline : str, list of str or None
        A run, by its name, its path or its stem, compared with every other run; several (a list): every
        other run against each, and the baselines among themselves; None compares every pair.
    test : str or tuple of str
        ``'t'``, ``'wilcoxon'``, ``'sign'``, ``'randomization'``, ``'bootstrap'``, ``'tukey'``, or several
        as a tuple.
    correction : str or None
        None, ``'bonferroni'``, ``'holm'``, ``'hommel'``, ``'fdr_bh'`` or ``'fdr_by'`` (statsmodels'
        names), applied within each measure over its comparisons.
    correction_scope : str
        ``'measure'`` (the default, as above) or ``'all'``: the correction over every comparison of every
        measure.
    alpha : float
        The significance level.
    ci : float
        The confidence level of the intervals.
    ci_method : str
        ``'t'``, ``'bootstrap'`` (percentile) or ``'bca'``.
    n_resamples : int
        The resamples of the resampling tests and intervals.
    seed : int or None
        The seed of the resampling tests and intervals (same seed, same result).
    risk_weight : float or None
        A number ``>= 0`` adds risk-sensitive columns against the one ``baseline`` (:mod:`.risk`): each
        run's URisk and TRisk (its p-value, uncorrected, and whether it is significant at ``alpha``),
        losses weighted ``1 + risk_weight``, and every run's GeoRisk over all the compared runs
        (:attr:`Comparison.risk`).
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    Comparison
        Means with intervals, differences with intervals and effect sizes, wins/ties/losses by query,
        p-values before and after correction.

    Raises
    ------
    ArgumentOrderError
        When the arguments are in the order before 1.0 (``compare(runs, qrels, measures)``).
    ComparisonError
        When a baseline is not one of the runs, is named twice, or ``risk_weight`` is given without exactly
        one baseline.

    Examples
    --------
    >>> cmp = irmetrics.compare(['AP', 'nDCG@10'], 'examples/qrels.txt',
    ...                         {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt'},
    ...                         baseline='bm25', correction='holm')
    >>> round(float(cmp.delta[0, 0]), 4), bool(cmp.significant['t'][0, 0])
    (0.1309, True)
    """
    settings = Settings.checked(test, correction, correction_scope, alpha, ci, ci_method, n_resamples, seed,
                                options.get('memory_limit'))
    weight = None if risk_weight is None else risk_module.checked_weight(risk_weight)
    if weight is not None and (baseline is None or (not isinstance(baseline, (str, os.PathLike))
                                                    and len(baseline) != 1)):
        raise ComparisonError('risk_weight: the risk columns compare each run with one baseline; give baseline= one '
                              'run')
    with recorded_warnings() as seen:
        found = evaluated(measures, qrels, runs, baseline, Options.of(options, 'compare'))
    return build_comparison(found.runs, found.measures, found.query_ids, found.values, found.baseline, settings,
                            risk=weight, warnings=seen)


@dataclass(frozen=True)
class Evaluated:
    """What :func:`evaluated` found: the runs evaluated by one evaluator, ready to be compared."""

    #: the runs' names, in the order given
    runs: list[str]
    #: the measures, parsed
    measures: list[Measure]
    #: the qrels' query ids, in their order
    query_ids: list[str]
    #: the per-query values, runs x queries x measures
    values: np.ndarray
    #: the baseline's name, several names (a tuple), or None
    baseline: str | tuple[str, ...] | None


def evaluated(measures: Any, qrels: Any, runs: RunsLike, baseline: str | Sequence[str] | None,
              options: Options) -> Evaluated:
    """The runs of what :func:`compare` is asked to compare, evaluated by one evaluator (qrels prepared once),
    with the baseline (given by its name, path or stem) found among them."""
    names, inputs = name_runs(runs)
    if baseline is not None:
        try:
            found = [find_run(b, names, inputs, 'baseline')
                     for b in ((baseline,) if isinstance(baseline, (str, os.PathLike)) else baseline)]
        except InputError as ex:
            raise ComparisonError(str(ex)) from None
        if len(set(found)) < len(found) or not found:
            raise ComparisonError(f'baselines {baseline!r}: name each baseline once')
        baseline = found[0] if len(found) == 1 else tuple(found)
    evaluator = Evaluator(measures, qrels, **options.given())
    check_comparable(evaluator.all_measures)
    results = [evaluator.calc(run, **options.run_options()) for run in inputs]
    return Evaluated(names, evaluator.measures, results[0].query_ids, np.stack([r.values for r in results]),
                     baseline)


def check_comparable(measures: Sequence[Measure]) -> None:
    """Refuse the measures summed over queries (counts): they are not per-query scores to compare."""
    for m in measures:
        if m.definition.scope != 'query':
            raise MeasureError(f'{m} is a measure of a whole run ({m.definition.scope!r}), not a per-query score: '
                               f'a paired comparison needs one value per query')
        if m.definition.aggregate != 'mean':
            raise MeasureError(f'{m} is a count summed over queries, not a per-query score: it cannot be '
                               f'compared between runs (compare a mean measure such as AP or nDCG@10)')


class Comparison:
    """Paired comparisons of runs on several measures: means with intervals, differences with
    intervals and effect sizes, wins/ties/losses by query, p-values before and after correction.

    Built by :func:`compare`.  Runs are indexed in the order given; a comparison is a pair
    ``(base, other)`` of run indices whose difference is ``other - base``: every run against the
    baseline, or every pair ``base < other`` when there is none.  Arrays are indexed
    ``[comparison, measure]``; ``pvalue[test]`` and ``p_adjusted[test]`` likewise.  ``warnings``: what was
    warned while the comparison was made (a query missing from a run, comparisons resting on too few queries),
    carried by every report.  Render with ``print`` and :meth:`render` (every format), take the numbers with
    :meth:`to_dataframe` and :meth:`to_dict`; plot with :meth:`plot_deltas` and :meth:`plot_distribution`.
    """

    __slots__ = ('runs', 'measures', 'query_ids', 'values', 'baseline', 'settings', 'pairs', 'n_paired',
                 'delta', 'effect_size', 'wins', 'ties', 'losses', 'delta_ci', 'mean', 'mean_ci', 'pvalue',
                 'enumerated', 'p_adjusted', 'significant', 'fewest_queries', 'risk', 'warnings', 'unit')
    runs: tuple[str, ...]
    measures: tuple[Measure, ...]
    query_ids: tuple[str, ...]
    values: np.ndarray
    baseline: str | tuple[str, ...] | None
    settings: Settings
    pairs: tuple[tuple[int, int], ...]
    n_paired: np.ndarray
    delta: np.ndarray
    effect_size: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray
    delta_ci: np.ndarray
    mean: np.ndarray
    mean_ci: np.ndarray
    pvalue: dict[str, np.ndarray]
    enumerated: dict[str, int]
    p_adjusted: dict[str, np.ndarray]
    significant: dict[str, np.ndarray]
    fewest_queries: dict[str, int]
    #: the risk-sensitive columns against the baseline (``compare(..., risk=alpha)``), else None
    risk: risk_module.RiskColumns | None
    warnings: tuple[str, ...]
    #: what the values are over, as the reports name it (singular, plural): queries, or the topics of RAG answers
    unit: tuple[str, str]

    def __init__(self, **fields: Any):
        """Every field at once (:func:`build_comparison` computes them); arrays become read-only."""
        if set(fields) != set(self.__slots__):
            raise TypeError(f'a Comparison takes exactly the fields {", ".join(self.__slots__)}')
        for name, value in fields.items():
            arrays = (value.values() if isinstance(value, dict) else vars(value).values()
                      if isinstance(value, risk_module.RiskColumns) else [value])
            for array in arrays:
                if isinstance(array, np.ndarray):
                    array.flags.writeable = False
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('a Comparison is immutable: compare again to change it')

    # --- access ---------------------------------------------------------------------------------
    @property
    def baselines(self) -> tuple[str, ...]:
        """The baseline runs: none (every pair compared), one, or several."""
        return () if self.baseline is None else (self.baseline,) if isinstance(self.baseline, str) else self.baseline

    @property
    def tests(self) -> tuple[str, ...]:
        return self.settings.tests

    @property
    def family_size(self) -> int:
        """How many comparisons each correction adjusts together."""
        per_measure = len(self.pairs) * self.settings.slices
        return per_measure * len(self.measures) if self.settings.correction_scope == 'all' else per_measure

    def rows(self) -> list[dict[str, Any]]:
        """One record per (test, run, measure, other run) in :meth:`to_dataframe`'s columns."""
        out = []
        nonzero = nonzero_differences(self.values, self.pairs)
        for test in self.tests:
            for r, run in enumerate(self.runs):
                for j, measure in enumerate(self.measures):
                    head = {'run': run, 'measure': str(measure), 'mean': float(self.mean[r, j]),
                            'ci_low': float(self.mean_ci[0, r, j]), 'ci_high': float(self.mean_ci[1, r, j])}
                    against = [k for k, (_, o) in enumerate(self.pairs) if o == r]     # each pair once
                    if not against:
                        out.append({**head, **_NO_COMPARISON, 'test': test, **self._risk_record(r, None, j)})
                    for k in against:
                        out.append({**head, **self._pair_record(test, k, j), 'note': self._note(test, k, j, nonzero),
                                    **self._risk_record(r, k, j)})
        return out

    def _note(self, test: str, k: int, j: int, nonzero: np.ndarray) -> str:
        """Why comparison k on measure j is not significant though its corrected p-value is at most alpha
        (too few queries with a difference for any test to reach alpha, :mod:`.small_samples`); else ''."""
        alpha = self.settings.alpha
        if self.significant[test][k, j] or not self.p_adjusted[test][k, j] <= alpha:
            return ''
        n = int(nonzero[k, j])
        return (f'not significant: {n} quer{"y" if n == 1 else "ies"} with a difference, fewer than the '
                f'{exact_fewest(alpha)} any test needs to reach alpha = {alpha:g}')

    def _risk_record(self, r: int, k: int | None, j: int) -> dict[str, Any]:
        """The risk columns of run r on measure j (comparison k against the baseline, if any); none without risk."""
        if self.risk is None:
            return {}
        paired = k is not None
        return {'risk_weight': self.risk.risk_weight,
                'urisk': float(self.risk.urisk[k, j]) + 0.0 if paired else math.nan,
                'trisk': float(self.risk.trisk[k, j]) + 0.0 if paired else math.nan,
                'trisk_p': float(self.risk.pvalue[k, j]) if paired else math.nan,
                'trisk_significant': bool(self.risk.significant[k, j]) if paired else None,
                'georisk': float(self.risk.georisk[r, j])}

    def _pair_record(self, test: str, k: int, j: int) -> dict[str, Any]:
        """The columns of comparison k on measure j, seen from its ``other`` run."""
        b, _ = self.pairs[k]
        return {'baseline': self.runs[b], 'delta': float(self.delta[k, j]) + 0.0,
                'delta_ci_low': float(self.delta_ci[0, k, j]), 'delta_ci_high': float(self.delta_ci[1, k, j]),
                'effect_size': float(self.effect_size[k, j]) + 0.0,
                'wins': int(self.wins[k, j]), 'ties': int(self.ties[k, j]), 'losses': int(self.losses[k, j]),
                'test': test, 'p_value': float(self.pvalue[test][k, j]),
                'p_adjusted': float(self.p_adjusted[test][k, j]), 'significant': bool(self.significant[test][k, j])}

    # --- renderers ------------------------------------------------------------------------------
    def to_dataframe(self, *, wide: bool = False) -> Any:
        """The comparison as a pandas DataFrame: every comparison in detail, or the means alone.

        Parameters
        ----------
        wide : bool
            False (default): tidy, one row per (run, measure) and comparison, columns ``run, measure,
            mean, ci_low, ci_high, baseline, delta, delta_ci_low, delta_ci_high, effect_size, wins, ties,
            losses, test, p_value, p_adjusted, significant, note`` (and with ``risk_weight``: ``risk_weight,
            urisk, trisk, trisk_p, trisk_significant, georisk``): each pair of runs once, on the row of its
            later run, ``baseline`` naming the earlier one (every run against the baseline, or without one
            every pair); a run compared with no earlier run (the baseline, the first run) has one row, its
            comparison's columns NaN/None.  ``note`` says why a comparison with a p-value at most alpha is
            not significant ('' otherwise).  With several tests, the rows of each test in turn.  True: the
            means, runs x measures.

        Returns
        -------
        pandas.DataFrame
            The rows; the frame's ``attrs['warnings']`` holds :attr:`warnings`.

        Examples
        --------
        >>> cmp = irmetrics.compare(['AP', 'P@10'], 'examples/qrels.txt',
        ...                         {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt'})
        >>> cmp.to_dataframe(wide=True).round(4)
        measure      AP  P@10
        run
        bm25     0.4087  0.49
        dense    0.5396  0.71
        """
        import pandas as pd
        if wide:
            frame = pd.DataFrame(self.mean, index=pd.Index(self.runs, name='run'),
                                 columns=pd.Index([str(m) for m in self.measures], name='measure'))
        elif self.risk is None:
            frame = pd.DataFrame(self.rows(), columns=COLUMNS)
        else:
            frame = pd.DataFrame(self.rows(), columns=COLUMNS + RISK_COLUMNS).astype({'trisk_significant': 'boolean'})
        if not wide:
            frame = frame.astype({'wins': 'Int64', 'ties': 'Int64', 'losses': 'Int64', 'significant': 'boolean'})
        frame.attrs['warnings'] = list(self.warnings)
        return frame

    def render(self, format: str = 'table', *, places: int | None = None, show: str | Sequence[str] = (),
               label: str = 'tab:comparison') -> str:
        """The comparison in ``format``.

        Every format people read (table, markdown, latex, html) carries the legend and :attr:`warnings`.

        Parameters
        ----------
        format : str
            ``'table'`` (what ``print`` shows), ``'markdown'``, ``'latex'`` (a booktabs ``table`` per test,
            labelled ``label``), ``'html'`` (one self-contained page: the tables, every comparison in detail,
            the plots when matplotlib is installed), ``'json'`` (:meth:`to_dict`), ``'jsonl'``, ``'csv'``,
            ``'tsv'`` (:meth:`to_dataframe`'s rows).
        places : int or None
            Decimals (None: 4 in the formats people read, every digit in the others).
        show : str or sequence of str
            ``'delta'``, ``'p'`` or both: each run's difference from the one baseline and its corrected
            p-value beside its mean (the formats programs read hold them already).
        label : str
            The LaTeX label of the tables.

        Returns
        -------
        str
            The report.

        Raises
        ------
        OptionError
            For an unknown format.

        Examples
        --------
        >>> cmp = irmetrics.compare('AP', 'examples/qrels.txt',
        ...                         {'bm25': 'examples/run_bm25.txt', 'dense': 'examples/run_dense.txt'},
        ...                         baseline='bm25')
        >>> print(cmp.render('csv', places=3).splitlines()[2])
        dense,AP,0.540,0.493,0.586,bm25,0.131,0.051,0.211,1.166,9,0,1,t,0.005,0.005,True,
        """
        return report.render(self, format, places, show, label)

    def to_dict(self) -> dict[str, Any]:
        """The comparison as plain Python values (NaN as None): what ``render('json')`` writes.

        Returns
        -------
        dict
            The settings (runs, measures, tests, correction, alpha, ...), :attr:`warnings` and every row of
            :meth:`to_dataframe`.

        Examples
        --------
        >>> found = irmetrics.compare('AP', 'examples/qrels.txt',
        ...                           ['examples/run_bm25.txt', 'examples/run_dense.txt']).to_dict()
        >>> found['runs'], found['rows'][1]['wins'], found['rows'][1]['significant']
        (['run_bm25', 'run_dense'], 9, True)
        """
        return report.to_dict(self)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        against = f'against {", ".join(map(repr, self.baselines))}' if self.baselines else 'all pairs'
        return (f'<Comparison: {len(self.runs)} runs x {len(self.measures)} measures over {len(self.query_ids)} '
                f'queries, {against}, tests {", ".join(self.tests)}>')

    def per_query(self) -> Any:
        """The paired per-query values behind the comparison: columns ``measure, query_id`` and one
        per run, one row per (measure, query); NaN where a measure is undefined on a query."""
        import pandas as pd
        n_runs, n_queries, n_measures = self.values.shape
        columns = {'measure': np.repeat([str(m) for m in self.measures], n_queries),
                   'query_id': np.tile(np.array(self.query_ids, dtype=object), n_measures)}
        for r, run in enumerate(self.runs):
            columns[run] = self.values[r].T.ravel()
        return pd.DataFrame(columns)

    def ranks(self, measure: Any) -> Any:
        """The leaderboard of ``measure``: each run's rank with its bootstrap interval over queries (at
        the comparison's ``ci`` level, ``n_resamples`` resamples, its own random stream of ``seed``) and
        whether it is separable from the next run (a pandas DataFrame, best first; see
        :mod:`.leaderboard`)."""
        j = self.measure_index(measure)
        m = self.measures[j]
        check_block_fits(self.settings.budget, 'ranks')
        rng = np.random.default_rng(np.random.SeedSequence(self.settings.seed, spawn_key=(RANKS_STREAM,)))
        return rank_table(self.runs, self.values[:, :, j], m.definition.higher_is_better,
                          self.settings.n_resamples, self.settings.ci, rng, str(m))

    def _repr_html_(self) -> str:
        """What a notebook shows: each test's table of means with letters and its legend."""
        return report.html_summary(self)

    def plot_deltas(self, measure: Any, run: str | None = None, baseline: str | None = None) -> Any:
        """Per-query differences ``run - baseline`` on ``measure``, sorted (topic-by-topic bars); every
        compared run when ``run`` is None.  Returns the matplotlib Figure."""
        return plots.plot_deltas(self, measure, run=run, baseline=baseline)

    def plot_distribution(self, measure: Any, kind: str = 'box') -> Any:
        """Each run's per-query values on ``measure`` as a box (or ``kind='violin'``) with its mean.
        Returns the matplotlib Figure."""
        return plots.plot_distribution(self, measure, kind=kind)

    def measure_index(self, measure: Any) -> int:
        """The column of ``measure`` (a Measure or a measure string)."""
        wanted = parse_measures(measure)
        if len(wanted) != 1 or wanted[0] not in self.measures:
            raise MeasureError(f'{measure} is not one of the compared measures '
                               f'({", ".join(map(str, self.measures))})')
        return self.measures.index(wanted[0])


def build_comparison(runs: Sequence[str], measures: Sequence[Measure], query_ids: Sequence[str],
                     values: np.ndarray, baseline: str | tuple[str, ...] | None, settings: Settings,
                     risk: float | None = None, warnings: Sequence[str] = (),
                     unit: tuple[str, str] = QUERIES) -> Comparison:
    """The :class:`Comparison` of ``values`` (runs x queries x measures, as ``calc`` gives them): its
    statistics computed once, by :func:`~.statistics.paired_statistics`, and with ``risk`` (a risk weight)
    its risk columns, by :func:`~.risk.risk_columns`; ``warnings`` (warned before) and those warned here
    carried with it; ``unit``: what the reports call the queries (singular, plural), e.g. ``('topic', 'topics')``."""
    pairs = pairs_of(runs, baseline)
    with recorded_warnings() as seen:
        stats = paired_statistics(runs, measures, values, pairs, settings, unit)
        columns = None if risk is None else risk_module.risk_columns(measures, values, pairs, risk, settings.alpha,
                                                                     directions(measures))
    return Comparison(runs=tuple(runs), measures=tuple(measures), query_ids=tuple(query_ids), values=values,
                      baseline=baseline, settings=settings, pairs=tuple(pairs), risk=columns,
                      warnings=tuple(dict.fromkeys([*warnings, *seen])), unit=unit, **stats)


COLUMNS = ['run', 'measure', 'mean', 'ci_low', 'ci_high', 'baseline', 'delta', 'delta_ci_low', 'delta_ci_high',
           'effect_size', 'wins', 'ties', 'losses', 'test', 'p_value', 'p_adjusted', 'significant', 'note']
#: The columns ``risk=`` adds (:meth:`Comparison.to_dataframe`).
RISK_COLUMNS = ['risk_weight', 'urisk', 'trisk', 'trisk_p', 'trisk_significant', 'georisk']
#: The random stream of the rank intervals: after the three of the tests and intervals (Settings.generators).
RANKS_STREAM = 3
_NO_COMPARISON = {'baseline': None, 'delta': math.nan, 'delta_ci_low': math.nan, 'delta_ci_high': math.nan,
                  'effect_size': math.nan, 'wins': None, 'ties': None, 'losses': None, 'p_value': math.nan,
                  'p_adjusted': math.nan, 'significant': None, 'note': None}
