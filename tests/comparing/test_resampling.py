"""The resampling procedures against straightforward references and by simulation.

Randomisation test: irmetrics' exact mode equals a plain itertools enumeration; its Monte Carlo
p-values lie within 3 standard errors of the exact value computed by the reference (2^20 sign
vectors, in blocks).  Randomised Tukey HSD: exact mode equals a loop over every relabelling, Monte
Carlo within 3 standard errors, and its family-wise error rate under the null stays at alpha where
uncorrected pairwise tests exceed it.  Intervals: coverage of t, percentile and BCa intervals on
synthetic normal differences, and BCa against a loop reference.  Everything is seeded.
"""
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from irmetrics.comparing import intervals, resampling

#: bytes the resamples may take: enough to hold them whole (the tests of streamed ones: test_replicates.py)
BUDGET = 1 << 30


def exact_randomization_reference(d):
    """p = #{sign vectors s: |sum s_i d_i| >= |sum d_i|} / 2^n, by plain enumeration."""
    observed = abs(sum(d))
    hits = sum(abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed - 1e-12
               for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


def exact_randomization_blocks(d, block=1 << 16):
    """The same exact p-value for larger n, enumerating the 2^n sign vectors block by block."""
    n = d.size
    observed = abs(d.sum())
    hits = 0
    for start in range(0, 2 ** n, block):
        k = np.arange(start, min(2 ** n, start + block))
        signs = np.where((k[:, None] // 2 ** np.arange(n)) % 2 == 1, -1.0, 1.0)
        hits += int((np.abs(signs @ d) >= observed - 1e-12).sum())
    return hits / 2 ** n


@pytest.mark.parametrize('seed', range(6))
def test_exact_randomization_equals_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9))
    columns = [np.round(rng.normal(0.1, 0.3, n), 1 + seed % 2) for _ in range(4)]
    columns.append(np.zeros(n))
    diffs = np.stack(columns, axis=1)
    result = resampling.randomization_test(diffs, 10_000, np.random.default_rng(0))
    assert result.exact
    expected = [exact_randomization_reference(list(c[c != 0]) if diffs.any() else []) for c in columns]
    # queries with a zero difference in every column are left out: their signs change nothing
    assert result.pvalue == pytest.approx(expected, abs=1e-12)
    assert result.pvalue[-1] == 1.0


def test_exact_randomization_ignores_queries_without_difference():
    d = np.array([[0.3], [0.0], [0.1], [0.0], [-0.2]])
    result = resampling.randomization_test(d, 8, np.random.default_rng(0))
    assert result.exact and result.n_resamples == 8          # 2^3 over the three non-zero queries
    assert result.pvalue[0] == pytest.approx(exact_randomization_reference([0.3, 0.1, -0.2]), abs=1e-12)


def test_monte_carlo_randomization_is_within_three_standard_errors_of_exact():
    rng = np.random.default_rng(11)
    n, n_resamples = 20, 20_000
    diffs = np.stack([rng.normal(mu, 0.25, n) for mu in (0.0, 0.05, 0.1, 0.15)] +
                     [np.round(rng.normal(0.1, 0.3, n), 1)], axis=1)
    result = resampling.randomization_test(diffs, n_resamples, np.random.default_rng(5))
    assert not result.exact
    for column, p in zip(diffs.T, result.pvalue, strict=True):
        exact = exact_randomization_blocks(column)
        se = math.sqrt(exact * (1 - exact) / n_resamples)
        assert abs(p - exact) <= 3 * se + 1 / n_resamples, (p, exact, se)


def test_randomization_is_reproducible_and_seed_dependent():
    diffs = np.random.default_rng(3).normal(0.05, 0.2, (40, 3))
    a = resampling.randomization_test(diffs, 2000, np.random.default_rng(1)).pvalue
    b = resampling.randomization_test(diffs, 2000, np.random.default_rng(1)).pvalue
    c = resampling.randomization_test(diffs, 2000, np.random.default_rng(2)).pvalue
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_randomization_blocks_bound_memory(monkeypatch):
    """Small blocks give the same p-values as one block: the blocks only split the work."""
    diffs = np.random.default_rng(4).normal(0.05, 0.2, (30, 2))
    whole = resampling.randomization_test(diffs, 500, np.random.default_rng(9)).pvalue
    monkeypatch.setattr(resampling, 'BLOCK_ELEMENTS', 30 * 7)
    assert np.array_equal(resampling.randomization_test(diffs, 500, np.random.default_rng(9)).pvalue, whole)


# --- randomised Tukey HSD -------------------------------------------------------------------------
def tukey_reference(x):
    """Exact randomised Tukey HSD p-values (runs x runs) of x (queries x runs), by a loop over every
    relabelling: each query's values permuted among the runs."""
    n_queries, n_runs = x.shape
    means = x.mean(axis=0)
    ranges = []
    for perms in itertools.product(itertools.permutations(range(n_runs)), repeat=n_queries):
        permuted = np.array([[x[q, perm[r]] for r in range(n_runs)] for q, perm in enumerate(perms)])
        m = permuted.mean(axis=0)
        ranges.append(m.max() - m.min())
    ranges = np.array(ranges)
    p = np.ones((n_runs, n_runs))
    for i in range(n_runs):
        for j in range(n_runs):
            p[i, j] = np.mean(ranges >= abs(means[i] - means[j]) - 1e-12)
    return p


@pytest.mark.parametrize('seed', range(3))
def test_exact_tukey_equals_loop_reference(seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.random((4, 3)) + np.array([0.0, 0.2, 0.5]), 2)       # 6^4 = 1296 relabellings
    values = np.stack([x, np.round(x ** 2, 1)], axis=2)                    # two measures
    result = resampling.tukey_hsd(values, 2000, np.random.default_rng(0), BUDGET)
    assert result.exact and result.n_resamples == 6 ** 4
    for m in range(2):
        np.testing.assert_allclose(result.pvalue[m], tukey_reference(values[:, :, m]), atol=1e-12, rtol=0)


def test_monte_carlo_tukey_is_within_three_standard_errors():
    rng = np.random.default_rng(8)
    x = rng.random((6, 3)) + np.array([0.0, 0.15, 0.4])                   # 6^6 = 46,656 relabellings
    n_resamples = 10_000
    result = resampling.tukey_hsd(x[:, :, None], n_resamples, np.random.default_rng(1), BUDGET)
    assert not result.exact
    exact = tukey_reference(x)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        se = math.sqrt(exact[i, j] * (1 - exact[i, j]) / n_resamples)
        assert abs(result.pvalue[0, i, j] - exact[i, j]) <= 3 * se + 1 / n_resamples


def test_tukey_controls_the_family_wise_error_under_the_null():
    """Five exchangeable runs on 15 queries, 400 experiments: Tukey HSD rejects some pair in about
    alpha of them; uncorrected pairwise randomisation tests on the same data reject far more often
    (so the simulation can tell)."""
    rng = np.random.default_rng(2024)
    experiments, n_queries, n_runs, alpha = 400, 15, 5, 0.05
    tukey_any = pairwise_any = 0
    pairs = list(itertools.combinations(range(n_runs), 2))
    for _ in range(experiments):
        x = rng.normal(0, 1, (n_queries, 1)) + rng.normal(0, 0.5, (n_queries, n_runs))
        p = resampling.tukey_hsd(x[:, :, None], 400, rng, BUDGET).pvalue[0]
        tukey_any += any(p[i, j] <= alpha for i, j in pairs)
        diffs = np.stack([x[:, j] - x[:, i] for i, j in pairs], axis=1)
        pairwise_any += bool((resampling.randomization_test(diffs, 400, rng).pvalue <= alpha).any())
    se = math.sqrt(alpha * (1 - alpha) / experiments)
    assert tukey_any / experiments <= alpha + 3 * se
    assert pairwise_any / experiments > alpha + 3 * se


# --- intervals ------------------------------------------------------------------------------------
def coverage(low, high, truth):
    return float(np.mean((low <= truth) & (truth <= high)))


def test_t_interval_coverage_on_normal_differences():
    rng = np.random.default_rng(100)
    n, experiments, mu = 15, 4000, 0.03
    d = rng.normal(mu, 0.1, (n, experiments))
    low, high = intervals.t_interval(d, np.ones_like(d, dtype=bool), 0.95)
    assert abs(coverage(low, high, mu) - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / experiments)


@pytest.mark.parametrize('method', ['bootstrap', 'bca'])
def test_bootstrap_interval_coverage_on_normal_differences(method):
    """Percentile and BCa intervals of the mean of 60 normal differences cover the mean ~95% of the
    time (both undercover slightly at this size, by about 1 point: within the tolerance)."""
    rng = np.random.default_rng(200)
    n, experiments, mu = 60, 2000, 0.03
    d = rng.normal(mu, 0.1, (n, experiments))
    valid = np.ones_like(d, dtype=bool)
    replicates = resampling.bootstrap_means(d, valid, 2000, np.random.default_rng(1), BUDGET)
    if method == 'bootstrap':
        low, high = intervals.percentile_interval(replicates, 0.95)
    else:
        low, high = intervals.bca_interval(replicates, d, valid, 0.95)
    assert abs(coverage(low, high, mu) - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / experiments)


def test_bootstrap_replicates_are_means_of_resamples():
    """Each replicate is the mean of n draws of the column's valid values; columns with the same
    valid queries share draws, and invalid rows never enter."""
    x = np.array([[1.0, 10.0, 5.0], [2.0, 20.0, np.nan], [4.0, 40.0, 7.0]])
    valid = ~np.isnan(x)
    reps = resampling.bootstrap_means(np.where(valid, x, 0), valid, 500, np.random.default_rng(3), BUDGET).held
    np.testing.assert_allclose(reps[:, 1], 10 * reps[:, 0])         # shared draws
    assert set(np.round(reps[:, 2], 9)) <= {5.0, 6.0, 7.0}           # only 5 and 7 are drawn
    assert reps[:, 0].min() >= 1 and reps[:, 0].max() <= 4


def bca_reference(x, replicates, level):
    """BCa for one column, from the textbook: z0 from the replicates, a from jackknife means."""
    theta = x.mean()
    z0 = stats.norm.ppf((np.sum(replicates < theta) + np.sum(replicates <= theta)) / (2 * len(replicates)))
    jack = np.array([np.delete(x, i).mean() for i in range(len(x))])
    dev = jack.mean() - jack
    a = np.sum(dev ** 3) / (6 * np.sum(dev ** 2) ** 1.5)
    out = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        z = z0 + stats.norm.ppf(q)
        out.append(np.quantile(replicates, stats.norm.cdf(z0 + z / (1 - a * z))))
    return out


def test_bca_interval_equals_textbook_reference():
    rng = np.random.default_rng(5)
    x = rng.exponential(0.2, (25, 3))                                  # skewed: a and z0 matter
    valid = np.ones_like(x, dtype=bool)
    replicates = resampling.bootstrap_means(x, valid, 3000, np.random.default_rng(6), BUDGET)
    low, high = intervals.bca_interval(replicates, x, valid, 0.9)
    for j in range(3):
        np.testing.assert_allclose([low[j], high[j]], bca_reference(x[:, j], replicates.held[:, j], 0.9), rtol=1e-12)
    plow, phigh = intervals.percentile_interval(replicates, 0.9)
    assert not np.allclose(low, plow)                                   # the corrections changed something


def test_bootstrap_test_p_value_is_the_shift_method():
    d = np.array([[0.2], [0.1], [-0.05], [0.3]])
    valid = np.ones_like(d, dtype=bool)
    replicates = resampling.bootstrap_means(d, valid, 999, np.random.default_rng(0), BUDGET)
    p = resampling.bootstrap_test(d, valid, replicates)
    reps = replicates.held
    expected = (1 + np.sum(np.abs(reps[:, 0] - d.mean()) >= abs(d.mean()) - 1e-12)) / 1000   # ties count
    assert p[0] == pytest.approx(expected, abs=1e-12)
