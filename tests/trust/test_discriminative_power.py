"""irmetrics.discriminative_power: the significant pairs are irmetrics.compare's for the same seed, the
required difference is Sakai's (2006) critical value, hand-enumerated Tukey HSD cases, the fewest
queries, errors and the result object."""
import dataclasses
import itertools
import json
import warnings

import numpy as np
import pytest
from valued_runs import precision_runs

import irmetrics as irm
from irmetrics.comparing import ComparisonError
from irmetrics.comparing.replicates import Replicates
from irmetrics.comparing.settings import Settings
from irmetrics.comparing.statistics import pair_replicates
from irmetrics.trust.discriminative_power import critical_value, most_extreme_allowed

MEASURES = ['P@10', 'AP', 'nDCG@5']


def random_levels(seed, runs=5, queries=25):
    rng = np.random.default_rng(seed)
    quality = rng.integers(2, 9, size=(runs, 1))                       # some runs better than others
    return np.clip(quality + rng.integers(-3, 4, size=(runs, queries)), 0, 10)


@pytest.mark.parametrize('test', ['tukey', 'bootstrap'])
@pytest.mark.parametrize('seed', [0, 7])
def test_significant_pairs_are_the_comparisons(test, seed):
    """Same runs, test, resamples and seed: the same p-values and significant pairs as irmetrics.compare,
    and the power is the share of those pairs."""
    qrels, runs = precision_runs(random_levels(seed))
    dp = irm.discriminative_power(MEASURES, qrels, runs, test=test, n_resamples=500, seed=seed)
    cmp = irm.compare(MEASURES, qrels, runs, test=test, n_resamples=500, seed=seed)
    assert dp.pairs == cmp.pairs and dp.runs == cmp.runs and len(dp.pairs) == 10
    np.testing.assert_array_equal(dp.pvalue, cmp.pvalue[test])
    np.testing.assert_array_equal(dp.significant, cmp.significant[test])
    np.testing.assert_array_equal(dp.power, cmp.significant[test].sum(axis=0) / 10)
    np.testing.assert_allclose(dp.difference, cmp.delta, rtol=0, atol=1e-15)
    assert dp.power.max() > 0 and dp.power.min() < 1                  # the case tells pairs apart, not all


def test_measures_undefined_on_some_queries_draw_as_the_comparison():
    """AUC is undefined on a query without judged non-relevant documents: the runs are paired on fewer
    queries for it, and the draws still follow the comparison's (groups of measures by their queries)."""
    qrels, runs = precision_runs(random_levels(3, runs=4, queries=20))
    qrels['q0'] = {f'r{i}': 1 for i in range(10)}                     # no non-relevant: AUC undefined on q0
    for test in ('tukey', 'bootstrap'):
        dp = irm.discriminative_power(['AUC', 'P@10'], qrels, runs, test=test, n_resamples=400, seed=3)
        cmp = irm.compare(['AUC', 'P@10'], qrels, runs, test=test, n_resamples=400, seed=3)
        np.testing.assert_array_equal(dp.pvalue, cmp.pvalue[test])
        np.testing.assert_array_equal(dp.significant, cmp.significant[test])


@pytest.mark.parametrize('test', ['tukey', 'bootstrap'])
def test_a_pair_is_significant_when_its_difference_exceeds_the_critical_difference(test):
    """The critical difference is the p-value's threshold: p <= alpha exactly when |difference| exceeds
    it; a difference equal to it (P@10's values are tenths: ties happen), up to the rounding of sums in
    another order, is not significant.  A pair is significant when it also differs on enough queries
    (reachability, tested in test_fewest_queries)."""
    ties = 0
    for seed in range(4):
        qrels, runs = precision_runs(random_levels(10 + seed, runs=6, queries=30))
        dp = irm.discriminative_power(MEASURES, qrels, runs, test=test, n_resamples=999, seed=seed)
        gap = np.abs(dp.difference) - dp.critical_difference
        tied = np.abs(gap) < 1e-12
        ties += int(tied.sum())
        np.testing.assert_array_equal((gap > 0) & ~tied, dp.pvalue <= dp.alpha)
        assert not (dp.significant & ~((gap > 0) & ~tied)).any()
        np.testing.assert_array_equal(dp.required_difference, dp.critical_difference.max(axis=0))
    if test == 'tukey':
        assert ties > 0                                              # the tie rule was exercised


def test_bootstrap_critical_difference_is_sakais_b_alpha_th_largest():
    """Sakai (2006): with B = 1000 and alpha = 0.05, the difference a pair needs is the 50th largest
    |dbar* - dbar| of its bootstrap replicates (here the comparison's own replicates, sorted)."""
    qrels, runs = precision_runs(random_levels(5, runs=4, queries=20))
    dp = irm.discriminative_power(MEASURES, qrels, runs, test='bootstrap', n_resamples=1000, seed=11)
    values = np.stack([irm.evaluator(MEASURES, qrels).calc(run).values for run in runs.values()])
    settings = Settings.checked('bootstrap', None, 'measure', 0.05, 0.95, 't', 1000, 11)
    replicates = pair_replicates(values, dp.pairs, settings).held
    observed = dp.difference.reshape(-1)
    fiftieth = -np.sort(-np.abs(replicates - observed), axis=0)[49]
    np.testing.assert_array_equal(dp.critical_difference.reshape(-1), fiftieth)


def test_tukey_hand_enumerated():
    """Two runs on four queries, P@10 differences d = (0.1, 0.2, 0.3, 0.4): the 2^4 relabellings swap
    the runs on any set of queries, so the ranges are |sum s_i d_i| / 4, s_i = +-1: sorted, 1.0, 1.0,
    0.8, 0.8, 0.6, 0.6, ... over 4.  alpha = 0.2 allows 3 of 16 relabellings (p = b / 16): the critical
    difference is the 4th largest range, 0.8 / 4 = 0.2; the observed 0.25 is reached by 2: p = 1/8."""
    qrels, runs = precision_runs([[5, 5, 5, 5], [6, 7, 8, 9]], names=['A', 'B'])
    with warnings.catch_warnings():
        warnings.simplefilter('error')                                  # 4 queries suffice at alpha = 0.2
        dp = irm.discriminative_power('P@10', qrels, runs, alpha=0.2, n_resamples=100)
    assert dp.pvalue[0, 0] == 2 / 16
    assert dp.critical_difference[0, 0] == pytest.approx(0.2, abs=1e-15)
    assert dp.difference[0, 0] == pytest.approx(0.25, abs=1e-15)
    assert dp.power.tolist() == [1.0] and dp.fewest_queries == 4     # 2^(1-4) <= 0.2 < 2^(1-3)
    # alpha = 0.1: b / 16 <= 0.1 allows one relabelling at least as extreme, not the two of the observation
    dp = irm.discriminative_power('P@10', qrels, runs, alpha=0.1, n_resamples=100)
    assert most_extreme_allowed(0.1, 16, exact=True) == 1
    assert dp.critical_difference[0, 0] == pytest.approx(0.25, abs=1e-15)   # the 2nd largest: 1.0 / 4
    assert dp.power.tolist() == [0.0]                                  # 0.25 does not exceed 0.25 (p = 1/8)


def test_critical_value_and_allowed_resamples():
    """K is the most resamples at least as extreme that keep p <= alpha, for both p-value rules."""
    for alpha, b, exact in itertools.product((0.01, 0.05, 0.1, 0.5), (9, 99, 1000, 10000), (True, False)):
        k = most_extreme_allowed(alpha, b, exact)
        p = np.array([k, k + 1]) / b if exact else (np.array([k, k + 1]) + 1) / (b + 1)
        assert (k < 0 or p[0] <= alpha) and p[1] > alpha
    assert most_extreme_allowed(0.05, 1000, exact=False) + 1 == 50       # Sakai's B alpha
    assert most_extreme_allowed(0.05, 10, exact=False) == -1             # (1 + 0) / 11 > 0.05: unreachable
    rows = np.array([[3.0, 1.0], [1.0, 2.0], [2.0, 5.0]])
    null = Replicates(3, 2, lambda rng: iter([(0, 3, np.arange(2), rows)]), np.random.default_rng(0), 1 << 20)
    assert critical_value(null, 0).tolist() == [3.0, 5.0]
    assert critical_value(null, 1).tolist() == [2.0, 2.0]
    assert critical_value(null, -1).tolist() == [np.inf, np.inf]


def test_too_few_resamples_for_alpha_means_nothing_is_significant():
    qrels, runs = precision_runs(random_levels(1))
    dp = irm.discriminative_power('P@10', qrels, runs, test='bootstrap', n_resamples=10)
    assert np.isinf(dp.required_difference).all() and dp.power.tolist() == [0.0]


def test_fewest_queries():
    """Five queries: the exact randomisation test cannot reach 0.05 (2^-4 = 0.0625), so no pair is
    significant however large its difference, and a warning says how many pairs that concerns.  Six
    queries reach it, but the bootstrap's 462 distinct resamples are fewer than its 1000 draws: it warns
    and, as compare does, reports what it finds."""
    qrels, runs = precision_runs([[0] * 5, [10] * 5, [5] * 5])
    with pytest.warns(irm.IrmetricsWarning, match=r'3 of 3 \(pair, measure\) comparisons rest on fewer than 6'):
        dp = irm.discriminative_power('P@10', qrels, runs)
    assert dp.fewest_queries == 6 and not dp.significant.any() and dp.power.tolist() == [0.0]
    assert dp.pvalue.min() < 0.05                                   # Tukey's p alone would have said yes
    qrels, runs = precision_runs([[0] * 6, [10] * 6, [5] * 6])
    with pytest.warns(irm.IrmetricsWarning, match='fewer than 7 .*bootstrap'):
        dp = irm.discriminative_power('P@10', qrels, runs, test='bootstrap')
    cmp = irm.compare('P@10', qrels, runs, test='bootstrap', n_resamples=1000)
    assert dp.fewest_queries == 7 and dp.significant.tolist() == cmp.significant['bootstrap'].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        dp = irm.discriminative_power('P@10', qrels, runs, test='tukey')
    assert dp.significant[:, 0].tolist() == [True, False, False]          # 0 vs 10 on six queries; 0.5 apart is not


def test_identical_and_reversed_runs():
    levels = random_levels(2, runs=3)
    qrels, runs = precision_runs(levels)
    same = precision_runs(np.stack([levels[0], levels[0], levels[0]]))[1]
    dp = irm.discriminative_power(MEASURES, qrels, same)
    assert dp.power.tolist() == [0.0, 0.0, 0.0] and not dp.difference.any()
    forward = irm.discriminative_power(MEASURES, qrels, runs, seed=4)
    backward = irm.discriminative_power(MEASURES, qrels, dict(reversed(list(runs.items()))), seed=4)
    np.testing.assert_array_equal(forward.power, backward.power)


def test_seed_gives_the_same_result():
    qrels, runs = precision_runs(random_levels(6))
    one, two = (irm.discriminative_power('AP', qrels, runs, test='bootstrap', seed=3) for _ in range(2))
    np.testing.assert_array_equal(one.pvalue, two.pvalue)
    np.testing.assert_array_equal(one.critical_difference, two.critical_difference)


def test_errors():
    qrels, runs = precision_runs(random_levels(0))
    with pytest.raises(irm.OptionError, match="'t' for option 'test': expected one of 'tukey', 'bootstrap'"):
        irm.discriminative_power('AP', qrels, runs, test='t')
    with pytest.raises(ComparisonError, match='two runs or more'):
        irm.discriminative_power('AP', qrels, {'a': runs['run0']})
    with pytest.raises(irm.OptionError, match='alpha'):
        irm.discriminative_power('AP', qrels, runs, alpha=1.5)
    with pytest.raises(irm.OptionError, match='n_resamples'):
        irm.discriminative_power('AP', qrels, runs, n_resamples=0)
    with pytest.raises(irm.MeasureError, match='summed over queries'):
        irm.discriminative_power('NumRet', qrels, runs)
    one_query = {'q0': qrels['q0']}
    with pytest.raises(ComparisonError, match='1 query'):
        irm.discriminative_power('AP', one_query, runs)


def test_result_object():
    qrels, runs = precision_runs(random_levels(8, runs=3))
    dp = irm.discriminative_power(['P@10', 'AP'], qrels, runs)
    assert isinstance(dp, irm.DiscriminativePower)
    with pytest.raises(dataclasses.FrozenInstanceError):
        dp.alpha = 0.1
    with pytest.raises(ValueError):
        dp.pvalue[0, 0] = 0.5
    frame = dp.to_dataframe()
    assert list(frame.columns) == ['measure', 'pairs', 'significant', 'power', 'required_difference',
                                   'fewest_queries']
    assert frame.measure.tolist() == ['P@10', 'AP'] and frame.pairs.tolist() == [3, 3]
    by_pair = dp.to_dataframe(by_pair=True)
    assert len(by_pair) == 6 and set(by_pair.run) <= {'run0', 'run1'}
    assert dp.to_dict()['AP']['power'] == dp.power[1]
    assert repr(dp).startswith('<DiscriminativePower: randomised Tukey HSD, 3 runs, 3 pair(s), 25 queries')
    text = str(dp)
    assert text.splitlines()[0].split() == ['measure', 'pairs', 'significant', 'power', 'required_difference',
                                            'fewest_queries']
    assert 'randomised Tukey HSD, alpha = 0.05, 1,000 resamples, seed 0' in text
    records = json.loads(dp.render('json'))
    assert records[1]['measure'] == 'AP' and records[1]['power'] == float(dp.power[1])


def test_runs_from_files_are_named_by_their_stems():
    from repo_paths import ROOT
    runs = [str(ROOT / 'examples' / f'run_{n}.txt') for n in ('bm25', 'dense')]
    dp = irm.discriminative_power('AP nDCG@10', str(ROOT / 'examples' / 'qrels.txt'), runs)
    assert dp.runs == ('run_bm25', 'run_dense') and dp.n_queries == 10
