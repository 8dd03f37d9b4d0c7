"""irmetrics.swap_rates: the vectorised counts against a loop over trials and pairs written from the
definition, the rates against every split enumerated, hand-computed cases, errors and the result."""
import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from valued_runs import precision_runs

import irmetrics as irm
from irmetrics.comparing import ComparisonError
from irmetrics.trust.swap_rates import count_swaps, random_halves


def exact_mean(values):
    """The mean of the defined values, in exact arithmetic (the values are tenths); None for none."""
    defined = [Fraction(round(v * 10), 10) for v in values if not math.isnan(v)]
    return sum(defined) / len(defined) if defined else None


def brute_force(values, size, trials, width, seed):
    """The definition, one trial, pair and measure at a time, in exact arithmetic, on the halves the
    function draws."""
    first, second = random_halves(values.shape[1], size, trials, np.random.default_rng(seed))
    n_runs, _, n_measures = values.shape
    observations, swaps = {}, {}
    for t in range(trials):
        for i, j in itertools.combinations(range(n_runs), 2):
            for m in range(n_measures):
                means = [exact_mean(values[r, half[t], m]) for half in (first, second) for r in (i, j)]
                if None in means or means[1] == means[0]:
                    continue
                d1, d2 = means[1] - means[0], means[3] - means[2]
                key = (m, math.floor(abs(d1) / width))
                observations[key] = observations.get(key, 0) + 1
                swaps[key] = swaps.get(key, 0) + (d1 * d2 < 0)
    return observations, swaps


def as_dict(counts):
    return {(m, k): int(c) for (m, k), c in np.ndenumerate(counts) if c}


@pytest.mark.parametrize('seed', [0, 1, 2])
def test_counts_are_the_definitions(seed):
    rng = np.random.default_rng(100 + seed)
    values = rng.integers(0, 11, size=(4, 9, 2)) / 10
    values[1, 3, 1] = np.nan                                         # a measure undefined on one query
    pairs = list(itertools.combinations(range(4), 2))
    observations, swaps = count_swaps(values, pairs, 4, 300, 0.05, np.random.default_rng(seed))
    want_observations, want_swaps = brute_force(values, 4, 300, Fraction(1, 20), seed)
    assert as_dict(observations) == want_observations
    assert as_dict(swaps) == {k: v for k, v in want_swaps.items() if v}
    assert swaps.sum() > 0


def test_rates_converge_to_every_split_enumerated():
    """Two runs on six queries, halves of three: each of the 20 ordered splits is equally likely, so
    each bin's observations and swaps over many trials approach the enumeration's shares (in exact
    arithmetic)."""
    tenths = [3, -2, 1, 4, -5, 2]
    values = np.stack([np.zeros(6), np.array(tenths) / 10])[:, :, None]
    expected_obs, expected_swaps = {}, {}
    for first in itertools.combinations(range(6), 3):
        second = [q for q in range(6) if q not in first]
        d1, d2 = (Fraction(sum(tenths[q] for q in half), 30) for half in (first, second))
        if d1 != 0:
            key = (0, math.floor(abs(d1) / Fraction(1, 10)))
            expected_obs[key] = expected_obs.get(key, 0) + 1 / 20
            expected_swaps[key] = expected_swaps.get(key, 0) + (d1 * d2 < 0) / 20
    trials = 20000
    observations, swaps = count_swaps(values, [(0, 1)], 3, trials, 0.1, np.random.default_rng(5))
    for key, share in expected_obs.items():
        sd = math.sqrt(share * (1 - share) / trials)
        assert observations[key] / trials == pytest.approx(share, abs=5 * sd + 1e-12)
        sd = math.sqrt(expected_swaps[key] * (1 - expected_swaps[key]) / trials)
        assert swaps[key] / trials == pytest.approx(expected_swaps[key], abs=5 * sd + 1e-12)
    assert sum(expected_swaps.values()) > 0


def test_hand_computed_two_queries():
    """P@10 differences +0.1 on q0 and -0.3 on q1, halves of one query: whichever comes first, the other
    orders the pair the other way: every observation is a swap, in bin [0, 0.25) when q0 came first and
    [0.25, 0.5) when q1 did."""
    qrels, runs = precision_runs([[5, 5], [6, 2]])
    result = irm.swap_rates('P@10', qrels, runs, trials=400, bin_width=0.25, seed=1)
    rows = result.table().rows
    assert [r[:3] for r in rows] == [['P@10', 0.0, 0.25], ['P@10', 0.25, 0.5]]
    assert rows[0][3] + rows[1][3] == 400 and rows[0][3] > 100 and rows[1][3] > 100
    assert [r[5] for r in rows] == [1.0, 1.0] and result.swaps.sum() == 400


def test_a_run_better_on_every_query_never_swaps_and_ties_are_left_out():
    qrels, runs = precision_runs([[2, 3, 1, 4, 2, 3], [5, 6, 5, 8, 4, 9], [2, 3, 1, 4, 2, 3]])
    result = irm.swap_rates(['P@10', 'AP'], qrels, runs, trials=200)
    assert result.swaps.sum() == 0
    # 200 trials x 3 pairs, less run0 vs run2 (identical: d1 = 0 always)
    assert result.observations.sum(axis=1).tolist() == [400, 400]


def test_seed_size_and_defaults():
    qrels, runs = precision_runs(np.random.default_rng(3).integers(0, 11, size=(4, 11)))
    one, two = (irm.swap_rates('P@10', qrels, runs, trials=50, seed=9) for _ in range(2))
    np.testing.assert_array_equal(one.observations, two.observations)
    np.testing.assert_array_equal(one.swaps, two.swaps)
    assert one.size == 5 and one.n_queries == 11 and one.bin_width == 0.01
    small = irm.swap_rates('P@10', qrels, runs, trials=50, size=2, seed=9)
    assert small.size == 2 and small.observations.sum() <= 50 * 6


def test_errors():
    qrels, runs = precision_runs([[1, 2, 3, 4], [4, 3, 2, 1]])
    with pytest.raises(ComparisonError, match='size=3: each half holds 1 to 2 of the 4 queries'):
        irm.swap_rates('P@10', qrels, runs, size=3)
    with pytest.raises(irm.OptionError, match="option 'trials'"):
        irm.swap_rates('P@10', qrels, runs, trials=0)
    with pytest.raises(irm.OptionError, match="option 'trials'"):
        irm.swap_rates('P@10', qrels, runs, trials=10.5)
    with pytest.raises(irm.OptionError, match="option 'size'"):
        irm.swap_rates('P@10', qrels, runs, size=0)
    assert irm.swap_rates('P@10', qrels, runs, trials=np.int64(5), size=np.int32(1)).trials == 5
    with pytest.raises(irm.OptionError, match="option 'bin_width'"):
        irm.swap_rates('P@10', qrels, runs, bin_width=0)
    with pytest.raises(ComparisonError, match='swap rates needs two runs or more'):
        irm.swap_rates('P@10', qrels, {'a': runs['run0']})
    with pytest.raises(ComparisonError, match='1 query'):
        irm.swap_rates('P@10', {'q0': qrels['q0']}, runs)


def test_result_object():
    qrels, runs = precision_runs([[5, 5], [6, 2]])
    result = irm.swap_rates('P@10', qrels, runs, trials=10, bin_width=0.25)
    assert isinstance(result, irm.SwapRates)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.trials = 3
    frame = result.to_dataframe()
    assert list(frame.columns) == ['measure', 'low', 'high', 'pairs', 'swaps', 'swap_rate']
    assert frame.swap_rate.tolist() == [1.0, 1.0]
    assert [b['low'] for b in result.to_dict()['P@10']] == [0.0, 0.25]
    assert repr(result).startswith('<SwapRates: 2 runs, 10 trials of 1 + 1 of 2 queries, bins of 0.25; swaps '
                                   'overall: P@10 1.000>')
    assert str(result).splitlines()[0].split() == ['measure', 'low', 'high', 'pairs', 'swaps', 'swap_rate']


def test_a_bin_width_that_needs_too_many_bins_is_one_option_error():
    """A width so small that a difference falls beyond a million bins (1e-300: beyond what int64 holds, a
    traceback before) names the width to give instead."""
    qrels, runs = precision_runs([[1, 5, 9, 2, 7, 3], [4, 4, 6, 8, 1, 2]])
    for width in (1e-300, 1e-9):
        with pytest.raises(irm.OptionError, match=r'bin_width=.*beyond the 1,000,000 bins counted at most: give a '
                                                  r'bin width of at least'):
            irm.swap_rates(['P@10'], qrels, runs, trials=5, bin_width=width)
