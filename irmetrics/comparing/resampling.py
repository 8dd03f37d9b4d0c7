"""Resampling tests and bootstrap replicates, vectorised over every comparison at once.

Resamples are drawn in blocks of at most :data:`BLOCK_ELEMENTS` numbers, so memory stays bounded
whatever the number of queries or resamples, and one block serves every column (every comparison
of every measure): the randomisation test multiplies a block of sign flips (0/1: which queries
change sign) with the matrix of per-query differences, the bootstrap a block of resampling counts
with the matrix of values.  What a statistic keeps of every resample (bootstrap means, Tukey's
ranges) is a :class:`~.replicates.Replicates`: held when it fits the memory budget, else drawn again
block by block for each statistic, with the same numbers.
No Python loop runs per resample or per query.

Monte Carlo p-values are ``(1 + b) / (1 + B)`` for b of B resamples at least as extreme as the
observation, so that they are never 0 and the test stays valid (B. Phipson and G. K. Smyth,
Permutation p-values should never be zero, Stat. Appl. Genet. Mol. Biol. 9(1), 2010; A. C. Davison
and D. V. Hinkley, Bootstrap Methods and their Application, 1997, eq. 4.11).  Enumerated p-values
are the exact fraction ``b / B``.  "At least as extreme" allows for rounding: two sums of the same
numbers in another order differ by at most ``n eps sum|d|``, so a resample counts when its
statistic reaches the observed one minus that bound.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from .intervals import mean_sd
from .replicates import BLOCK_ELEMENTS, Replicates

_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True)
class ResamplingResult:
    """p-values of a resampling test, and how they were obtained.

    ``exact``: every relabelling was enumerated (``n_resamples`` of them) and ``pvalue`` is the exact
    permutation p-value; otherwise ``n_resamples`` random relabellings gave Monte Carlo estimates.
    ``null``: the statistic of every relabelling, where a test keeps it (Tukey HSD: the range of the
    runs' sums over the queries, relabellings x measures), from which the difference a pair needs to
    be significant is read (:mod:`irmetrics.trust.discriminative_power`).
    """

    pvalue: np.ndarray
    n_resamples: int
    exact: bool
    null: Replicates | None = None


def _blocks(total: int, width: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive blocks of rows of ``width`` entries each."""
    rows = max(1, BLOCK_ELEMENTS // max(width, 1))
    for start in range(0, total, rows):
        yield start, min(total, start + rows)


def _random_flips(rows: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """A (rows, n) 0/1 matrix of independent fair coin flips (one random bit each), as float64."""
    packed = rng.integers(0, 256, size=(rows, (n + 7) // 8), dtype=np.uint8)
    return np.unpackbits(packed, axis=1, count=n).astype(np.float64)


def _enumerated_flips(start: int, stop: int, n: int) -> np.ndarray:
    """Flip sets number ``start`` to ``stop - 1`` of the 2^n: bit i of the number flips query i."""
    numbers = np.arange(start, stop, dtype=np.int64)[:, None]
    return ((numbers >> np.arange(n, dtype=np.int64)) & 1).astype(np.float64)


def randomization_test(diffs: np.ndarray, n_resamples: int, rng: np.random.Generator) -> ResamplingResult:
    """The paired randomisation (permutation) test of every column of ``diffs``, two-sided.

    ``diffs`` is a (queries x columns) matrix of per-query differences, 0 where a column's query is
    not paired.  Under the null hypothesis the two runs' values of a query are exchangeable, so each
    difference keeps or flips its sign with probability 1/2; the p-value is the probability of
    ``|sum_i s_i d_i| >= |sum_i d_i|`` over sign vectors s.  Queries whose differences are all zero
    change nothing and are left out; when the n other queries allow ``2^n <= n_resamples`` sign
    vectors, all are enumerated (exact test), else ``n_resamples`` random ones are drawn.  Flipping
    the signs of a set F of queries turns the sum into ``sum_i d_i - 2 sum_{i in F} d_i``: one
    product of a 0/1 block with the differences, cheaper than a block of +-1 signs.

    R. A. Fisher, The Design of Experiments, 1935; M. D. Smucker, J. Allan and B. Carterette, A
    comparison of statistical significance tests for information retrieval evaluation, CIKM 2007.
    """
    d = diffs[(diffs != 0).any(axis=1)]
    n = d.shape[0]
    observed = d.sum(axis=0)
    threshold = np.abs(observed) - 2 * n * _EPS * np.abs(d).sum(axis=0)     # rounding of three sums
    exact = n < 62 and 2 ** n <= n_resamples
    total = 2 ** n if exact else n_resamples
    hits = np.zeros(d.shape[1], dtype=np.int64)
    for start, stop in _blocks(total, n):
        flips = _enumerated_flips(start, stop, n) if exact else _random_flips(stop - start, n, rng)
        hits += (np.abs(observed - 2 * (flips @ d)) >= threshold).sum(axis=0)
    pvalue = hits / total if exact else (hits + 1) / (total + 1)
    return ResamplingResult(pvalue, total, exact)


def bootstrap_means(values: np.ndarray, valid: np.ndarray, n_resamples: int, rng: np.random.Generator,
                    budget: int, ranked: bool = False) -> Replicates:
    """(n_resamples x columns) bootstrap replicates of the mean of each column of ``values``, within
    ``budget`` bytes (:class:`~.replicates.Replicates`; ``ranked``: their quantiles will be asked).

    A replicate of a column draws its n valid queries (``valid``, same shape as ``values``) n times
    with replacement and averages them.  Columns with the same valid queries share the draws: each
    block of draws becomes a matrix of counts (how often each query was drawn) multiplied with the
    columns' values.
    """
    masks, group = np.unique(valid.T, axis=0, return_inverse=True)

    def draws(generator: np.random.Generator) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        for g, mask in enumerate(masks):
            columns = np.flatnonzero(group.ravel() == g)
            x = values[mask][:, columns]
            n = x.shape[0]
            for start, stop in _blocks(n_resamples, n):
                rows = stop - start
                drawn = generator.integers(0, n, size=(rows, n)) + (np.arange(rows) * n)[:, None]
                counts = np.bincount(drawn.ravel(), minlength=rows * n).reshape(rows, n)
                yield start, stop, columns, (counts @ x) / n
    return Replicates(n_resamples, values.shape[1], draws, rng, budget, ranked)


def bootstrap_test(diffs: np.ndarray, valid: np.ndarray, replicates: Replicates) -> np.ndarray:
    """Two-sided p-values of the paired bootstrap test (shift method) of every column of ``diffs``.

    ``replicates`` are :func:`bootstrap_means` of ``diffs``.  The null distribution of the mean
    difference is that of the bootstrap means shifted to mean zero, ``dbar* - dbar``; the p-value is
    ``(1 + #{|dbar* - dbar| >= |dbar|}) / (1 + B)``.

    B. Efron and R. J. Tibshirani, An Introduction to the Bootstrap, 1993, ch. 16; T. Sakai,
    Evaluating evaluation metrics based on the bootstrap, SIGIR 2006; J. Urbano, H. Lima and
    A. Hanjalic, Statistical significance testing in information retrieval: an empirical analysis
    of type I, type II and type III errors, SIGIR 2019.
    """
    n, observed, _ = mean_sd(diffs, valid)
    scale = np.where(valid, np.abs(diffs), 0.0).max(axis=0, initial=0.0)
    threshold = np.abs(observed) - 4 * n * _EPS * scale
    hits = replicates.total(lambda block, c: (np.abs(block - observed[c]) >= threshold[c]).sum(axis=0))
    return (hits + 1) / (replicates.rows + 1)


def tukey_hsd(values: np.ndarray, n_resamples: int, rng: np.random.Generator, budget: int,
              ranked: bool = False) -> ResamplingResult:
    """Randomised Tukey HSD p-values of every pair of runs, for each measure.

    ``values`` is (queries x runs x measures), every value defined.  Under the null hypothesis the
    runs' values of a query are exchangeable, so each query's values are permuted among the runs
    independently; for each relabelling the statistic is the range of the runs' means,
    ``max_r mean_r - min_r mean_r``.  The p-value of runs i and j is the probability that this range
    reaches ``|mean_i - mean_j|``; comparing every pair with the distribution of the largest
    difference controls the family-wise error over all pairs, so no further correction applies.
    When the ``(runs!)^queries`` relabellings are at most ``n_resamples`` they are all enumerated.
    Returns p-values of shape (measures, runs, runs), and the ranges within ``budget`` bytes (``ranked``:
    their order statistics will be asked).

    B. A. Carterette, Multiple testing in statistical analysis of systems-based information
    retrieval experiments, ACM TOIS 30(1), 2012; J. W. Tukey, The problem of multiple comparisons,
    1953.
    """
    n_queries, n_runs, n_measures = values.shape
    sums = values.sum(axis=0)                                              # (runs, measures)
    threshold = np.abs(sums[:, None, :] - sums[None, :, :]) \
        - n_queries * _EPS * np.abs(values).sum(axis=(0, 1))
    space = math.factorial(n_runs) ** n_queries if n_runs < 8 and n_queries < 64 else math.inf
    exact = space <= n_resamples
    total = int(space) if exact else n_resamples
    table = np.array(list(permutations(range(n_runs)))) if exact else None   # every order of the runs
    rows_of_queries = np.arange(n_queries)[:, None]
    every_measure = np.arange(n_measures)

    def draws(generator: np.random.Generator) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        for start, stop in _blocks(total, n_queries * n_runs * n_measures):
            if table is not None:
                numbers = np.arange(start, stop, dtype=np.int64)[:, None]
                digits = (numbers // len(table) ** np.arange(n_queries, dtype=np.int64)) % len(table)
                order = table[digits]                                       # (rows, queries, runs)
            else:
                order = np.argsort(generator.random((stop - start, n_queries, n_runs)), axis=2)
            permuted = values[rows_of_queries, order].sum(axis=1)           # (rows, runs, measures)
            yield start, stop, every_measure, permuted.max(axis=1) - permuted.min(axis=1)
    ranges = Replicates(total, n_measures, draws, rng, budget, ranked)
    hits = ranges.total(lambda block, m: (block[:, None, None, :] >= threshold[None, :, :, m]).sum(axis=0))
    hits = hits.transpose(2, 0, 1)                                          # (measures, runs, runs)
    pvalue = hits / total if exact else (hits + 1) / (total + 1)
    return ResamplingResult(pvalue, total, exact, ranges)
