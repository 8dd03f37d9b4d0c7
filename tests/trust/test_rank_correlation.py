"""Kendall's tau-b and tau_AP (irmetrics/trust/rank_correlation.py): against scipy.stats.kendalltau,
brute forces of the definitions, the values published with Urbano & Marrero's ircor, and hand-computed cases."""
import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_tools import reference

import irmetrics as irm

stats = reference('scipy.stats')


def as_mapping(values) -> dict[str, float]:
    return {f's{i}': float(v) for i, v in enumerate(values)}


# --- Kendall's tau-b --------------------------------------------------------------------------------
@pytest.mark.parametrize('seed', range(12))
def test_tau_b_and_p_value_equal_scipy_with_and_without_ties(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n = int(rng.integers(3, 70))
        levels = int(rng.integers(2, 10))
        x = rng.integers(0, levels, n).astype(float) if seed % 2 else rng.normal(size=n)
        y = rng.integers(0, levels, n).astype(float) if seed % 3 else x + rng.normal(size=n)
        expected = stats.kendalltau(x, y)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', irm.IrmetricsWarning)
            got = irm.kendall_tau(as_mapping(x), as_mapping(y))
        if math.isnan(expected.statistic):
            assert math.isnan(got.statistic)
            continue
        assert got.n == n
        assert got.statistic == pytest.approx(expected.statistic, abs=1e-14)
        assert got.pvalue == pytest.approx(expected.pvalue, rel=1e-10, abs=1e-300)


def test_exact_p_value_for_a_large_ranking_with_one_discordant_pair():
    x = np.arange(60.0)
    y = x.copy()
    y[[10, 11]] = y[[11, 10]]
    got = irm.kendall_tau(as_mapping(x), as_mapping(y))
    assert got.pvalue == pytest.approx(stats.kendalltau(x, y).pvalue, rel=1e-10)


def test_identical_and_reversed_rankings():
    a = ['d1', 'd2', 'd3', 'd4', 'd5']
    assert irm.kendall_tau(a, a).statistic == 1.0
    assert irm.kendall_tau(a, a[::-1]).statistic == -1.0
    # exact p-value of the identity among 5! permutations: 2 * 1/120
    assert irm.kendall_tau(a, a).pvalue == pytest.approx(2 / 120)


def test_hand_computed_tau_b_with_ties():
    # a: s1 > s2 = s3 > s4; b: s1 > s3 > s2 > s4.  Pairs: (1,2)+ (1,3)+ (1,4)+ (2,3) tied in a, (2,4)+ (3,4)+
    # n_c = 5, n_d = 0, n_0 = 6, n_1 = 1, n_2 = 0: tau_b = 5 / sqrt(5 * 6)
    a = {'s1': 4, 's2': 2, 's3': 2, 's4': 1}
    b = {'s1': 4, 's2': 2, 's3': 3, 's4': 1}
    assert irm.kendall_tau(a, b).statistic == pytest.approx(5 / math.sqrt(30))


def test_sequences_and_mappings_say_the_same():
    seq = ['c', 'a', 'b', 'd']
    mapping = {'a': 0.5, 'b': 0.2, 'c': 0.9, 'd': 0.1}
    other = ['a', 'c', 'd', 'b']
    assert irm.kendall_tau(seq, other) == irm.kendall_tau(mapping, other)


def test_fewer_than_three_common_items_are_nan_with_a_warning():
    with pytest.warns(irm.IrmetricsWarning, match='needs 3 items'):
        result = irm.kendall_tau({'a': 1, 'b': 2}, {'a': 2, 'b': 1})
    assert math.isnan(result.statistic) and math.isnan(result.pvalue) and result.n == 2


def test_items_in_one_ranking_only_are_left_out_with_a_warning():
    a = {'a': 4, 'b': 3, 'c': 2, 'd': 1, 'x': 0}
    b = {'a': 4, 'b': 3, 'c': 1, 'd': 2, 'y': 9}
    with pytest.warns(irm.IrmetricsWarning, match='share 4 items: 1 only in a and 1 only in b'):
        result = irm.kendall_tau(a, b)
    assert result.n == 4
    assert result.statistic == pytest.approx(stats.kendalltau([4, 3, 2, 1], [4, 3, 1, 2]).statistic)


def test_no_common_item_is_an_error():
    with pytest.raises(irm.InputError, match='no item in common'):
        irm.kendall_tau(['a', 'b', 'c'], ['x', 'y', 'z'])


def test_every_item_tied_is_nan_with_a_warning():
    with pytest.warns(irm.IrmetricsWarning, match='ties every item'):
        assert math.isnan(irm.kendall_tau({'a': 1, 'b': 1, 'c': 1}, ['a', 'b', 'c']).statistic)


@pytest.mark.parametrize('bad, message', [
    ({'a': float('nan'), 'b': 1, 'c': 2}, 'finite number'),
    ({'a': 'high', 'b': 1, 'c': 2}, 'finite number'),
    (['a', 'b', 'a'], 'occurs twice'),
    ('abc', 'expected a mapping'),
    ([], 'empty'),
    (np.array([0.3, 0.2, 0.9]), 'is a score: give scores as a mapping'),
])
def test_bad_rankings_are_errors_naming_the_argument(bad, message):
    with pytest.raises(irm.InputError, match=message) as ex:
        irm.kendall_tau(bad, ['a', 'b', 'c'])
    assert str(ex.value).startswith('a:')


def test_result_object():
    result = irm.kendall_tau(['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd'])
    assert result.to_dict() == {'statistic': result.statistic, 'pvalue': result.pvalue, 'n': 4}
    assert repr(result).startswith('KendallTau(statistic=0.6667')
    with pytest.raises(AttributeError):
        result.n = 3                                                      # frozen


# --- tau_AP -----------------------------------------------------------------------------------------
def brute_tau_ap(truth: dict, estimate: dict) -> float:
    """Yilmaz et al.'s definition, item by item in the estimated order (no ties)."""
    order = sorted(estimate, key=lambda k: -estimate[k])
    total = 0.0
    for i in range(1, len(order)):
        correct = sum(truth[order[j]] > truth[order[i]] for j in range(i))
        total += correct / i
    return 2 * total / (len(order) - 1) - 1


def test_tau_ap_equals_the_definition_on_random_rankings():
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(3, 25))
        truth, estimate = as_mapping(rng.permutation(n)), as_mapping(rng.permutation(n))
        assert irm.tau_ap(truth, estimate).statistic == pytest.approx(brute_tau_ap(truth, estimate), abs=1e-12)


def test_tau_ap_hand_computed_swaps_at_the_top_cost_more():
    truth = ['a', 'b', 'c']
    # estimate b a c: b has nothing above it; a has b above (wrong): 0/1; c has b, a above (both right): 2/2
    assert irm.tau_ap(truth, ['b', 'a', 'c']).statistic == pytest.approx(0.0)
    # estimate a c b: c has a above (right): 1/1; b has a (right), c (wrong): 1/2
    assert irm.tau_ap(truth, ['a', 'c', 'b']).statistic == pytest.approx(0.5)
    # Kendall's tau does not tell the two swaps apart
    assert irm.kendall_tau(truth, ['b', 'a', 'c']).statistic == irm.kendall_tau(truth, ['a', 'c', 'b']).statistic


def test_tau_ap_identical_reversed_and_asymmetric():
    a = list('abcdefg')
    assert irm.tau_ap(a, a).statistic == 1.0
    assert irm.tau_ap(a, a[::-1]).statistic == pytest.approx(-1.0)
    b = list('cabdefg')
    # estimate c a b d e f g against a..g: a 0/1, b 1/2, d..g 1 each: 2/6 * 4.5 - 1
    assert irm.tau_ap(a, b).statistic == pytest.approx(0.5)
    # estimate a..g against c a b d e f g: b 1/1, c 0/2, d..g 1 each: 2/6 * 5 - 1
    assert irm.tau_ap(b, a).statistic == pytest.approx(2 / 3)


# The vectors of ircor's tests (J. Urbano's R package of the ICTIR 2017 paper) and the values it publishes.
SETS = {
    1: dict(x=[0.897, 0.372, 0.908, 0.898, 0.661, 0.062, 0.177, 0.384, 0.498, 0.992],
            y=[0.82, 0.406, 0.817, 0.953, 0.673, 0.073, 0.364, 0.547, 0.589, 0.988],
            x_ties=[0.9, 0.4, 0.9, 0.9, 0.7, 0.1, 0.2, 0.4, 0.5, 1],
            y_ties=[0.8, 0.4, 0.8, 1, 0.7, 0.1, 0.4, 0.5, 0.6, 1]),
    2: dict(x=[0.266, 0.573, 0.202, 0.945, 0.629, 0.206, 0.687, 0.77, 0.718, 0.38],
            y=[0.263, 0.843, 0.728, 0.928, 0.08, 0.114, 0.467, 0.641, 0.973, 0.644],
            x_ties=[0.3, 0.6, 0.2, 0.9, 0.6, 0.2, 0.7, 0.8, 0.7, 0.4],
            y_ties=[0.3, 0.8, 0.7, 0.9, 0.1, 0.1, 0.5, 0.6, 1, 0.6]),
    3: dict(x=[0.185, 0.573, 0.944, 0.129, 0.468, 0.553, 0.761, 0.405, 0.976, 0.445],
            y=[0.845, 0.272, 0.275, 0.924, 0.605, 0.334, 0.162, 0.872, 0.018, 0.25],
            x_ties=[0.2, 0.6, 0.9, 0.1, 0.5, 0.6, 0.8, 0.4, 1, 0.4],
            y_ties=[0.8, 0.3, 0.3, 0.9, 0.6, 0.3, 0.2, 0.9, 0, 0.2]),
}
PUBLISHED = {  # set: (tauAP, tauAP_a with ties in y, tauAP_b, tauAP_b with ties in both)
    1: (0.8519, 0.7454, 0.8333, 0.7321),
    2: (0.2504, 0.2692, 0.2880, 0.297),
    3: (-0.6971, -0.5558, -0.668, -0.7047),
}


@pytest.mark.parametrize('number', sorted(SETS))
def test_tau_ap_and_its_tie_variants_equal_the_published_values(number):
    s, (plain, a_ties, b, b_ties) = SETS[number], PUBLISHED[number]
    x, y, xt, yt = (as_mapping(s[k]) for k in ('x', 'y', 'x_ties', 'y_ties'))
    assert irm.tau_ap(x, y).statistic == pytest.approx(plain, abs=5e-5)
    assert irm.tau_ap(x, yt).statistic == pytest.approx(a_ties, abs=5e-5)
    assert irm.tau_ap(x, y, tie_variant='b').statistic == pytest.approx(b, abs=5e-5)
    assert irm.tau_ap(xt, yt, tie_variant='b').statistic == pytest.approx(b_ties, abs=5e-5)
    assert irm.tau_ap(yt, xt, tie_variant='b').statistic == pytest.approx(b_ties, abs=5e-5)      # symmetric


def test_tau_ap_a_is_the_mean_over_every_order_of_the_estimates_ties():
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(3, 8))
        truth = as_mapping(rng.permutation(n))
        estimate = as_mapping(rng.integers(0, max(2, n // 2), n))
        names = list(estimate)
        values = []
        for order in itertools.permutations(range(n)):
            # break the estimate's ties by this order of the items: tied items keep their value, a small offset
            broken = {names[i]: estimate[names[i]] + 1e-6 * (n - rank) for rank, i in enumerate(order)}
            values.append(brute_tau_ap(truth, broken))
        assert irm.tau_ap(truth, estimate).statistic == pytest.approx(np.mean(values), abs=1e-12)


def test_tau_ap_b_without_ties_is_the_mean_of_both_directions():
    rng = np.random.default_rng(11)
    for _ in range(50):
        n = int(rng.integers(3, 20))
        x, y = as_mapping(rng.permutation(n)), as_mapping(rng.permutation(n))
        expected = (brute_tau_ap(x, y) + brute_tau_ap(y, x)) / 2
        assert irm.tau_ap(x, y, tie_variant='b').statistic == pytest.approx(expected, abs=1e-12)


def test_tau_ap_a_refuses_a_reference_with_ties():
    with pytest.raises(irm.InputError, match="reference ranking has ties.*tie_variant='b'"):
        irm.tau_ap({'a': 2, 'b': 2, 'c': 1}, ['a', 'b', 'c'])


def test_tau_ap_b_with_every_item_tied_is_nan_with_a_warning():
    with pytest.warns(irm.IrmetricsWarning, match='ties every item'):
        assert math.isnan(irm.tau_ap({'a': 1, 'b': 1, 'c': 1}, ['a', 'b', 'c'], tie_variant='b').statistic)


def test_tau_ap_nan_below_three_items_and_a_bad_tie_variant():
    with pytest.warns(irm.IrmetricsWarning, match='tau_AP of 2 items'):
        assert math.isnan(irm.tau_ap(['a', 'b'], ['b', 'a']).statistic)
    with pytest.raises(irm.OptionError, match="invalid value 'c' for option 'tie_variant': expected one of 'a', 'b'"):
        irm.tau_ap(['a', 'b', 'c'], ['a', 'b', 'c'], tie_variant='c')


permutations = st.integers(3, 30).flatmap(lambda n: st.permutations([f'i{k}' for k in range(n)]))


@settings(max_examples=200, deadline=None)
@given(permutations, st.randoms(use_true_random=False))
def test_properties_of_permutations(order, random):
    other = list(order)
    random.shuffle(other)
    tau = irm.kendall_tau(order, other).statistic
    assert tau == irm.kendall_tau(other, order).statistic                 # symmetric
    assert irm.kendall_tau(order, other[::-1]).statistic == pytest.approx(-tau, abs=1e-14)
    assert -1 <= tau <= 1 and -1 <= irm.tau_ap(order, other).statistic <= 1
    assert irm.tau_ap(order, order).statistic == 1.0


def test_long_rankings_go_through_scipy_with_the_same_numbers(monkeypatch):
    # beyond PAIRWISE_UP_TO items the pairs are not counted in n x n tables; the numbers are the same
    from irmetrics.trust import rank_correlation
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 30, 400).astype(float), rng.integers(0, 30, 400).astype(float)
    pairwise = irm.kendall_tau(as_mapping(x), as_mapping(y))
    monkeypatch.setattr(rank_correlation, 'PAIRWISE_UP_TO', 100)
    long = irm.kendall_tau(as_mapping(x), as_mapping(y))
    assert long.statistic == pytest.approx(pairwise.statistic, abs=1e-14)
    assert long.pvalue == pytest.approx(pairwise.pvalue, rel=1e-10)
    assert rank_correlation.tau_statistic(x, y) == pytest.approx(pairwise.statistic, abs=1e-14)


def test_tau_ap_refuses_rankings_too_long_for_its_pair_tables(monkeypatch):
    from irmetrics.trust import rank_correlation
    monkeypatch.setattr(rank_correlation, 'TAU_AP_UP_TO', 10)
    with pytest.raises(irm.InputError, match='tau_AP counts their pairs'):
        irm.tau_ap(list('abcdefghijkl'), list('abcdefghijkl'))


def test_long_identical_and_reversed_rankings_are_exactly_one_and_minus_one():
    items = [f'd{i}' for i in range(800)]               # beyond the pair tables: through scipy
    assert irm.kendall_tau(items, items).statistic == 1.0
    assert irm.kendall_tau(items, items[::-1]).statistic == -1.0
