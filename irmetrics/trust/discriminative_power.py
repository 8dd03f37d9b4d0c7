"""Discriminative power: how many pairs of runs a measure tells apart, and how large a difference it needs.

For a set of runs on a set of queries, the discriminative power of a measure is the share of the pairs of
runs whose difference on it is significant at level alpha (T. Sakai, Evaluating evaluation metrics based
on the bootstrap, SIGIR 2006, with the paired bootstrap test; T. Sakai, Evaluation with informational and
navigational intents, WWW 2012, with the randomised Tukey HSD test over all runs at once).  The tests are
:mod:`irmetrics.comparing`'s own, drawn as :func:`irmetrics.compare` draws them: for the same seed, a pair
is significant here exactly when the Comparison of the same runs reports it significant.

Sakai (2006) also estimates the difference in means a pair needs to be significant: in each pair's null
distribution, the value that only ``B alpha`` resamples reach.  Here that is the critical value of each
test as irmetrics computes its p-values ``(1 + b) / (1 + B)`` (``b / B`` when every relabelling was
enumerated): the ``(K + 1)``-th largest value of the null statistic, K the most resamples at least as
extreme that still give ``p <= alpha`` (for ``alpha = 0.05`` and ``B = 1000``, the 50th largest, Sakai's
``B alpha``).  A pair whose mean difference exceeds its critical difference is significant.  For the
bootstrap test (the shift method on the mean difference, :func:`~irmetrics.comparing.toolkit.bootstrap_test`;
Sakai 2006 bootstrapped the studentised statistic instead) the null statistic is ``|dbar* - dbar|`` of each
pair, and the measure's required difference is the largest over the pairs (Sakai 2006's estimate); for the
Tukey HSD test it is the range of the runs' means under relabelling, one critical difference for every pair.
A measure undefined on some queries (NaN) is tested, as by ``compare``, on each pair's paired queries
(bootstrap) or on the queries where every run is defined (Tukey HSD), and its critical differences are on
those queries too.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..algebra.measure import Measure
from ..api.argument_order import measures_first
from ..api.options import EvaluationOptions, Options
from ..comparing.toolkit import (
    TESTS,
    Replicates,
    RunsLike,
    Settings,
    Transform,
    bootstrap_test,
    evaluated,
    exact_fewest,
    fewest_queries,
    mean_sd,
    nonzero_differences,
    pair_columns,
    pair_replicates,
    pairs_of,
    significant_where,
    tukey_groups,
)
from ..constraints import Choice, Option
from ..errors import ComparisonError, warn
from ..rendering.result import Table, Tabled, frame_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The tests discriminative power is measured with (Sakai 2006: the bootstrap; Sakai 2012: Tukey HSD).
POWER_TESTS = ('tukey', 'bootstrap')
POWER_TEST = Option('test', Choice(*POWER_TESTS))
COLUMNS = ('measure', 'pairs', 'significant', 'power', 'required_difference', 'fewest_queries')
PAIR_COLUMNS = ('measure', 'run', 'other', 'difference', 'critical_difference', 'p_value', 'significant')


@dataclass(frozen=True, eq=False)
class DiscriminativePower(Tabled):
    """The discriminative power of each measure over the pairs of runs (see the module docstring).

    Arrays are indexed ``[pair, measure]``; ``pairs[k] = (i, j)`` are indices into ``runs`` (i < j), and
    ``difference`` is the mean of ``runs[j]`` minus that of ``runs[i]`` over their paired queries.
    """

    runs: tuple[str, ...]
    measures: tuple[Measure, ...]
    pairs: tuple[tuple[int, int], ...]
    test: str
    alpha: float
    n_resamples: int
    seed: int
    n_queries: int
    #: the fewest queries with a difference for which the test can be significant (pairs with fewer are not)
    fewest_queries: int
    difference: np.ndarray
    pvalue: np.ndarray
    significant: np.ndarray
    critical_difference: np.ndarray

    @property
    def power(self) -> np.ndarray:
        """Each measure's share of the pairs that are significantly different (Sakai 2006)."""
        return cast(np.ndarray, self.significant.mean(axis=0))

    @property
    def required_difference(self) -> np.ndarray:
        """Each measure's estimated difference required for significance: the largest critical difference
        over the pairs (Sakai 2006; inf when alpha cannot be reached with ``n_resamples``)."""
        return cast(np.ndarray, self.critical_difference.max(axis=0))

    def table(self, *, by_pair: bool = False) -> Table:
        """One row per measure (:data:`COLUMNS`), or with ``by_pair`` one per (measure, pair) (:data:`PAIR_COLUMNS`)."""
        pairs = f'{len(self.pairs)} pair{"s" if len(self.pairs) > 1 else ""}'
        notes = (f'{TESTS[self.test]}, alpha = {self.alpha:g}, {self.n_resamples:,} resamples, seed {self.seed}; '
                 f'{len(self.runs)} runs ({pairs}), {self.n_queries} queries.\npower: the share of the pairs '
                 f'significantly different; required_difference: the largest difference in means a pair needs to '
                 f'be significant (Sakai 2006)\n')
        if by_pair:
            rows = [[str(m), self.runs[a], self.runs[b], float(self.difference[k, j]),
                     float(self.critical_difference[k, j]), float(self.pvalue[k, j]), bool(self.significant[k, j])]
                    for j, m in enumerate(self.measures) for k, (a, b) in enumerate(self.pairs)]
            return Table(PAIR_COLUMNS, rows, numeric_from=3, notes=notes)
        rows = [[str(m), len(self.pairs), int(self.significant[:, j].sum()), float(self.power[j]),
                 float(self.required_difference[j]), self.fewest_queries] for j, m in enumerate(self.measures)]
        return Table(COLUMNS, rows, notes=notes)

    def to_dataframe(self, *, by_pair: bool = False) -> Any:
        """The table (one row per measure, or per measure and pair) as a DataFrame."""
        return frame_of(self.table(by_pair=by_pair))

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{measure: {column: value}}`` of the table's rows."""
        return {row[0]: dict(zip(COLUMNS[1:], row[1:], strict=True)) for row in self.table().rows}

    def __repr__(self) -> str:
        powers = ', '.join(f'{m} {p:.3f}' for m, p in zip(self.measures, self.power, strict=True))
        return (f'<DiscriminativePower: {TESTS[self.test]}, {len(self.runs)} runs, {len(self.pairs)} pair(s), '
                f'{self.n_queries} queries, alpha = {self.alpha:g}: {powers}>')


@measures_first('discriminative_power(runs, qrels, measures)')
def discriminative_power(measures: Any, qrels: Any, runs: RunsLike, *, test: str = 'tukey', alpha: float = 0.05,
                         n_resamples: int = 1000, seed: int | None = 0,
                         **options: Unpack[EvaluationOptions]) -> DiscriminativePower:
    """The discriminative power of ``measures``: per measure, the share of the pairs of ``runs`` that are
    significantly different at ``alpha``, and the difference in means required for significance.

    The queries are the qrels' (a query missing from a run scores the measure's missing value), paired per
    pair as in ``compare``.  Power = #{pairs (i, j): p_ij <= alpha} / #pairs, with p_ij the test's p-value,
    as ``compare`` decides significance: a pair whose runs differ on too few queries for the exact
    randomisation test to reach alpha (``2^(1-n) > alpha``, :mod:`irmetrics.comparing.small_samples`) is
    never counted significant.  The required difference is described in the module docstring
    (:mod:`irmetrics.trust.discriminative_power`).

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures whose power is estimated.
    qrels : any qrels input
        The judgments.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs (named as :func:`irmetrics.compare` names them), two or more (with
        two there is one pair, and the power is 0 or 1).
    test : str
        ``'tukey'`` (randomised Tukey HSD over all runs, which controls the family-wise error over the
        pairs; Sakai 2012) or ``'bootstrap'`` (the paired bootstrap test of each pair, uncorrected, as in
        Sakai 2006).
    alpha : float
        The significance level.
    n_resamples : int
        B, the resamples of the test (Sakai used 1000).
    seed : int or None
        The same seed gives the same draws as :func:`irmetrics.compare` with the same test, and so the same
        significant pairs.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    DiscriminativePower
        Per measure: ``power``, ``required_difference`` and the significant pairs, with the p-values.

    Raises
    ------
    ArgumentOrderError
        When called as ``discriminative_power(runs, qrels, measures)``, the order before 1.0.
    ComparisonError
        For fewer than two runs.

    Warns
    -----
    IrmetricsWarning
        Where pairs rest on fewer queries than the test supports (``fewest_queries``: more for the
        bootstrap, whose resamples must be distinct enough), saying how many.

    References
    ----------
    T. Sakai, Evaluating evaluation metrics based on the bootstrap, SIGIR 2006; T. Sakai, Evaluation with
    informational and navigational intents, WWW 2012; B. A. Carterette, Multiple testing in statistical
    analysis of systems-based information retrieval experiments, ACM TOIS 30(1), 2012.

    Examples
    --------
    >>> found = irmetrics.discriminative_power(['AP', 'P@10'], 'examples/qrels.txt',
    ...                                        ['examples/run_bm25.txt', 'examples/run_dense.txt'], test='bootstrap',
    ...                                        n_resamples=200)
    >>> found.power.tolist(), found.required_difference.round(4).tolist()
    ([1.0, 1.0], [0.0656, 0.1])
    """
    POWER_TEST.check(test)
    check_two_runs(runs, 'discriminative power')
    settings = Settings.checked(test, None, 'measure', alpha, 0.95, 't', n_resamples, seed, options.get('memory_limit'),
                                'discriminative_power')
    found = evaluated(measures, qrels, runs, None, Options.of(options, 'discriminative_power'))
    return power_of(found.runs, found.measures, found.values, settings)


def check_two_runs(runs: Any, what: str) -> None:
    """Refuse, naming ``what`` needs them, fewer than two runs (a pair to tell apart)."""
    if isinstance(runs, (Mapping, Sequence)) and not isinstance(runs, (str, bytes, os.PathLike)) and len(runs) < 2:
        raise ComparisonError(f'{what} needs two runs or more (a pair to tell apart), got {len(runs)}')


def power_of(runs: Sequence[str], measures: Sequence[Measure], values: np.ndarray,
             settings: Settings) -> DiscriminativePower:
    """:class:`DiscriminativePower` of ``values`` (runs x queries x measures, as ``calc`` gives them)."""
    n_queries = values.shape[1]
    if n_queries < 2:
        raise ComparisonError(f'the qrels hold {n_queries} query: discriminative power needs two or more')
    test, alpha = settings.tests[0], settings.alpha
    pairs = pairs_of(runs, None)
    diffs, _ = pair_columns(values, pairs)
    valid = ~np.isnan(diffs)
    shape = (len(pairs), len(measures))
    _, difference, _ = mean_sd(diffs, valid)
    if test == 'tukey':
        pvalue, critical = _tukey(measures, values, pairs, settings)
    else:
        replicates = pair_replicates(values, pairs, settings)
        pvalue = bootstrap_test(diffs, valid, replicates).reshape(shape)
        allowed = most_extreme_allowed(alpha, settings.n_resamples, exact=False)
        critical = critical_value(replicates, allowed, lambda block, c: np.abs(block - difference[c])).reshape(shape)
    nonzero = nonzero_differences(values, pairs)
    fewest = fewest_queries(test, alpha, settings.n_resamples)
    _warn_few(nonzero, fewest, test, alpha)
    significant = significant_where({test: pvalue}, nonzero, alpha)[test]
    for array in (difference, pvalue, significant, critical):
        array.flags.writeable = False
    return DiscriminativePower(runs=tuple(runs), measures=tuple(measures), pairs=tuple(pairs), test=test, alpha=alpha,
                               n_resamples=settings.n_resamples, seed=settings.seed, n_queries=n_queries,
                               fewest_queries=fewest, difference=difference.reshape(shape), pvalue=pvalue,
                               significant=significant, critical_difference=critical)


def _tukey(measures: Sequence[Measure], values: np.ndarray, pairs: Sequence[tuple[int, int]],
           settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    """p-values and critical differences of the randomised Tukey HSD test, drawn as a comparison draws them."""
    base, other = (np.array(side) for side in zip(*pairs, strict=True))
    pvalue = np.empty((len(pairs), len(measures)))
    critical = np.empty_like(pvalue)
    rng = settings.generators()['tukey']
    for columns, mask, result in tukey_groups(measures, values, settings.n_resamples, rng, settings.budget,
                                              ranked=True):
        pvalue[:, columns] = result.pvalue[:, base, other].T
        allowed = most_extreme_allowed(settings.alpha, result.n_resamples, result.exact)
        ranges = cast(Replicates, result.null)                           # tukey_hsd keeps its ranges of sums
        critical[:, columns] = critical_value(ranges, allowed) / mask.sum()
    return pvalue, critical


def most_extreme_allowed(alpha: float, n_resamples: int, exact: bool) -> int:
    """K: the most resamples at least as extreme as the observation for which the p-value, ``b / B``
    (``exact``) or ``(1 + b) / (1 + B)``, is still at most ``alpha``; -1 when none is."""
    def reaches(b: int) -> bool:                  # the p-value of b resamples at least as extreme is <= alpha
        return (b / n_resamples if exact else (b + 1) / (n_resamples + 1)) <= alpha
    b = min(int(alpha * (n_resamples + 1)), n_resamples)      # within one or two of K: then stepped to it
    while b >= 0 and not reaches(b):
        b -= 1
    while b < n_resamples and reaches(b + 1):
        b += 1
    return b


def critical_value(null: Replicates, allowed: int, transform: Transform | None = None) -> np.ndarray:
    """The ``(allowed + 1)``-th largest value of each column of ``null`` (resamples x columns), or of
    ``transform(block, columns)`` of it: a statistic above it is reached by at most ``allowed`` resamples;
    inf when ``allowed`` is -1."""
    if allowed < 0:
        return np.full(null.width, np.inf)
    return cast(np.ndarray, null.smallest(np.full(null.width, null.rows - 1 - allowed), transform)[0])


def _warn_few(nonzero: np.ndarray, fewest: int, test: str, alpha: float) -> None:
    few = nonzero < fewest
    if few.any():
        floor = exact_fewest(alpha)
        warn(f'discriminative power: {int(few.sum())} of {few.size} (pair, measure) comparisons rest on fewer than '
             f'{fewest} queries with a difference (as few as {int(nonzero.min())}), fewer than the {TESTS[test]} '
             f'supports at alpha = {alpha:g}; those with fewer than {floor} are counted as not significant')
