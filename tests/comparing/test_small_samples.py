"""Small samples: each test and interval knows the fewest queries it supports, warns below
them, and no comparison is reported significant where the exact randomisation test on the same
differences could not be (its smallest two-sided p-value on n non-zero differences is 2^(1-n))."""
import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.stats

import irmetrics as irm
from irmetrics.comparing import resampling, small_samples


@pytest.mark.parametrize('n', range(2, 9))
def test_the_floor_is_the_smallest_p_value_of_the_exact_test(n):
    """2^(1-n) is what the exact randomisation test gives for n differences of one sign, here and in
    scipy's permutation test (every sign flip enumerated)."""
    d = np.arange(1.0, n + 1)
    ours = resampling.randomization_test(d[:, None], 10_000, np.random.default_rng(0))
    assert ours.exact and ours.pvalue[0] == pytest.approx(2.0 ** (1 - n))
    reference = scipy.stats.permutation_test((d,), np.mean, permutation_type='samples', n_resamples=np.inf)
    assert reference.pvalue == pytest.approx(float(small_samples.smallest_exact_p(np.array(n))))


@pytest.mark.parametrize('alpha, fewest', [(0.05, 6), (0.01, 8), (0.1, 5), (0.5, 2), (0.001, 11)])
def test_the_fewest_queries_of_the_exact_bound(alpha, fewest):
    assert small_samples.exact_fewest(alpha) == fewest
    assert 2.0 ** (1 - fewest) <= alpha < 2.0 ** (2 - fewest)


@pytest.mark.parametrize('n', range(1, 7))
def test_distinct_bootstrap_resamples_are_the_multisets(n):
    assert small_samples.distinct_resamples(n) == sum(1 for _ in itertools.combinations_with_replacement(range(n), n))


def test_the_bootstrap_supports_as_many_queries_as_its_resamples_need():
    assert small_samples.bootstrap_fewest(10_000) == 9                      # C(17, 9) = 24,310; C(15, 8) = 6,435
    assert math.comb(15, 8) < 10_000 <= math.comb(17, 9)
    assert small_samples.fewest_queries('bootstrap', 0.05, 10_000) == 9
    assert small_samples.fewest_queries('bootstrap', 0.05, 100) == 6      # the exact bound is then the larger
    assert small_samples.fewest_for_interval('t', 10_000) == 2
    assert small_samples.fewest_for_interval('bca', 1) == 3


def collection(n: int):
    """n queries where run 'better' finds the relevant document at rank 1 and 'worse' at rank 2 (AP 1
    against 0.5 on every query)."""
    qrels = {f'q{i}': {'r': 1} for i in range(n)}
    better = {f'q{i}': {'r': 2.0, 'x': 1.0} for i in range(n)}
    worse = {f'q{i}': {'x': 2.0, 'r': 1.0} for i in range(n)}
    return qrels, {'worse': worse, 'better': better}


def test_two_queries_never_make_a_significant_bootstrap():
    """Two queries: the bootstrap's p is 1/10,001, the exact test's 0.5."""
    qrels, runs = collection(2)
    with pytest.warns(irm.IrmetricsWarning) as caught:
        cmp = irm.compare('AP', qrels, runs, test=['bootstrap', 'randomization'], ci_method='bca')
    assert cmp.pvalue['bootstrap'][0, 0] < 0.001 and cmp.pvalue['randomization'][0, 0] == 0.5
    assert not cmp.significant['bootstrap'].any() and not cmp.significant['randomization'].any()
    messages = [str(w.message) for w in caught]
    assert any(m.startswith('paired bootstrap test (shift method): 1 of 1 comparisons rest on fewer than 9 queries')
               and '3 distinct resamples for 10,000 draws' in m for m in messages)
    assert any(m.startswith('BCa bootstrap intervals of the differences from as few as 2 queries') for m in messages)
    assert cmp.fewest_queries == {'bootstrap': 9, 'randomization': 6}


@pytest.mark.parametrize('n, significant', [(5, False), (6, True)])
def test_the_t_test_is_significant_only_where_the_exact_test_can_be(n, significant):
    """Five identical differences: the t-test's p is 0 (no spread), the exact test's 2^-4 = 0.0625."""
    qrels, runs = collection(n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        cmp = irm.compare('AP', qrels, runs, test='t')
    assert cmp.pvalue['t'][0, 0] < 0.05
    assert bool(cmp.significant['t'][0, 0]) is significant
    assert any('comparisons rest on fewer than 6 queries' in str(w.message) for w in caught) is not significant
    assert '"fewest_queries": {\n    "t": 6\n  }' in cmp.render('json')
