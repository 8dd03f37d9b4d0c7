"""Risk-sensitive evaluation (irmetrics.comparing.risk and .risk_of_runs): URisk by hand and by gdeval's
per-query rule, TRisk against scipy's one-sample t-test, GeoRisk against a direct transcription of
Dincer, Macdonald & Ounis (SIGIR 2016) and a worked example, the sign conventions, the missing-query
rule, the honest-statistics floor, validation and the result objects."""
import dataclasses
import math
import warnings

import numpy as np
import pytest
from repo_paths import ROOT
from scipy import stats

import irmetrics as irm
from irmetrics import IrmetricsWarning, MeasureError
from irmetrics.comparing import ComparisonError
from irmetrics.comparing.risk import georisk_values, risk_adjusted, trisk_value, urisk_value, zrisk_values
from irmetrics.errors import OptionError

QRELS, BM25, DENSE = (str(ROOT / 'examples' / f) for f in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))
TOL = 1e-12

# Four queries; P@2 of run A is 1, 1/2, 0, 1/2 and of run B 1/2, 1/2, 1/2, 0: A - B = (1/2, 0, -1/2, 1/2).
HAND_QRELS = {'q1': {'d1': 1, 'd2': 1}, 'q2': {'d1': 1}, 'q3': {'d1': 1}, 'q4': {'d1': 1, 'd2': 1}}
HAND_A = {'q1': {'d1': 2, 'd2': 1}, 'q2': {'d1': 2, 'x': 1}, 'q3': {'x': 2, 'y': 1}, 'q4': {'d1': 2, 'x': 1}}
HAND_B = {'q1': {'d1': 2, 'x': 1}, 'q2': {'d1': 2, 'x': 1}, 'q3': {'d1': 2, 'x': 1}, 'q4': {'x': 2, 'y': 1}}


def gdeval_weighted(run, base, alpha):
    """The TREC Web track's per-query rule (gdeval's riskWeighted), one query at a time."""
    return (1 + alpha) * (run - base) if run < base else run - base


# --- URisk ----------------------------------------------------------------------------------------
@pytest.mark.parametrize('alpha, expected', [(0, 0.07), (1, 0.04), (5, -0.08)])
def test_urisk_by_hand(alpha, expected):
    """Wins 0.2 + 0.3 = 0.5, losses 0.1 + 0.05 = 0.15, one tie, 5 queries: (0.5 - (1 + alpha) 0.15) / 5."""
    delta = np.array([0.2, -0.1, 0.0, 0.3, -0.05])
    assert urisk_value(delta, alpha) == pytest.approx(expected, abs=TOL)


def test_risk_adjusted_is_gdevals_rule_query_by_query():
    rng = np.random.default_rng(7)
    for alpha in (0.0, 1.0, 2.5, 5.0):
        run, base = rng.random(50), rng.random(50)
        base[:5] = run[:5]                                              # ties stay 0
        expected = [gdeval_weighted(r, b, alpha) for r, b in zip(run, base, strict=True)]
        np.testing.assert_allclose(risk_adjusted(run - base, alpha), expected, rtol=0, atol=TOL)
        assert urisk_value(run - base, alpha) == pytest.approx(sum(expected) / 50, abs=TOL)


def test_urisk_at_alpha_zero_is_the_mean_difference_and_grows_with_alpha():
    rng = np.random.default_rng(3)
    delta = rng.normal(0.05, 0.2, 40)
    assert urisk_value(delta, 0) == pytest.approx(delta.mean(), abs=TOL)
    values = [urisk_value(delta, a) for a in (0, 0.5, 1, 2, 5)]
    assert all(later < earlier for earlier, later in zip(values, values[1:], strict=False))


def test_urisk_leaves_out_undefined_queries():
    assert urisk_value(np.array([0.2, np.nan, -0.1]), 1) == pytest.approx((0.2 - 0.2) / 2, abs=TOL)
    assert math.isnan(urisk_value(np.array([np.nan, np.nan]), 1))


# --- TRisk ----------------------------------------------------------------------------------------
@pytest.mark.parametrize('alpha', [0.0, 1.0, 5.0])
def test_trisk_is_scipys_one_sample_t_on_the_risk_adjusted_differences(alpha):
    rng = np.random.default_rng(11)
    for n in (2, 3, 10, 60):
        delta = rng.normal(0.02, 0.1, n)
        adjusted = np.array([gdeval_weighted(d, 0.0, alpha) for d in delta])
        reference = stats.ttest_1samp(adjusted, 0.0)
        result = trisk_value(delta, alpha)
        assert result.statistic == pytest.approx(reference.statistic, rel=1e-12)
        assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-9)
        # TRisk = URisk / SE, SE the sample standard deviation (n - 1) over sqrt(n)
        assert result.statistic == pytest.approx(urisk_value(delta, alpha) / stats.sem(adjusted), rel=1e-12)


def rmit_trisk(delta, alpha):
    """rmit-ir/trisk's TRisk (the Ruby and R scripts of Benham & Culpepper, ADCS 2017), step by step: the
    standard deviation of the risk-reward scores over c (not c - 1), SE = sd / sqrt(c), TRisk = URisk / SE,
    p = 2 P(T_{c-1} > |TRisk|)."""
    scores = [gdeval_weighted(d, 0.0, alpha) for d in delta]
    c = len(scores)
    urisk = sum(scores) / c
    sx = math.sqrt(sum((x - urisk) ** 2 for x in scores) / c)
    trisk = urisk / (sx / math.sqrt(c))
    return trisk, 2 * stats.t.sf(abs(trisk), c - 1)


@pytest.mark.parametrize('alpha', [0.0, 1.0, 5.0])
def test_trisk_with_ddof_0_is_rmit_ir_trisks(alpha):
    rng = np.random.default_rng(13)
    for n in (2, 5, 50):
        delta = rng.normal(0.01, 0.1, n)
        expected, p = rmit_trisk(delta, alpha)
        result = trisk_value(delta, alpha, ddof=0)
        assert result.statistic == pytest.approx(expected, rel=1e-12) and result.pvalue == pytest.approx(p, rel=1e-9)
        assert result.statistic == pytest.approx(trisk_value(delta, alpha).statistic * math.sqrt(n / (n - 1)),
                                                 rel=1e-12)
    zero = trisk_value(np.zeros(5), alpha, ddof=0)
    assert (zero.statistic, zero.pvalue) == (0.0, 1.0)


def test_trisk_ddof_0_of_the_example_runs():
    delta = per_query('AP', DENSE) - per_query('AP', BM25)
    result = irm.trisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=1, ddof=0)
    expected, p = rmit_trisk(delta, 1)
    assert result.trisk == pytest.approx(expected, rel=1e-12) and result.pvalue == pytest.approx(p, rel=1e-9)
    adjusted = risk_adjusted(delta, 1)
    assert result.se == pytest.approx(np.std(adjusted) / math.sqrt(10), rel=1e-12) and result.ddof == 0


def test_trisk_of_identical_and_of_constant_differences():
    equal = trisk_value(np.zeros(8), 1)
    assert (equal.statistic, equal.pvalue) == (0.0, 1.0)
    assert not math.copysign(1, equal.statistic) < 0
    worse = trisk_value(np.full(8, -0.1), 1)
    assert worse.statistic == -math.inf and worse.pvalue == 0.0


def test_trisk_needs_two_queries():
    with pytest.raises(ComparisonError, match='two or more'):
        trisk_value(np.array([0.3, np.nan]), 1)


# --- GeoRisk --------------------------------------------------------------------------------------
def georisk_transcribed(x, alpha):
    """Dincer, Macdonald & Ounis (SIGIR 2016), element by element: e_ij = S_i T_j / N,
    z_ij = (x_ij - e_ij) / sqrt(e_ij), ZRisk_i = sum_{Q+} z + (1 + alpha) sum_{Q-} z,
    GeoRisk_i = sqrt(S_i / c * Phi(ZRisk_i / c))."""
    m, c = len(x), len(x[0])
    s = [sum(row) for row in x]
    t = [sum(x[i][j] for i in range(m)) for j in range(c)]
    n = sum(s)
    out = []
    for i in range(m):
        zrisk = 0.0
        for j in range(c):
            e = s[i] * t[j] / n
            z = (x[i][j] - e) / math.sqrt(e) if e > 0 else 0.0
            zrisk += z if z >= 0 else (1 + alpha) * z
        phi = 0.5 * (1 + math.erf(zrisk / c / math.sqrt(2)))
        out.append(math.sqrt(s[i] / c * phi))
    return out


@pytest.mark.parametrize('alpha', [0.0, 1.0, 5.0])
def test_georisk_against_a_transcription_of_the_paper(alpha):
    rng = np.random.default_rng(5)
    for m, c in ((2, 3), (3, 10), (7, 50)):
        x = rng.random((m, c))
        x[rng.random((m, c)) < 0.2] = 0.0                               # some zero scores, as real runs have
        np.testing.assert_allclose(georisk_values(x, alpha), georisk_transcribed(x.tolist(), alpha),
                                   rtol=1e-12, atol=0)


def test_georisk_worked_example():
    """x = [[1, 0], [0, 1]]: S = T = (1, 1), N = 2, every e = 1/2, z = +-1/sqrt(2); at alpha = 1
    ZRisk = 1/sqrt(2) - 2/sqrt(2) = -1/sqrt(2) for both runs, so GeoRisk = sqrt(1/2 Phi(-1/(2 sqrt(2))))
    = sqrt(1/2 * (1 + erf(-1/4)) / 2) = 0.42534...; at alpha = 0 ZRisk = 0 and GeoRisk = sqrt(1/4) = 1/2."""
    x = np.array([[1.0, 0.0], [0.0, 1.0]])
    expected = math.sqrt(0.5 * (1 + math.erf(-0.25)) / 2)
    assert expected == pytest.approx(0.425345, abs=1e-6)
    np.testing.assert_allclose(georisk_values(x, 1), [expected, expected], rtol=1e-14)
    np.testing.assert_allclose(georisk_values(x, 0), [0.5, 0.5], rtol=1e-14)
    np.testing.assert_allclose(zrisk_values(x, 1), [-1 / math.sqrt(2)] * 2, rtol=1e-14)


def test_georisk_of_a_query_every_run_scores_zero_adds_no_deviation():
    x = np.array([[0.5, 0.2, 0.0], [0.3, 0.4, 0.0]])
    np.testing.assert_allclose(zrisk_values(x, 2), zrisk_values(x[:, :2], 2), rtol=1e-14)
    assert not np.isnan(georisk_values(x, 1)).any()
    np.testing.assert_array_equal(georisk_values(np.zeros((3, 4)), 1), np.zeros(3))


def test_georisk_of_identical_runs_is_sqrt_of_half_the_mean():
    """Every run equal: x = e, z = 0, Phi(0) = 1/2."""
    row = np.array([0.1, 0.7, 0.4, 0.0])
    np.testing.assert_allclose(georisk_values(np.stack([row] * 3), 5), np.sqrt(row.mean() / 2), rtol=1e-14)


@pytest.mark.parametrize('x, message', [
    (np.array([[0.1, 0.2]]), 'two runs or more'),
    (np.array([[0.1, -0.2], [0.3, 0.1]]), 'non-negative'),
    (np.array([[0.1, np.nan], [0.3, 0.1]]), 'NaN'),
])
def test_georisk_refuses(x, message):
    with pytest.raises(ComparisonError, match=message):
        georisk_values(x, 1)


# --- the public functions -------------------------------------------------------------------------
def per_query(measure, run):
    results = irm.calc([measure], QRELS, run)
    return np.asarray(results.values)[:, 0]


@pytest.mark.parametrize('alpha', [0, 1, 5])
def test_urisk_and_trisk_of_the_example_runs_agree_with_calc(alpha):
    delta = per_query('AP', DENSE) - per_query('AP', BM25)
    adjusted = np.array([gdeval_weighted(d, 0.0, alpha) for d in delta])
    u = irm.urisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=alpha)
    t = irm.trisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=alpha)
    assert u.urisk == pytest.approx(adjusted.mean(), abs=TOL) == t.urisk
    reference = stats.ttest_1samp(adjusted, 0.0)
    assert t.trisk == pytest.approx(reference.statistic, rel=1e-12)
    assert t.pvalue == pytest.approx(reference.pvalue, rel=1e-9)
    assert t.se == pytest.approx(stats.sem(adjusted), rel=1e-12)
    assert (u.run, u.baseline, u.wins, u.losses, u.ties, u.n_queries) == ('run_dense', 'run_bm25', 9, 1, 0, 10)
    np.testing.assert_allclose(u.delta, delta, atol=TOL)


def test_urisk_of_the_hand_case():
    """A - B = (1/2, 0, -1/2, 1/2): alpha 0: 1/8; alpha 1: (1 - 2 * 1/2) / 4 = 0; alpha 5: (1 - 3) / 4."""
    for alpha, expected in ((0, 0.125), (1, 0.0), (5, -0.5)):
        found = irm.urisk('P@2', HAND_QRELS, HAND_A, baseline=HAND_B, risk_weight=alpha)
        assert found.urisk == pytest.approx(expected, abs=TOL)


def test_a_query_missing_from_the_run_scores_the_measures_missing_value():
    """Without q3 run A scores 0 there (trec_eval -c), as it did with only unjudged documents."""
    missing = {q: docs for q, docs in HAND_A.items() if q != 'q3'}
    with pytest.warns(IrmetricsWarning, match='not in the run'):
        result = irm.urisk('P@2', HAND_QRELS, missing, baseline=HAND_B, risk_weight=1)
    assert result.query_ids == ('q1', 'q2', 'q3', 'q4')
    np.testing.assert_allclose(result.delta, [0.5, 0.0, -0.5, 0.5], atol=TOL)
    assert result.urisk == pytest.approx(0.0, abs=TOL)


def test_sign_conventions():
    """A run better than the baseline has positive URisk and TRisk; swapped, both turn negative, and at
    alpha = 0 URisk is exactly negated; a run against itself gives 0 and 0 (p = 1)."""
    better = irm.trisk('nDCG@10', QRELS, DENSE, baseline=BM25, risk_weight=1)
    worse = irm.trisk('nDCG@10', QRELS, BM25, baseline=DENSE, risk_weight=1)
    assert better.urisk > 0 and better.trisk > 2 and better.significant
    assert worse.urisk < 0 and worse.trisk < -2 and worse.significant
    assert 'less risky' in better.interpretation and 'riskier' in worse.interpretation
    assert irm.urisk('AP', QRELS, BM25, baseline=DENSE, risk_weight=0).urisk == pytest.approx(
        -irm.urisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=0).urisk, abs=TOL)
    with pytest.warns(IrmetricsWarning, match='0 queries with a difference'):
        same = irm.trisk('AP', QRELS, BM25, baseline=BM25, risk_weight=5)
    assert (same.urisk, same.trisk, same.pvalue, same.significant) == (0.0, 0.0, 1.0, False)
    assert (same.run, same.baseline) == ('run', 'baseline')                  # one file: the names say which


def test_trisk_is_never_significant_on_fewer_queries_than_the_exact_test_allows():
    """Four queries with a difference: the exact randomisation test's smallest p is 2^-3 = 0.125 > 0.05,
    so even a large TRisk is not reported significant (and a warning says so)."""
    qrels = {f'q{i}': {'d1': 1} for i in range(4)}
    good = {q: {'d1': 2.0, 'x': 1.0} for q in qrels}
    bad = {q: {'x': 2.0, 'd1': 1.0} for q in qrels}
    bad['q0'] = {'x': 2.0, 'y': 1.5, 'd1': 1.0}                        # RR 1/3 there, 1/2 elsewhere
    with pytest.warns(IrmetricsWarning, match='supports 6 or more'):
        result = irm.trisk('RR', qrels, good, baseline=bad, risk_weight=1)
    assert result.pvalue < 0.05 and not result.significant and result.fewest_queries == 6



def test_trisk_significance_is_alpha_and_level_its_old_name_warns():
    """The significance level is ``alpha``, as in compare (p = 0.008 for the example runs); ``level``, its name
    before 1.0, gives the same result with a FutureWarning; both at once is an OptionError."""
    strict = irm.trisk('AP', QRELS, DENSE, baseline=BM25, alpha=0.005)
    assert (strict.alpha, strict.significant, round(strict.pvalue, 4)) == (0.005, False, 0.008)
    assert strict.to_dict()['alpha'] == 0.005 and 'level' not in strict.to_dict()
    with pytest.warns(FutureWarning, match=r'trisk\(level=...\) is deprecated.*alpha'):
        old = irm.trisk('AP', QRELS, DENSE, baseline=BM25, level=0.005)
    assert (old.alpha, old.significant, old.pvalue) == (strict.alpha, strict.significant, strict.pvalue)
    with pytest.raises(OptionError, match='both the significance level'):
        irm.trisk('AP', QRELS, DENSE, baseline=BM25, alpha=0.01, level=0.005)

def test_georisk_of_the_example_runs_agrees_with_calc():
    x = np.stack([per_query('AP', BM25), per_query('AP', DENSE)])
    result = irm.georisk('AP', QRELS, {'bm25': BM25, 'dense': DENSE}, risk_weight=2)
    assert result.runs == ('bm25', 'dense') and result.n_queries == 10
    np.testing.assert_allclose(result.georisk, georisk_transcribed(x.tolist(), 2), rtol=1e-12)
    np.testing.assert_allclose(result.mean, x.mean(axis=1), rtol=1e-12)
    listed = irm.georisk('AP', QRELS, [BM25, DENSE], risk_weight=2)
    assert listed.runs == ('run_bm25', 'run_dense')
    np.testing.assert_array_equal(listed.georisk, result.georisk)


@pytest.mark.parametrize('call, error, message', [
    (lambda: irm.urisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=-1), OptionError, "option 'risk_weight'.*>= 0"),
    (lambda: irm.urisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=math.nan), OptionError, "option 'risk_weight'"),
    (lambda: irm.trisk('AP', QRELS, DENSE, baseline=BM25, risk_weight='1'), OptionError, "option 'risk_weight'"),
    (lambda: irm.trisk('AP', QRELS, DENSE, baseline=BM25, alpha=1.5), OptionError, "option 'alpha'.*< 1"),
    (lambda: irm.trisk('AP', QRELS, DENSE, baseline=BM25, ddof=2), OptionError, "option 'ddof'.*<= 1"),
    (lambda: irm.trisk('AP', QRELS, DENSE, baseline=BM25, ddof=True), OptionError, "option 'ddof'"),
    (lambda: irm.urisk('AP nDCG@10', QRELS, DENSE, baseline=BM25), ComparisonError, 'one measure, got 2'),
    (lambda: irm.urisk('num_rel_ret', QRELS, DENSE, baseline=BM25), MeasureError, 'count summed over queries'),
    (lambda: irm.georisk('AP', QRELS, [BM25]), ComparisonError, 'two runs or more'),
    (lambda: irm.georisk('AP', QRELS, {'a': BM25, 'b': DENSE}, risk_weight=-0.5), OptionError,
     "option 'risk_weight'"),
])
def test_invalid_arguments_fail_at_once_with_one_clear_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_result_objects():
    t = irm.trisk('AP', QRELS, DENSE, baseline=BM25, risk_weight=1)
    assert repr(t).startswith('TRiskResult(run_dense against run_bm25 on AP, risk weight 1, 10 queries (wins 9, '
                              'losses 1, ties 0): URisk = 0.1272, TRisk = 3.3863')
    record = t.to_dict()
    assert record['urisk'] == t.urisk and record['trisk'] == t.trisk and record['significant'] is True
    assert list(t.to_dataframe().columns) == list(record)
    frame = t.per_query()
    assert list(frame.columns) == ['query_id', 'delta', 'adjusted'] and len(frame) == 10
    np.testing.assert_allclose(frame.adjusted.mean(), t.urisk, atol=TOL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.urisk = 0.0
    with pytest.raises(ValueError):
        t.delta[0] = 1.0
    g = irm.georisk('AP', QRELS, [BM25, DENSE])
    assert repr(g) == (f'GeoRiskResult(2 runs on AP, risk weight 1, 10 queries: run_bm25: {g.georisk[0]:.4f}, '
                       f'run_dense: {g.georisk[1]:.4f})')
    assert g.to_dict() == {'run_bm25': g.georisk[0], 'run_dense': g.georisk[1]}
    assert list(g.to_dataframe().columns) == ['mean', 'zrisk', 'georisk']


# --- compare(risk_weight=w) --------------------------------------------------------------------------
@pytest.fixture(scope='module')
def compared():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        return irm.compare('AP nDCG@10', QRELS, {'bm25': BM25, 'dense': DENSE}, baseline='bm25', risk_weight=2)


def test_compare_risk_columns_are_the_functions_values(compared):
    frame = compared.to_dataframe()
    for measure in ('AP', 'nDCG@10'):
        base = frame[(frame.run == 'bm25') & (frame.measure == measure)].iloc[0]
        dense = frame[(frame.run == 'dense') & (frame.measure == measure)].iloc[0]
        t = irm.trisk(measure, QRELS, DENSE, baseline=BM25, risk_weight=2)
        g = irm.georisk(measure, QRELS, [BM25, DENSE], risk_weight=2)
        assert dense.urisk == pytest.approx(t.urisk, abs=TOL) and dense.trisk == pytest.approx(t.trisk, rel=1e-12)
        assert dense.trisk_p == pytest.approx(t.pvalue, rel=1e-12) and bool(dense.trisk_significant) == t.significant
        assert (base.georisk, dense.georisk) == pytest.approx(tuple(g.georisk), rel=1e-12)
        assert math.isnan(base.urisk) and math.isnan(base.trisk) and base.trisk_significant is pd_na()
        assert base.risk_weight == dense.risk_weight == 2.0


def pd_na():
    import pandas as pd
    return pd.NA


def test_compare_risk_in_every_format(compared):
    text, markdown, latex, html = (compared.render(), compared.render('markdown'), compared.render('latex'),
                                   compared.render('html'))
    for rendered in (text, markdown, latex, html):
        assert 'URisk' in rendered and 'TRisk' in rendered and 'GeoRisk' in rendered
        assert 'risk weight 2' in rendered and 'SIGIR 2014' in rendered and 'SIGIR 2016' in rendered
    u = compared.risk.urisk[0, 0]
    assert f'{u:+.4f}' in text and f'{u:+.4f}' in markdown and f'{u:+.4f}' in latex and f'{u:+.4f}' in html
    assert r'\label{tab:comparison-risk}' in latex
    import json
    document = json.loads(compared.render('json'))
    assert document['risk'] == {'risk_weight': 2.0, 'trisk_fewest_queries': 6}
    dense = [r for r in document['rows'] if r['run'] == 'dense' and r['measure'] == 'AP'][0]
    assert dense['urisk'] == pytest.approx(u, abs=TOL) and dense['georisk'] == compared.risk.georisk[1, 0]


def test_compare_without_risk_is_unchanged():
    from irmetrics.comparing.comparison import COLUMNS
    plain = irm.compare('AP', QRELS, {'bm25': BM25, 'dense': DENSE}, baseline='bm25')
    assert plain.risk is None and list(plain.to_dataframe().columns) == COLUMNS
    assert 'URisk' not in plain.render() and '"risk"' not in plain.render('json')


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(), ComparisonError, 'one baseline'),
    (dict(baseline=['bm25', 'dense']), ComparisonError, 'one baseline'),
    (dict(baseline='bm25', risk_weight=-1), OptionError, "option 'risk_weight'"),
])
def test_compare_risk_refuses(kwargs, error, message):
    options = {'risk_weight': 1, **kwargs}
    with pytest.raises(error, match=message):
        irm.compare('AP', QRELS, {'bm25': BM25, 'dense': DENSE}, **options)


def test_compare_risk_arrays_are_read_only(compared):
    with pytest.raises(ValueError):
        compared.risk.urisk[0, 0] = 0.0
    assert 'Risk against the baseline' in compared._repr_html_()


def test_compare_risk_warns_below_the_queries_trisk_supports():
    """The hand case differs on 3 queries: TRisk supports 6 or more at 0.05, so it says so."""
    with pytest.warns(IrmetricsWarning, match='TRisk: 1 of 1 comparisons rest on fewer than 6 queries'):
        cmp = irm.compare('P@2', HAND_QRELS, {'A': HAND_A, 'B': HAND_B}, baseline='B', risk_weight=1)
    assert not cmp.risk.significant.any()
    assert cmp.risk.urisk[0, 0] == pytest.approx(0.0, abs=TOL)


def test_risk_columns_with_undefined_queries_and_negative_scores():
    """NaN (a measure undefined on a query) leaves the query out of URisk and TRisk of that pair, and out
    of GeoRisk for every run; a measure with a negative score has no GeoRisk (NaN, with a warning)."""
    from irmetrics.comparing.risk import risk_columns
    rng = np.random.default_rng(2)
    values = rng.random((3, 12, 2))
    values[1, 4, 0] = np.nan
    values[2, 7, 1] = -0.25
    with pytest.warns(IrmetricsWarning, match='GeoRisk of m1 is left out'):
        columns = risk_columns(['m0', 'm1'], values, [(0, 1), (0, 2)], 1.0, 0.05)
    delta = values[1, :, 0] - values[0, :, 0]
    assert columns.urisk[0, 0] == pytest.approx(urisk_value(delta[~np.isnan(delta)], 1), abs=TOL)
    assert columns.trisk[0, 0] == pytest.approx(trisk_value(delta[~np.isnan(delta)], 1).statistic, rel=1e-12)
    kept = np.delete(values[:, :, 0], 4, axis=1)
    np.testing.assert_allclose(columns.georisk[:, 0], georisk_transcribed(kept.tolist(), 1), rtol=1e-12)
    assert np.isnan(columns.georisk[:, 1]).all() and not np.isnan(columns.urisk).any()


def test_run_names_are_file_stems_else_run_and_baseline():
    dense = irm.read_trec_run(DENSE)
    found = irm.urisk('AP', QRELS, dense, baseline=BM25)
    assert (found.run, found.baseline) == ('run', 'run_bm25')
    named = irm.urisk('AP', QRELS, DENSE, baseline=irm.read_trec_run(BM25))
    assert (named.run, named.baseline) == ('run_dense', 'baseline')
    assert named.urisk == irm.urisk('AP', QRELS, DENSE, baseline=BM25).urisk


def test_compare_risk_block_once_with_several_tests():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', IrmetricsWarning)
        cmp = irm.compare('AP', QRELS, [BM25, DENSE], baseline='run_bm25', test=('t', 'wilcoxon'), risk_weight=1)
    text = cmp.render()
    assert text.count('GeoRisk\n') == 1 and text.count('Risk against the baseline') == 1   # one header, one legend
    frame = cmp.to_dataframe()
    assert len(frame) == 4 and frame.groupby('test').urisk.first().nunique() == 1


def test_a_measure_where_lower_is_better_counts_a_lower_value_as_a_gain():
    """Unjudged@10 is lower-is-better: a run with fewer unjudged documents than its baseline wins there,
    so its URisk is the negated difference of the means (no query loses); GeoRisk refuses such a measure."""
    qrels = {'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1, 'd': 0}}
    judged = {'q1': {'a': 2.0, 'b': 1.0}, 'q2': {'c': 2.0, 'd': 1.0}}
    unjudged = {'q1': {'a': 2.0, 'x': 1.0}, 'q2': {'c': 2.0, 'y': 1.0}}
    result = irm.urisk('Unjudged@2', qrels, judged, baseline=unjudged, risk_weight=5)
    assert result.urisk == pytest.approx(0.5) and result.wins == 2 and result.losses == 0
    with pytest.raises(irm.ComparisonError, match='lower is better'):
        irm.georisk('Unjudged@2', qrels, [judged, unjudged])
