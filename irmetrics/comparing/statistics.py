"""The statistics of a comparison, computed once by pure functions from the per-query values.

:func:`paired_statistics` takes the values of every run (runs x queries x measures, as ``calc`` gives
them) and returns every number a :class:`~.comparison.Comparison` holds: each run's mean and its
interval, each pair's mean difference, interval, effect size (paired Cohen's d) and wins/ties/losses,
and the p-values of each test before and after correction.  Resampling draws from one random stream
per procedure (:meth:`~.settings.Settings.generators`), and the bootstrap replicates are drawn once
and shared by the bootstrap intervals and the bootstrap test, so a result never depends on which
other tests or intervals were asked for.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

import numpy as np

from . import corrections, intervals, resampling, significance, small_samples
from .base import ComparisonError, Measure, aggregate, warn
from .replicates import Replicates
from .settings import Settings
from .vocabulary import SELF_CORRECTING, TESTS

#: The interval methods as the warnings name them.
INTERVAL_NAMES = {'t': "Student's t", 'bootstrap': 'percentile bootstrap', 'bca': 'BCa bootstrap'}
_CLOSED_FORM = {'t': significance.t_test, 'wilcoxon': significance.wilcoxon_test,
                'sign': significance.sign_test}


class _Draws:
    """The random streams and the bootstrap replicates of one comparison, each made on first use."""

    def __init__(self, settings: Settings, runs: np.ndarray, diffs: np.ndarray):
        self.settings, self.runs, self.diffs = settings, runs, diffs
        self.streams = settings.generators()
        self._replicates: dict[str, Replicates] | None = None

    def bootstrap(self) -> dict[str, Replicates]:
        """Bootstrap replicates of every run's mean and every mean difference, drawn once (held, or drawn
        again for each statistic, within the settings' memory budget)."""
        if self._replicates is None:
            columns = np.concatenate([self.runs, self.diffs], axis=1)
            valid = ~np.isnan(columns)
            replicates = resampling.bootstrap_means(np.where(valid, columns, 0.0), valid, self.settings.n_resamples,
                                                    self.streams['bootstrap'], self.settings.budget,
                                                    ranked=self.settings.ci_method != 't')
            n = self.runs.shape[1]
            self._replicates = {'runs': replicates.part(slice(None, n)), 'pairs': replicates.part(slice(n, None))}
        return self._replicates


def pairs_of(runs: Sequence[str], baseline: str | Sequence[str] | None) -> list[tuple[int, int]]:
    """The compared pairs (base, other): every run against the baseline (each of several baselines,
    and the baselines among themselves, each pair once, the earlier run as base), or every pair
    base < other."""
    if baseline is None:
        return [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    bases = [list(runs).index(b) for b in ((baseline,) if isinstance(baseline, str) else baseline)]
    out = []
    for b in bases:
        for o in range(len(runs)):
            if o != b and not (o in bases and o < b):
                out.append((b, o) if o not in bases or b < o else (o, b))
    return out


#: What the values of a comparison are over, unless told otherwise (singular, plural).
QUERIES = ('query', 'queries')


def paired_statistics(runs: Sequence[str], measures: Sequence[Measure], values: np.ndarray,
                      pairs: Sequence[tuple[int, int]], settings: Settings,
                      unit: tuple[str, str] = QUERIES) -> dict[str, Any]:
    """Every statistic of a comparison (see the module docstring), by name; ``unit`` names the queries in
    the warnings."""
    n_runs, n_queries, n_measures = values.shape
    if n_queries < 2:
        raise ComparisonError(f'the qrels hold {n_queries} {unit[0]}: a comparison needs two or more')
    diffs, diff = pair_columns(values, pairs)                         # (queries, pairs * measures)
    valid = ~np.isnan(diff)
    n_paired = valid.sum(axis=1)
    _check_paired(runs, measures, pairs, n_paired)
    valid_diffs = valid.transpose(1, 0, 2).reshape(n_queries, -1)
    draws = _Draws(settings, _run_columns(values), diffs)
    out: dict[str, Any] = {'n_paired': n_paired}
    out.update(_differences(measures, diff, diffs, valid_diffs, n_paired.shape, settings, draws))
    out['mean'] = np.array([[aggregate(m, values[r, :, j]) for j, m in enumerate(measures)]
                            for r in range(n_runs)])
    low, high = _interval(draws.runs, ~np.isnan(draws.runs), 'runs', settings, draws)
    low, high = _within(low, high, measures, n_runs, difference=False)
    out['mean_ci'] = np.stack([low, high]).reshape(2, n_runs, n_measures)
    out.update(_tests(measures, values, pairs, diffs, valid_diffs, n_paired.shape, settings, draws, unit[1]))
    return out


def _check_paired(runs: Sequence[str], measures: Sequence[Measure], pairs: Sequence[tuple[int, int]],
                  n_paired: np.ndarray) -> None:
    pair, measure = (int(i) for i in np.unravel_index(np.argmin(n_paired), n_paired.shape))
    if n_paired[pair, measure] < 2:
        b, o = pairs[pair]
        raise ComparisonError(f'{measures[measure]}: runs {runs[b]!r} and {runs[o]!r} are both defined on '
                              f'{n_paired[pair, measure]} query; a comparison needs two or more')


def _differences(measures: Sequence[Measure], diff: np.ndarray, diffs: np.ndarray, valid: np.ndarray,
                 shape: tuple[int, ...], settings: Settings, draws: _Draws) -> dict[str, np.ndarray]:
    """Mean differences, their intervals, effect sizes (delta / sd of the differences) and wins,
    ties and losses (by the measure's direction)."""
    _, delta, sd = intervals.mean_sd(diffs, valid)
    delta, sd = delta.reshape(shape), sd.reshape(shape)
    with np.errstate(invalid='ignore', divide='ignore'):
        effect_size = np.where(sd > 0, delta / sd, np.sign(delta) * np.inf)
    effect_size[delta == 0] = 0.0
    signed = diff * directions(measures)[None, None, :]
    low, high = _interval(diffs, valid, 'pairs', settings, draws)
    low, high = _within(low, high, measures, len(low) // len(measures), difference=True)
    return {'delta': delta, 'effect_size': effect_size, 'wins': (signed > 0).sum(axis=1),
            'losses': (signed < 0).sum(axis=1), 'ties': (signed == 0).sum(axis=1),
            'delta_ci': np.stack([low, high]).reshape(2, *delta.shape)}


def _within(low: np.ndarray, high: np.ndarray, measures: Sequence[Measure], groups: int,
            difference: bool) -> tuple[np.ndarray, np.ndarray]:
    """Intervals kept within the range their quantity can take: a mean within its measure's bounds
    ``[a, b]``, a difference of means within ``[a - b, b - a]`` (columns: ``groups`` x measures).  The
    true value lies in that range, so an interval clipped to it covers the true value whenever the
    interval did: the coverage is unchanged, and only Student's t interval (symmetric) can need it."""
    a, b = np.array([m.definition.bounds or (-np.inf, np.inf) for m in measures], dtype=np.float64).T
    lower, upper = (a - b, b - a) if difference else (a, b)                # [-inf, inf] stays unbounded
    lower, upper = np.tile(lower, groups), np.tile(upper, groups)
    return np.clip(low, lower, upper), np.clip(high, lower, upper)


def _interval(columns: np.ndarray, valid: np.ndarray, key: str, settings: Settings,
              draws: _Draws) -> tuple[np.ndarray, np.ndarray]:
    method, level = settings.ci_method, settings.ci
    _warn_few_for_interval(valid, settings, 'the means' if key == 'runs' else 'the differences')
    if method == 't':
        return intervals.t_interval(columns, valid, level)
    replicates = draws.bootstrap()[key]
    if method == 'bootstrap':
        return intervals.percentile_interval(replicates, level)
    return intervals.bca_interval(replicates, columns, valid, level)


def _tests(measures: Sequence[Measure], values: np.ndarray, pairs: Sequence[tuple[int, int]], diffs: np.ndarray,
           valid: np.ndarray, shape: tuple[int, ...], settings: Settings, draws: _Draws,
           queries: str) -> dict[str, Any]:
    """p-values of each test, corrected, and which are significant; the resampling tests that
    enumerated every relabelling (``enumerated``: test -> number of relabellings); ``queries``: what the
    warnings call the queries."""
    pvalue: dict[str, np.ndarray] = {}
    enumerated: dict[str, int] = {}
    zeroed = np.where(valid, diffs, 0.0)
    for test in settings.tests:
        p: list[float] | np.ndarray
        if test in _CLOSED_FORM:
            function = _CLOSED_FORM[test]
            p = [function(column[ok]).pvalue for column, ok in zip(zeroed.T, valid.T, strict=True)]
        elif test == 'randomization':
            result = resampling.randomization_test(zeroed, settings.n_resamples, draws.streams[test])
            p = result.pvalue
            if result.exact:
                enumerated[test] = result.n_resamples
        elif test == 'bootstrap':
            p = resampling.bootstrap_test(diffs, valid, draws.bootstrap()['pairs'])
        else:
            p, exact_count = _tukey(measures, values, pairs, settings, draws)
            if exact_count is not None:
                enumerated[test] = exact_count
        pvalue[test] = np.asarray(p, dtype=np.float64).reshape(shape)
    p_adjusted = {test: _correct(test, p, settings) for test, p in pvalue.items()}
    nonzero = nonzero_differences(values, pairs)
    fewest = {test: small_samples.fewest_queries(test, settings.alpha, settings.n_resamples) for test in settings.tests}
    _warn_few(measures, nonzero, fewest, settings, queries)
    return {'pvalue': pvalue, 'enumerated': enumerated, 'p_adjusted': p_adjusted, 'fewest_queries': fewest,
            'significant': significant_where(p_adjusted, nonzero, settings.alpha)}


def directions(measures: Sequence[Measure]) -> np.ndarray:
    """+1 for each measure where higher is better, -1 where lower is: a difference times it is a gain."""
    return np.array([1.0 if m.definition.higher_is_better else -1.0 for m in measures])


def nonzero_differences(values: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """(pairs, measures): the queries on which each pair's runs are both defined and differ."""
    base, other = (np.array(side) for side in zip(*pairs, strict=True))
    diff = values[other] - values[base]
    return cast(np.ndarray, ((diff != 0) & ~np.isnan(diff)).sum(axis=1))


def significant_where(p_adjusted: dict[str, np.ndarray], nonzero: np.ndarray, alpha: float) -> dict[str, np.ndarray]:
    """Each test's significant comparisons: corrected p at most ``alpha``, and never where the exact
    randomisation test on the ``nonzero`` differences could not reach ``alpha`` (:mod:`.small_samples`)."""
    reach = small_samples.reachable(nonzero, alpha)
    return {test: (p <= alpha) & reach for test, p in p_adjusted.items()}


def _warn_few(measures: Sequence[Measure], nonzero: np.ndarray, fewest: dict[str, int], settings: Settings,
              queries: str) -> None:
    """One warning per test whose comparisons rest on fewer queries with a difference than it supports."""
    for test, needed in fewest.items():
        few = nonzero < needed
        if few.any():
            worst = int(nonzero.min())
            floor = float(small_samples.smallest_exact_p(np.array(worst)))
            what = (f'and {small_samples.distinct_resamples(max(worst, 1)):,} distinct resamples for '
                    f'{settings.n_resamples:,} draws' if test == 'bootstrap' else '')
            warn(f'{TESTS[test]}: {int(few.sum())} of {few.size} comparisons rest on fewer than {needed} {queries} '
                 f'with a difference (as few as {worst}: the exact randomisation test\'s smallest p-value is then '
                 f'{floor:.3g}{", " + what if what else ""}); the test supports {needed} or more at alpha = '
                 f'{settings.alpha:g}, and no comparison the exact test could not find significant is reported '
                 f'significant')


def _warn_few_for_interval(valid: np.ndarray, settings: Settings, what: str) -> None:
    needed = small_samples.fewest_for_interval(settings.ci_method, settings.n_resamples)
    counts = valid.sum(axis=0)
    if (counts < needed).any():
        warn(f'{INTERVAL_NAMES[settings.ci_method]} intervals of {what} from as few as {int(counts.min())} '
             f'queries: the method supports {needed} or more (with {settings.n_resamples:,} resamples); the '
             f'intervals are given but say less than they seem')


def _tukey(measures: Sequence[Measure], values: np.ndarray, pairs: Sequence[tuple[int, int]], settings: Settings,
           draws: _Draws) -> tuple[np.ndarray, int | None]:
    """Randomised Tukey HSD over all runs (:func:`tukey_groups`), the p-values of ``pairs``.  Also the
    number of relabellings when every group enumerated them all."""
    p = np.empty((len(pairs), len(measures)))
    exact = True
    base, other = (np.array(side) for side in zip(*pairs, strict=True))
    for columns, _, result in tukey_groups(measures, values, settings.n_resamples, draws.streams['tukey'],
                                           settings.budget):
        p[:, columns] = result.pvalue[:, base, other].T
        exact = exact and result.exact
    return p, (result.n_resamples if exact else None)


def tukey_groups(measures: Sequence[Measure], values: np.ndarray, n_resamples: int, rng: np.random.Generator,
                 budget: int, ranked: bool = False
                 ) -> Iterator[tuple[np.ndarray, np.ndarray, resampling.ResamplingResult]]:
    """Randomised Tukey HSD over all runs of ``values`` (runs x queries x measures), each measure on the
    queries where every run is defined; measures defined on the same queries share their relabellings.
    Yields each group's measure columns, its query mask and its :class:`~.resampling.ResamplingResult`,
    the groups drawing from ``rng`` in turn (as a comparison draws them), each within ``budget`` bytes
    (``ranked``: the order statistics of the ranges will be asked)."""
    defined = ~np.isnan(values).any(axis=0)                       # (queries, measures)
    masks, group = np.unique(defined.T, axis=0, return_inverse=True)
    for g, mask in enumerate(masks):
        columns = np.flatnonzero(group.ravel() == g)
        if mask.sum() < 2:
            raise ComparisonError(f'{measures[columns[0]]}: the runs are all defined on {mask.sum()} '
                                  f'query; the Tukey HSD test needs two or more')
        chosen = values[:, mask][:, :, columns].transpose(1, 0, 2)   # (queries, runs, measures)
        yield columns, mask, resampling.tukey_hsd(chosen, n_resamples, rng, budget, ranked)


def pair_replicates(values: np.ndarray, pairs: Sequence[tuple[int, int]], settings: Settings) -> Replicates:
    """The bootstrap replicates of every pair's mean difference (resamples x pairs * measures, pair-major)
    exactly as a comparison of ``values`` with ``settings`` draws them for its bootstrap test."""
    diffs, _ = pair_columns(values, pairs)
    return _Draws(settings, _run_columns(values), diffs).bootstrap()['pairs']


def pair_columns(values: np.ndarray, pairs: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The per-query differences ``other - base`` of every pair (pairs x queries x measures), and as
    columns (queries x pairs * measures)."""
    base, other = (np.array(side) for side in zip(*pairs, strict=True))
    diff = values[other] - values[base]
    return diff.transpose(1, 0, 2).reshape(values.shape[1], -1), diff


def _run_columns(values: np.ndarray) -> np.ndarray:
    """Every run's values as columns (queries x runs * measures)."""
    return cast(np.ndarray, values.transpose(1, 0, 2).reshape(values.shape[1], -1))


def _correct(test: str, p: np.ndarray, settings: Settings) -> np.ndarray:
    method = settings.correction
    if test in SELF_CORRECTING or method is None:
        return cast(np.ndarray, p.copy())
    if settings.correction_scope == 'all':
        return corrections.adjust_pvalues(p, method)
    return np.stack([corrections.adjust_pvalues(p[:, j], method) for j in range(p.shape[1])], axis=1)
