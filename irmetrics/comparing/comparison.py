"""Comparing runs: from runs and qrels to paired statistics in one call, :func:`compare`.

The runs are evaluated by one :class:`~irmetrics.Evaluator` (qrels prepared once), so every
per-query value and every mean is exactly what ``calc`` gives: the queries are the qrels', a qrels
query missing from a run scores the measure's missing value (trec_eval ``-c``).  Two runs are
compared on their paired queries: every qrels query, except for the measures that are undefined on
some queries (NaN, ``skips_undefined``), where a query counts when both runs are defined on it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import corrections, intervals, resampling, significance
from .base import (
    Choice,
    ComparisonError,
    Evaluator,
    Float,
    Int,
    Measure,
    MeasureError,
    Option,
    aggregate,
    parse_measures,
)
from .vocabulary import SELF_CORRECTING, TESTS, RunsLike, name_runs

_CLOSED_FORM = {'t': significance.t_test, 'wilcoxon': significance.wilcoxon_test,
                'sign': significance.sign_test}

# The options of a comparison, validated by the constraint objects measure parameters use.
TEST = Option('test', Choice(*TESTS), ComparisonError)
CORRECTION_SCOPE = Option('correction_scope', Choice('measure', 'all'), ComparisonError)
CI_METHOD = Option('ci_method', Choice(*intervals.METHODS), ComparisonError)
ALPHA = Option('alpha', Float(0, 1, low_open=True, high_open=True), ComparisonError)
CI = Option('ci', Float(0, 1, low_open=True, high_open=True), ComparisonError)
N_RESAMPLES = Option('n_resamples', Int(minimum=1), ComparisonError)
SEED = Option('seed', Int(minimum=0), ComparisonError)


def _plain(value: Any) -> Any:
    """A numpy integer as a Python int (the constraints take Python numbers)."""
    return int(value) if isinstance(value, np.integer) else value


@dataclass(frozen=True)
class Settings:
    """How a comparison was made (validated by :meth:`checked`)."""

    tests: tuple[str, ...]
    correction: str | None
    correction_scope: str
    alpha: float
    ci: float
    ci_method: str
    n_resamples: int
    seed: int

    @classmethod
    def checked(cls, test: str | Sequence[str], correction: str | None, correction_scope: str, alpha: float,
                ci: float, ci_method: str, n_resamples: int, seed: int | None) -> Settings:
        tests = (test,) if isinstance(test, str) else tuple(test)
        if not tests:
            raise ComparisonError(f'no test given: use one or several of {", ".join(TESTS)}')
        entropy = np.random.SeedSequence(None if seed is None else SEED.check(_plain(seed))).entropy
        return cls(tests=tuple(dict.fromkeys(TEST.check(t) for t in tests)),
                   correction=corrections.check_method(correction),
                   correction_scope=CORRECTION_SCOPE.check(correction_scope), alpha=ALPHA.check(alpha),
                   ci=CI.check(ci), ci_method=CI_METHOD.check(ci_method),
                   n_resamples=N_RESAMPLES.check(_plain(n_resamples)),
                   seed=int(entropy))  # type: ignore[arg-type]  # seed=None: fresh entropy, kept to reproduce

    def generators(self) -> dict[str, np.random.Generator]:
        """One independent random stream per resampling procedure, so that a test's result does not
        depend on which other tests or intervals were asked for."""
        streams = np.random.SeedSequence(self.seed).spawn(3)
        return dict(zip(('randomization', 'bootstrap', 'tukey'), map(np.random.default_rng, streams), strict=True))


def compare(runs: RunsLike, qrels: Any, measures: Any, *, baseline: str | None = None,
            test: str | Sequence[str] = 't', correction: str | None = None, correction_scope: str = 'measure',
            alpha: float = 0.05, ci: float = 0.95, ci_method: str = 't', n_resamples: int = 10000,
            seed: int | None = 0, provider: str | None = None, duplicates: str = 'error') -> Comparison:
    """Compare runs on ``measures`` against ``qrels`` with paired significance tests.

    ``runs``: ``{name: run}`` or a list of runs (named by their paths, else ``run1``, ``run2``, ...),
    each any run input irmetrics reads.  ``baseline``: a run name, compared with every other run;
    None compares every pair.  ``test``: ``'t'``, ``'wilcoxon'``, ``'sign'``, ``'randomization'``,
    ``'bootstrap'``, ``'tukey'``, or several as a tuple.  ``correction``: None, ``'bonferroni'``,
    ``'holm'``, ``'hommel'``, ``'fdr_bh'`` or ``'fdr_by'`` (statsmodels' names), applied within each
    measure over its comparisons, or with ``correction_scope='all'`` over every comparison of every
    measure.  ``alpha``: the significance level.  ``ci``: the confidence level of the intervals,
    ``ci_method`` ``'t'``, ``'bootstrap'`` (percentile) or ``'bca'``.  ``n_resamples`` and ``seed``
    drive the resampling tests and intervals (same seed, same result).  ``provider`` and
    ``duplicates`` as in :func:`irmetrics.calc`.

    >>> cmp = irmetrics.compare({'bm25': 'bm25.txt', 'dense': 'dense.txt'}, 'qrels.txt',
    ...                         ['AP', 'nDCG@10'], baseline='bm25', correction='holm')  # doctest: +SKIP
    >>> print(cmp); cmp.to_dataframe(); cmp.to_latex()                              # doctest: +SKIP
    """
    settings = Settings.checked(test, correction, correction_scope, alpha, ci, ci_method, n_resamples, seed)
    names, inputs = name_runs(runs)
    if baseline is not None and baseline not in names:
        raise ComparisonError(f'unknown baseline {baseline!r}: the runs are {", ".join(map(repr, names))}')
    evaluator = Evaluator(measures, qrels, provider=provider)
    check_comparable(evaluator.measures)
    results = [evaluator.calc(run, duplicates=duplicates) for run in inputs]
    values = np.stack([r.values for r in results])
    return Comparison(names, evaluator.measures, results[0].query_ids, values, baseline, settings)


def check_comparable(measures: Sequence[Measure]) -> None:
    """Refuse the measures summed over queries (counts): they are not per-query scores to compare."""
    for m in measures:
        if m.definition.aggregate != 'mean':
            raise MeasureError(f'{m} is a count summed over queries, not a per-query score: it cannot be '
                               f'compared between runs (compare a mean measure such as AP or nDCG@10)')


class Comparison:
    """Paired comparisons of runs on several measures: means with intervals, differences with
    intervals and effect sizes, wins/ties/losses by query, p-values before and after correction.

    Built by :func:`compare`.  Runs are indexed in the order given; a comparison is a pair
    ``(base, other)`` of run indices whose difference is ``other - base``: every run against the
    baseline, or every pair ``base < other`` when there is none.  Arrays are indexed
    ``[comparison, measure]``; ``pvalue[test]`` and ``p_adjusted[test]`` likewise.  Render with
    ``print``, :meth:`to_dataframe`, :meth:`to_markdown`, :meth:`to_latex`, :meth:`to_html`,
    :meth:`to_json`; plot with :meth:`plot_deltas` and :meth:`plot_distribution`.
    """

    def __init__(self, runs: list[str], measures: list[Measure], query_ids: list[str], values: np.ndarray,
                 baseline: str | None, settings: Settings):
        self.runs = runs
        self.measures = measures
        self.query_ids = query_ids
        self.values = values                 # (runs, queries, measures), as calc gives them
        self.baseline = baseline
        self.settings = settings
        if len(query_ids) < 2:
            raise ComparisonError(f'the qrels hold {len(query_ids)} query: a comparison needs two or more')
        b = None if baseline is None else runs.index(baseline)
        self.pairs: list[tuple[int, int]] = (
            [(b, o) for o in range(len(runs)) if o != b] if b is not None else
            [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))])
        self._describe_pairs()
        self._describe_runs()
        self._test()

    # --- the statistics -------------------------------------------------------------------------
    def _describe_runs(self) -> None:
        n_runs, _, n_measures = self.values.shape
        self.mean = np.array([[aggregate(m, self.values[r, :, j]) for j, m in enumerate(self.measures)]
                              for r in range(n_runs)])
        columns = self.values.transpose(1, 0, 2).reshape(len(self.query_ids), n_runs * n_measures)
        low, high = self._intervals(columns, ~np.isnan(columns), 'runs')
        self.mean_ci = np.stack([low, high]).reshape(2, n_runs, n_measures)

    def _describe_pairs(self) -> None:
        base, other = (np.array(side) for side in zip(*self.pairs, strict=True))
        diff = self.values[other] - self.values[base]                  # (pairs, queries, measures)
        valid = ~np.isnan(diff)
        self.n_paired = valid.sum(axis=1)
        self._check_paired()
        n_queries = len(self.query_ids)
        self._diffs = diff.transpose(1, 0, 2).reshape(n_queries, -1)      # (queries, pairs * measures)
        self._valid = valid.transpose(1, 0, 2).reshape(n_queries, -1)
        _, delta, sd = intervals.mean_sd(self._diffs, self._valid)
        self.delta = delta.reshape(self.n_paired.shape)
        sd = sd.reshape(self.n_paired.shape)
        with np.errstate(invalid='ignore', divide='ignore'):
            self.effect_size = np.where(sd > 0, self.delta / sd, np.sign(self.delta) * np.inf)
        self.effect_size[self.delta == 0] = 0.0
        better = np.array([1.0 if m.definition.higher_is_better else -1.0 for m in self.measures])
        signed = diff * better[None, None, :]
        self.wins = (signed > 0).sum(axis=1)
        self.losses = (signed < 0).sum(axis=1)
        self.ties = (signed == 0).sum(axis=1)
        low, high = self._intervals(self._diffs, self._valid, 'pairs')
        self.delta_ci = np.stack([low, high]).reshape(2, *self.delta.shape)

    def _check_paired(self) -> None:
        pair, measure = np.unravel_index(np.argmin(self.n_paired), self.n_paired.shape)
        if self.n_paired[pair, measure] < 2:
            b, o = self.pairs[pair]
            raise ComparisonError(f'{self.measures[measure]}: runs {self.runs[b]!r} and {self.runs[o]!r} are both '
                                  f'defined on {self.n_paired[pair, measure]} query; a comparison needs two or '
                                  f'more')

    def _intervals(self, columns: np.ndarray, valid: np.ndarray, key: str) -> tuple[np.ndarray, np.ndarray]:
        method, level = self.settings.ci_method, self.settings.ci
        if method == 't':
            return intervals.t_interval(columns, valid, level)
        replicates = self._bootstrap()[key]
        if method == 'bootstrap':
            return intervals.percentile_interval(replicates, level)
        return intervals.bca_interval(replicates, columns, valid, level)

    def _bootstrap(self) -> dict[str, np.ndarray]:
        """Bootstrap replicates of every run's mean and every mean difference, drawn once and shared
        by the bootstrap intervals and the bootstrap test."""
        if not hasattr(self, '_replicates'):
            n_queries = len(self.query_ids)
            runs = self.values.transpose(1, 0, 2).reshape(n_queries, -1)
            columns = np.concatenate([runs, self._diffs], axis=1)
            valid = ~np.isnan(columns)
            replicates = resampling.bootstrap_means(np.where(valid, columns, 0.0), valid,
                                                    self.settings.n_resamples, self._rng['bootstrap'])
            self._replicates = {'runs': replicates[:, :runs.shape[1]], 'pairs': replicates[:, runs.shape[1]:]}
        return self._replicates

    @property
    def _rng(self) -> dict[str, np.random.Generator]:
        if not hasattr(self, '_generators'):
            self._generators = self.settings.generators()
        return self._generators

    def _test(self) -> None:
        shape = self.delta.shape
        self.pvalue: dict[str, np.ndarray] = {}
        self.enumerated: dict[str, int] = {}     # resampling tests that enumerated every relabelling
        diffs = np.where(self._valid, self._diffs, 0.0)
        for test in self.settings.tests:
            p: list[float] | np.ndarray
            if test in _CLOSED_FORM:
                function = _CLOSED_FORM[test]
                p = [function(column[ok]).pvalue for column, ok in zip(diffs.T, self._valid.T, strict=True)]
            elif test == 'randomization':
                result = resampling.randomization_test(diffs, self.settings.n_resamples, self._rng[test])
                p = result.pvalue
                if result.exact:
                    self.enumerated[test] = result.n_resamples
            elif test == 'bootstrap':
                p = resampling.bootstrap_test(self._diffs, self._valid, self._bootstrap()['pairs'])
            else:
                p = self._tukey()
            self.pvalue[test] = np.asarray(p, dtype=np.float64).reshape(shape)
        self.p_adjusted = {test: self._correct(test, p) for test, p in self.pvalue.items()}
        self.significant = {test: p <= self.settings.alpha for test, p in self.p_adjusted.items()}

    def _tukey(self) -> np.ndarray:
        """Randomised Tukey HSD over all runs, each measure on the queries where every run is defined;
        measures defined on the same queries share their relabellings."""
        defined = ~np.isnan(self.values).any(axis=0)                       # (queries, measures)
        p = np.empty((len(self.pairs), len(self.measures)))
        exact = True
        masks, group = np.unique(defined.T, axis=0, return_inverse=True)
        base, other = (np.array(side) for side in zip(*self.pairs, strict=True))
        for g, mask in enumerate(masks):
            measures = np.flatnonzero(group.ravel() == g)
            if mask.sum() < 2:
                raise ComparisonError(f'{self.measures[measures[0]]}: the runs are all defined on {mask.sum()} '
                                      f'query; the Tukey HSD test needs two or more')
            values = self.values[:, mask][:, :, measures].transpose(1, 0, 2)   # (queries, runs, measures)
            result = resampling.tukey_hsd(values, self.settings.n_resamples, self._rng['tukey'])
            p[:, measures] = result.pvalue[:, base, other].T
            exact = exact and result.exact
        if exact:
            self.enumerated['tukey'] = result.n_resamples
        return p

    def _correct(self, test: str, p: np.ndarray) -> np.ndarray:
        method = self.settings.correction
        if test in SELF_CORRECTING or method is None:
            return p.copy()
        if self.settings.correction_scope == 'all':
            return corrections.adjust_pvalues(p, method)
        return np.stack([corrections.adjust_pvalues(p[:, j], method) for j in range(p.shape[1])], axis=1)

    # --- access ---------------------------------------------------------------------------------
    @property
    def tests(self) -> tuple[str, ...]:
        return self.settings.tests

    @property
    def family_size(self) -> int:
        """How many comparisons each correction adjusts together."""
        per_measure = len(self.pairs)
        return per_measure * len(self.measures) if self.settings.correction_scope == 'all' else per_measure

    def rows(self) -> list[dict[str, Any]]:
        """One record per (test, run, measure, other run) in :meth:`to_dataframe`'s columns."""
        out = []
        for test in self.tests:
            for r, run in enumerate(self.runs):
                for j, measure in enumerate(self.measures):
                    head = {'run': run, 'measure': str(measure), 'mean': float(self.mean[r, j]),
                            'ci_low': float(self.mean_ci[0, r, j]), 'ci_high': float(self.mean_ci[1, r, j])}
                    if run == self.baseline:
                        out.append({**head, **_NO_COMPARISON, 'test': test})
                    for k, (b, o) in enumerate(self.pairs):
                        if r == o or (r == b and self.baseline is None):
                            out.append({**head, **self._pair_record(test, k, j, flip=(r == b))})
        return out

    def _pair_record(self, test: str, k: int, j: int, flip: bool) -> dict[str, Any]:
        """The columns of comparison k on measure j, seen from its ``other`` run (``flip``: its base)."""
        b, o = self.pairs[k]
        sign = -1.0 if flip else 1.0
        low, high = sign * self.delta_ci[:, k, j]
        wins, losses = int(self.wins[k, j]), int(self.losses[k, j])
        return {'baseline': self.runs[o if flip else b], 'delta': sign * float(self.delta[k, j]) + 0.0,
                'delta_ci_low': float(min(low, high)), 'delta_ci_high': float(max(low, high)),
                'effect_size': sign * float(self.effect_size[k, j]) + 0.0,
                'wins': losses if flip else wins, 'ties': int(self.ties[k, j]),
                'losses': wins if flip else losses, 'test': test,
                'p_value': float(self.pvalue[test][k, j]), 'p_adjusted': float(self.p_adjusted[test][k, j]),
                'significant': bool(self.significant[test][k, j])}

    # --- renderers ------------------------------------------------------------------------------
    def to_dataframe(self, wide: bool = False):
        """Tidy (default): one row per (run, measure) and comparison, columns ``run, measure, mean,
        ci_low, ci_high, baseline, delta, delta_ci_low, delta_ci_high, effect_size, wins, ties,
        losses, test, p_value, p_adjusted, significant`` (the comparison's columns are NaN/None on the
        baseline's own row; without a baseline, one row per ordered pair of runs, ``baseline`` naming
        the other run; with several tests, the rows of each test in turn).  ``wide=True``: the means,
        runs x measures."""
        import pandas as pd
        if wide:
            frame = pd.DataFrame(self.mean, index=pd.Index(self.runs, name='run'),
                                 columns=pd.Index([str(m) for m in self.measures], name='measure'))
            return frame
        frame = pd.DataFrame(self.rows(), columns=COLUMNS)
        return frame.astype({'wins': 'Int64', 'ties': 'Int64', 'losses': 'Int64', 'significant': 'boolean'})

    def per_query(self):
        """The paired per-query values behind the comparison: columns ``measure, query_id`` and one
        per run, one row per (measure, query); NaN where a measure is undefined on a query."""
        import pandas as pd
        n_runs, n_queries, n_measures = self.values.shape
        columns = {'measure': np.repeat([str(m) for m in self.measures], n_queries),
                   'query_id': np.tile(np.array(self.query_ids, dtype=object), n_measures)}
        for r, run in enumerate(self.runs):
            columns[run] = self.values[r].T.ravel()
        return pd.DataFrame(columns)

    def to_table(self, places: int = 4) -> str:
        """Runs as rows, measures as columns, significance letters, and a legend (what ``print`` shows)."""
        from .report import render_text
        return render_text(self, places)

    def __str__(self) -> str:
        return self.to_table()

    def __repr__(self) -> str:
        against = f'against {self.baseline!r}' if self.baseline is not None else 'all pairs'
        return (f'<Comparison: {len(self.runs)} runs x {len(self.measures)} measures over {len(self.query_ids)} '
                f'queries, {against}, tests {", ".join(self.tests)}>')

    def to_markdown(self, places: int = 4) -> str:
        """The table as GitHub-flavoured Markdown: best value per measure in bold, letters as
        superscripts, the legend as a paragraph underneath."""
        from .report import render_markdown
        return render_markdown(self, places)

    def to_latex(self, places: int = 4, label: str = 'tab:comparison') -> str:
        """A booktabs ``table``: best value per measure in bold, letters as superscripts, a caption
        naming the test, the correction and alpha (one table per test when there are several)."""
        from .report import render_latex
        return render_latex(self, places, label)

    def to_html(self, places: int = 4) -> str:
        """One self-contained HTML page: the table, every comparison in detail, and the plots (inline
        SVG) when matplotlib is installed."""
        from .report import render_html
        return render_html(self, places)

    def to_json(self) -> str:
        """The settings and every row of :meth:`to_dataframe` as a JSON document (NaN as null)."""
        from .report import render_json
        return render_json(self)

    def plot_deltas(self, measure: Any, run: str | None = None, baseline: str | None = None):
        """Per-query differences ``run - baseline`` on ``measure``, sorted (topic-by-topic bars); every
        compared run when ``run`` is None.  Returns the matplotlib Figure."""
        from .plots import plot_deltas
        return plot_deltas(self, measure, run=run, baseline=baseline)

    def plot_distribution(self, measure: Any, kind: str = 'box'):
        """Each run's per-query values on ``measure`` as a box (or ``kind='violin'``) with its mean.
        Returns the matplotlib Figure."""
        from .plots import plot_distribution
        return plot_distribution(self, measure, kind=kind)

    def measure_index(self, measure: Any) -> int:
        """The column of ``measure`` (a Measure or a measure string)."""
        wanted = parse_measures(measure)
        if len(wanted) != 1 or wanted[0] not in self.measures:
            raise MeasureError(f'{measure} is not one of the compared measures '
                               f'({", ".join(map(str, self.measures))})')
        return self.measures.index(wanted[0])


COLUMNS = ['run', 'measure', 'mean', 'ci_low', 'ci_high', 'baseline', 'delta', 'delta_ci_low', 'delta_ci_high',
           'effect_size', 'wins', 'ties', 'losses', 'test', 'p_value', 'p_adjusted', 'significant']
_NO_COMPARISON = {'baseline': None, 'delta': math.nan, 'delta_ci_low': math.nan, 'delta_ci_high': math.nan,
                  'effect_size': math.nan, 'wins': None, 'ties': None, 'losses': None, 'p_value': math.nan,
                  'p_adjusted': math.nan, 'significant': None}
