"""Intervals that respect a measure's bounds: clipped to the range of the quantity, which
keeps the coverage of the method (the true value is in the range)."""
import numpy as np
import pytest
from repo_paths import ROOT

import irmetrics as irm

RUNS = [str(ROOT / 'examples' / f'run_{name}.txt') for name in ('bm25', 'dense')]
QRELS = str(ROOT / 'examples' / 'qrels.txt')


@pytest.mark.parametrize('method', ['t', 'bootstrap', 'bca'])
def test_means_and_differences_stay_in_range(method):
    with pytest.warns(irm.IrmetricsWarning):            # RR: 3 queries with a difference
        cmp = irm.compare(['RR', 'AP', 'P@5'], QRELS, RUNS, ci_method=method)
    assert (cmp.mean_ci >= 0).all() and (cmp.mean_ci <= 1).all()
    assert (cmp.delta_ci >= -1).all() and (cmp.delta_ci <= 1).all()
    assert (cmp.mean_ci[0] <= cmp.mean).all() and (cmp.mean <= cmp.mean_ci[1]).all()


def test_the_t_interval_of_rr_is_clipped_at_one():
    with pytest.warns(irm.IrmetricsWarning):
        cmp = irm.compare('RR', QRELS, RUNS)
    assert cmp.mean_ci[1, 1, 0] == 1.0 and cmp.mean_ci[0, 1, 0] == pytest.approx(0.74918952)


def test_clipping_keeps_the_coverage():
    """Simulated: per-query values in [0, 1] from a skewed distribution with a known mean near 1; the
    clipped t interval covers the mean exactly as often as the raw one (never less)."""
    from irmetrics.comparing import intervals
    rng = np.random.default_rng(1)
    n, trials, true_mean = 8, 4000, 0.9
    values = np.where(rng.random((n, trials)) < true_mean, 1.0, 0.0)          # Bernoulli(0.9) per query
    low, high = intervals.t_interval(values, np.ones_like(values, dtype=bool), 0.95)
    raw = (low <= true_mean) & (true_mean <= high)
    clipped = (np.clip(low, 0, 1) <= true_mean) & (true_mean <= np.clip(high, 0, 1))
    assert (raw == clipped).all() and (np.clip(high, 0, 1) < high).any()
