"""A leaderboard with rank intervals: how sure each run's place is, and which neighbours are separable.

Each run's rank by a measure's mean is resampled by the bootstrap over queries (B resamples of the n
queries on which every run is defined, the same resample for every run, so that the runs' means stay
paired): a rank is one plus the number of runs with a strictly higher mean in that resample (ties
share the better rank; for measures where lower is better, lower means rank first).  A run's rank
interval is the ``(1-level)/2`` and ``(1+level)/2`` quantiles of its B ranks; two runs next to each
other in the observed order are *separable* when the upper one is ahead in at least ``(1+level)/2`` of
the resamples (one-sided at half the level: a run is ahead or not).

The bootstrap of ranks follows Hall and Miller's "Using the bootstrap to quantify the authority of an
empirical ranking" (Annals of Statistics 37(6B), 2009); with few queries the intervals are wide, and the
comparison warns below the bootstrap's fewest queries (:mod:`.small_samples`).
"""
from __future__ import annotations

from typing import Any, cast

import numpy as np

from .base import ComparisonError, warn
from .small_samples import bootstrap_fewest

#: Entries of one block of resampled means (resamples x runs): bounded memory whatever B.
BLOCK = 1 << 22


def ranked_quantile(count: np.ndarray, q: float) -> np.ndarray:
    """Each row's quantile ``q`` of values ``0, 1, ...`` held ``count[row]`` times each: the value at 0-based
    position ``ceil(B q - 1)`` of the B sorted values (numpy's ``inverted_cdf``, computed as numpy computes it),
    from the counts alone (the ranks of every resample are never held)."""
    total = int(count[0].sum())
    index = np.float64(total) * np.float64(q) - 1
    position = min(max(int(np.floor(index)) + (index != np.floor(index)), 0), total - 1)
    return cast(np.ndarray, np.argmax(np.cumsum(count, axis=1) > position, axis=1))


def rank_table(runs: tuple[str, ...], values: np.ndarray, higher_is_better: bool, n_resamples: int,
               level: float, rng: np.random.Generator, name: str) -> Any:
    """The leaderboard of ``values`` (runs x queries) as a pandas DataFrame, best run first: ``run,
    mean, rank, rank_low, rank_high, ahead_of_next`` (the share of resamples in which the run is
    ahead of the next one), ``separable_from_next``."""
    import pandas as pd
    defined = ~np.isnan(values).any(axis=0)
    x = values[:, defined]
    n = x.shape[1]
    if n < 2:
        raise ComparisonError(f'{name}: the runs are all defined on {n} query: ranks need two or more')
    if n < bootstrap_fewest(n_resamples):
        warn(f'{name}: rank intervals from {n} queries, fewer than the {bootstrap_fewest(n_resamples)} the bootstrap '
             f'of {n_resamples:,} resamples supports: they say less than they seem')
    sign = 1.0 if higher_is_better else -1.0
    mean = x.mean(axis=1)
    order = np.argsort(-sign * mean, kind='stable')
    count = np.zeros((len(runs), len(runs) + 1), dtype=np.int64)          # resamples of each run at each rank
    ahead = np.zeros(len(runs) - 1)
    rows = max(1, BLOCK // (n * len(runs) + len(runs) ** 2))
    for start in range(0, n_resamples, rows):
        stop = min(n_resamples, start + rows)
        drawn = rng.integers(0, n, size=(stop - start, n))
        means = sign * x[:, drawn].mean(axis=2).T                            # (resamples, runs)
        ranks = 1 + (means[:, None, :] > means[:, :, None]).sum(axis=2)
        for r in range(len(runs)):
            count[r] += np.bincount(ranks[:, r], minlength=len(runs) + 1)
        ahead += (means[:, order[:-1]] > means[:, order[1:]]).sum(axis=0)
    tail = (1 - level) / 2
    low, high = (ranked_quantile(count, q) for q in (tail, 1 - tail))
    observed = 1 + (sign * mean[None, :] > sign * mean[:, None]).sum(axis=1)
    share = np.append(ahead / n_resamples, np.nan)
    return pd.DataFrame({'run': [runs[i] for i in order], 'mean': mean[order], 'rank': observed[order],
                         'rank_low': low[order].astype(np.int64), 'rank_high': high[order].astype(np.int64),
                         'ahead_of_next': share,
                         'separable_from_next': [bool(s >= 1 - tail) if s == s else None for s in share]})
