"""Swap rates: how often two disjoint halves of the queries order a pair of runs differently.

E. M. Voorhees and C. Buckley, The effect of topic set size on retrieval experiment error, SIGIR 2002;
M. Sanderson and J. Zobel, Information retrieval system evaluation: effort, sensitivity, and
reliability, SIGIR 2005.  In each trial the queries are shuffled and split into two disjoint halves of
``size`` queries each (the rest left out); for every pair of runs (i, j) and measure, ``d1`` and ``d2`` are
the differences ``mean_j - mean_i`` on the first and on the second half.  The pair is put in the bin of
``|d1|`` (bins ``[k w, (k + 1) w)`` of width w, 0.01 by default as in Voorhees and Buckley; a difference on
an edge in the bin above it), and it is a
swap when the second half orders it the other way, ``d1 d2 < 0``.  The swap rate of a bin is its swaps
over its (pair, trial) observations: the chance that a difference of that size on ``size`` queries is
reversed on another ``size`` queries.  A pair with ``d1 = 0`` has no order to reverse and is left out, and
``d2 = 0`` is no swap (a tie is not the opposite order).

Vectorised over trials: each block of trials is a 0/1 matrix of half memberships multiplied with the
per-query values of every run and measure at once.  The means are sums in floating point, so a difference
that is 0 or exactly on an edge in exact arithmetic (frequent with measures such as P@10, whose values are
tenths) may come out a few units in the last place off; a difference within the rounding bound of a sum
of n numbers (``n eps sum |x|`` for each mean) of 0 or of an edge is taken to be on it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..algebra.measure import Measure
from ..api.argument_order import measures_first
from ..api.options import EvaluationOptions, Options
from ..comparing.toolkit import BLOCK_ELEMENTS, RunsLike, check_block_fits, checked_seed, evaluated, pairs_of
from ..constraints import Float, Int, Option
from ..data.budget import memory_budget
from ..errors import ComparisonError, OptionError
from ..rendering.result import Table, Tabled
from .discriminative_power import check_two_runs

if TYPE_CHECKING:
    from typing_extensions import Unpack

TRIALS = Option('trials', Int(minimum=1, maximum=10 ** 7))
BIN_WIDTH = Option('bin_width', Float(0, math.inf, low_open=True, high_open=True))
SIZE = Option('size', Int(minimum=1))
COLUMNS = ('measure', 'low', 'high', 'pairs', 'swaps', 'swap_rate')
#: the most bins of the difference counted (a bin width so small that a difference falls beyond is an error)
MAX_BINS = 10 ** 6
_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True, eq=False)
class SwapRates(Tabled):
    """Swaps by bin of the difference on the first half (see the module docstring).

    ``observations[j, k]`` and ``swaps[j, k]``: the (pair, trial) observations of measure j whose
    ``|d1|`` fell in bin k (``[k w, (k + 1) w)``), and how many of them the second half reversed.
    """

    runs: tuple[str, ...]
    measures: tuple[Measure, ...]
    trials: int
    size: int
    bin_width: float
    seed: int
    n_queries: int
    observations: np.ndarray
    swaps: np.ndarray

    @property
    def swap_rate(self) -> np.ndarray:
        """swaps / observations of each (measure, bin); NaN for an empty bin."""
        with np.errstate(invalid='ignore', divide='ignore'):
            return np.where(self.observations > 0, self.swaps / np.maximum(self.observations, 1), np.nan)

    def table(self) -> Table:
        """One row per (measure, non-empty bin): measure, low, high, pairs, swaps, swap rate."""
        rate = self.swap_rate
        rows = [[str(m), round(k * self.bin_width, 12), round((k + 1) * self.bin_width, 12),
                 int(self.observations[j, k]), int(self.swaps[j, k]), float(rate[j, k])]
                for j, m in enumerate(self.measures) for k in map(int, np.flatnonzero(self.observations[j]))]
        notes = (f'{self.trials:,} trials of two disjoint halves of {self.size} of the {self.n_queries} queries, '
                 f'seed {self.seed}; {len(self.runs)} runs. pairs: (pair, trial) observations whose difference on '
                 f'the first half is in [low, high); swaps: those the second half orders the other way\n')
        return Table(COLUMNS, rows, notes=notes)

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """``{measure: [{low, high, pairs, swaps, swap_rate}, ...]}``, non-empty bins in order."""
        out: dict[str, list[dict[str, Any]]] = {str(m): [] for m in self.measures}
        for row in self.table().rows:
            out[row[0]].append(dict(zip(COLUMNS[1:], row[1:], strict=True)))
        return out

    def __repr__(self) -> str:
        overall = ', '.join(f'{m} {s / max(o, 1):.3f}' for m, s, o in
                            zip(self.measures, self.swaps.sum(axis=1), self.observations.sum(axis=1), strict=True))
        return (f'<SwapRates: {len(self.runs)} runs, {self.trials:,} trials of {self.size} + {self.size} of '
                f'{self.n_queries} queries, bins of {self.bin_width:g}; swaps overall: {overall}>')


@measures_first('swap_rates(runs, qrels, measures)')
def swap_rates(measures: Any, qrels: Any, runs: RunsLike, *, trials: int = 1000, size: int | None = None,
               bin_width: float = 0.01, seed: int | None = 0, **options: Unpack[EvaluationOptions]) -> SwapRates:
    """Swap rates of ``measures`` over the pairs of ``runs``, by bins of the difference in means.

    Each trial splits the queries at random into two disjoint halves; a pair of runs swaps when the second
    half orders it the other way from the first (see :mod:`irmetrics.trust.swap_rates`):
    Swap rate(bin) = #{(pair, trial): |d1| in bin, d1 d2 < 0} / #{(pair, trial): |d1| in bin, d1 != 0}.
    The queries are the qrels' (a query missing from a run scores the measure's missing value).  A measure
    undefined on some queries is averaged over the queries of a half where it is defined; a half with none
    gives no observation.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures.
    qrels : any qrels input
        The judgments; their queries are split.
    runs : dict or list of run inputs
        ``{name: run}`` or a list of runs, two or more (named as :func:`irmetrics.compare` names them).
    trials : int
        Random splits.
    size : int or None
        Queries in each half (default: half of the queries, rounded down; at most that).
    bin_width : float
        The width w of the bins of ``|d1|``.
    seed : int or None
        The same seed draws the same halves.
    **options
        The shared options (:mod:`irmetrics.api.options`).

    Returns
    -------
    SwapRates
        Per measure and bin: the observations, the swaps and the swap rate.

    Raises
    ------
    ArgumentOrderError
        For a call with the runs first (``swap_rates(runs, qrels, measures)``, before 1.0).
    ComparisonError
        For fewer than two runs, fewer than two queries, or a ``size`` above half of the queries.

    References
    ----------
    E. M. Voorhees and C. Buckley, The effect of topic set size on retrieval experiment error, SIGIR 2002;
    M. Sanderson and J. Zobel, Information retrieval system evaluation: effort, sensitivity, and
    reliability, SIGIR 2005.

    Examples
    --------
    >>> irmetrics.swap_rates(['AP'], 'examples/qrels.txt', ['examples/run_bm25.txt', 'examples/run_dense.txt'],
    ...                      trials=100)
    <SwapRates: 2 runs, 100 trials of 5 + 5 of 10 queries, bins of 0.01; swaps overall: AP 0.000>
    """
    trials, bin_width = TRIALS.check(trials), BIN_WIDTH.check(bin_width)
    size = None if size is None else SIZE.check(size)
    seed = checked_seed(seed)
    check_block_fits(memory_budget(options.get('memory_limit')), 'swap_rates')
    check_two_runs(runs, 'swap rates')
    found = evaluated(measures, qrels, runs, None, Options.of(options, 'swap_rates'))
    names, chosen, values = found.runs, found.measures, found.values
    n_queries = values.shape[1]
    if n_queries < 2:
        raise ComparisonError(f'the qrels hold {n_queries} query: swap rates need two or more (two halves)')
    if size is None:
        size = n_queries // 2
    elif size > n_queries // 2:
        raise ComparisonError(f'size={size!r}: each half holds 1 to {n_queries // 2} of the {n_queries} queries '
                              f'(two disjoint halves)')
    observations, swaps = count_swaps(values, pairs_of(names, None), size, trials, bin_width,
                                      np.random.default_rng(seed))
    return SwapRates(runs=tuple(names), measures=tuple(chosen), trials=trials, size=size, bin_width=bin_width,
                     seed=seed, n_queries=n_queries, observations=observations, swaps=swaps)


def random_halves(n_queries: int, size: int, trials: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two (trials x size) arrays of query indices: each trial's first and second half, disjoint, drawn
    by shuffling the queries (one uniform random permutation per trial)."""
    order = np.argsort(rng.random((trials, n_queries)), axis=1)
    return order[:, :size], order[:, size:2 * size]


def count_swaps(values: np.ndarray, pairs: list[tuple[int, int]], size: int, trials: int, bin_width: float,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(observations, swaps), each measures x bins, of ``values`` (runs x queries x measures)."""
    n_runs, n_queries, n_measures = values.shape
    valid = ~np.isnan(values)
    columns = np.where(valid, values, 0.0).transpose(1, 0, 2).reshape(n_queries, -1)   # queries x runs*measures
    defined = valid.transpose(1, 0, 2).reshape(n_queries, -1).astype(np.float64)
    base, other = (np.array(side) for side in zip(*pairs, strict=True))
    observations = np.zeros((n_measures, 0), dtype=np.int64)
    swaps = observations.copy()
    rows = max(1, BLOCK_ELEMENTS // max(n_queries, n_runs * n_measures, len(pairs) * n_measures))
    for start in range(0, trials, rows):
        block = min(rows, trials - start)
        first, second = random_halves(n_queries, size, block, rng)
        (d1, slack1), (d2, slack2) = (_pair_differences(_membership(h, n_queries), columns, defined, base, other,
                                                        n_runs) for h in (first, second))
        ok = np.isfinite(d1) & np.isfinite(d2) & (np.abs(d1) > slack1)     # (trials, pairs, measures)
        scaled = np.where(ok, np.floor((np.abs(d1) + slack1) / bin_width), 0)
        if scaled.max(initial=0) >= MAX_BINS:
            largest = float(np.abs(d1)[ok].max())
            raise OptionError(f'bin_width={bin_width:g}: a difference of {largest:g} falls in bin '
                              f'{scaled.max():.3g}, beyond the {MAX_BINS:,} bins counted at most: give a bin width '
                              f'of at least {2 * largest / MAX_BINS:.2g}')
        bins = scaled.astype(np.int64)
        flipped = ok & (d1 * d2 < 0) & (np.abs(d2) > slack2)
        width = max(observations.shape[1], int(bins.max(initial=0)) + 1)
        observations, swaps = _widen(observations, width), _widen(swaps, width)
        for j in range(n_measures):
            observations[j] += np.bincount(bins[..., j][ok[..., j]], minlength=width)
            swaps[j] += np.bincount(bins[..., j][flipped[..., j]], minlength=width)
    return observations, swaps


def _membership(half: np.ndarray, n_queries: int) -> np.ndarray:
    """The (trials x queries) 0/1 matrix of which queries each trial's half holds."""
    member = np.zeros((half.shape[0], n_queries))
    member[np.arange(half.shape[0])[:, None], half] = 1.0
    return member


def _pair_differences(member: np.ndarray, columns: np.ndarray, defined: np.ndarray, base: np.ndarray,
                      other: np.ndarray, n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """(trials, pairs, measures): each pair's difference in means over each trial's half (NaN where a run
    is defined on none of its queries), and the bound of its rounding."""
    with np.errstate(invalid='ignore', divide='ignore'):
        counts = member @ defined
        means = (member @ columns) / counts                                 # trials x runs*measures
        slack = 2 * member.sum(axis=1)[:, None] * _EPS * (member @ np.abs(columns)) / counts
    means, slack = (x.reshape(member.shape[0], n_runs, -1) for x in (means, slack))
    return means[:, other] - means[:, base], slack[:, other] + slack[:, base]


def _widen(counts: np.ndarray, width: int) -> np.ndarray:
    return np.pad(counts, ((0, 0), (0, width - counts.shape[1]))) if counts.shape[1] < width else counts
