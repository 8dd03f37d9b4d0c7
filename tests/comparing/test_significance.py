"""The closed-form tests and the corrections against their reference implementations.

t, Wilcoxon and sign tests: scipy's ``ttest_rel``, ``wilcoxon`` and ``binomtest`` on the same
per-query differences (to 1e-12), on continuous, rounded (ties), zero-laden and tiny samples on
both sides of Wilcoxon's exact/normal switch.  Corrections: statsmodels' ``multipletests`` for
every method, on p-vectors with ties, zeros and ones.
"""
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from irmetrics.comparing import ComparisonError, corrections, significance
from irmetrics.errors import OptionError

TOLERANCE = 1e-12


def samples():
    """(label, differences): continuous, ties, zeros, tiny and large, positive and null shifts."""
    rng = np.random.default_rng(20240610)
    out = []
    for n in (2, 3, 5, 8, 13, 14, 20, 50, 51, 120, 700):
        for shift in (0.0, 0.05, 0.3):
            d = rng.normal(shift, 0.2, n)
            out.append((f'normal n={n} shift={shift}', d))
            out.append((f'ties n={n} shift={shift}', np.round(d, 1)))
            zeros = np.where(rng.random(n) < 0.3, 0.0, np.round(d, 2))
            if np.any(zeros):
                out.append((f'zeros n={n} shift={shift}', zeros))
    out.append(('P@10-like', rng.choice([-0.2, -0.1, 0.0, 0.1, 0.2, 0.3], 40)))
    return out


SAMPLES = samples()
IDS = [label for label, _ in SAMPLES]


@pytest.mark.filterwarnings('ignore:Precision loss occurred')   # scipy's, on nearly constant samples
@pytest.mark.parametrize('d', [d for _, d in SAMPLES], ids=IDS)
def test_t_test_equals_scipy_ttest_rel(d):
    baseline = np.linspace(0.1, 0.9, d.size)
    ours = significance.t_test((baseline + d) - baseline)
    ref = stats.ttest_rel(baseline + d, baseline)
    assert ours.pvalue == pytest.approx(ref.pvalue, abs=TOLERANCE, rel=0)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-9)


@pytest.mark.parametrize('d', [d for _, d in SAMPLES], ids=IDS)
def test_wilcoxon_equals_scipy_wilcoxon(d):
    ref = stats.wilcoxon(d)           # scipy's defaults: zeros dropped, its exact/normal rule
    ours = significance.wilcoxon_test(d)
    assert ours.pvalue == pytest.approx(ref.pvalue, abs=TOLERANCE, rel=0)
    assert ours.statistic == ref.statistic


@pytest.mark.parametrize('d', [d for _, d in SAMPLES], ids=IDS)
def test_sign_test_equals_scipy_binomtest(d):
    k, n = int((d > 0).sum()), int((d != 0).sum())
    ours = significance.sign_test(d)
    assert ours.pvalue == pytest.approx(stats.binomtest(k, n, 0.5).pvalue, abs=TOLERANCE, rel=0)
    assert ours.statistic == k


def test_wilcoxon_uses_every_regime_of_scipy():
    """The samples reach the exact, exact-with-ties and normal branches (so each is compared)."""
    sizes = {(d.size <= 13, d.size <= 50, len(np.unique(np.abs(d[d != 0]))) < (d != 0).sum() or (d == 0).any())
             for _, d in SAMPLES}
    assert {(True, True, True), (False, True, False), (False, False, True), (False, False, False)} <= sizes


@pytest.mark.parametrize('test', [significance.t_test, significance.wilcoxon_test, significance.sign_test])
def test_no_difference_gives_p_one(test):
    assert test(np.zeros(7)).pvalue == 1.0


def test_constant_nonzero_difference_is_certain_for_t():
    result = significance.t_test(np.full(5, 0.1))
    assert result.statistic == np.inf and result.pvalue == 0.0


# --- corrections --------------------------------------------------------------------------------
def pvalue_vectors():
    rng = np.random.default_rng(7)
    vectors = [np.array([0.05]), np.array([0.0, 1.0]), np.array([0.01, 0.01, 0.01]), np.ones(4), np.zeros(3),
               np.array([0.04, 0.05, 0.05, 0.2, 1.0, 0.0])]
    for m in (2, 5, 9, 30, 100):
        vectors.append(rng.random(m))
        vectors.append(np.round(rng.random(m), 1))                     # ties, zeros, ones
        vectors.append(rng.random(m) ** 6)                              # many small p-values
        vectors.append(np.where(rng.random(m) < 0.4, rng.choice([0.0, 1.0, 0.05, 0.01], m), rng.random(m)))
    return vectors


@pytest.mark.parametrize('method', corrections.METHODS)
@pytest.mark.parametrize('p', pvalue_vectors())
def test_corrections_equal_statsmodels_multipletests(method, p):
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method=method)
    ours = corrections.adjust_pvalues(p, method)
    np.testing.assert_allclose(ours, adjusted, rtol=0, atol=TOLERANCE)
    away = np.abs(adjusted - 0.05) > 1e-9        # the reject rule is p_adjusted <= alpha, as for hommel
    assert np.array_equal((ours <= 0.05)[away], reject[away])


def test_correction_keeps_the_shape_and_none_changes_nothing():
    p = np.array([[0.01, 0.2], [0.03, 0.04]])
    assert corrections.adjust_pvalues(p, 'holm').shape == (2, 2)
    assert np.array_equal(corrections.adjust_pvalues(p, None), p)


def test_unknown_correction_and_invalid_pvalues_are_errors():
    with pytest.raises(OptionError, match="invalid value 'bh' for option 'correction'"):
        corrections.adjust_pvalues([0.1], 'bh')
    with pytest.raises(ComparisonError, match=r'\[0, 1\]'):
        corrections.adjust_pvalues([0.1, 1.5], 'holm')
