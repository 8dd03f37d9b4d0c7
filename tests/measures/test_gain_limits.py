"""Gains that would overflow a double: a value is right or refused in one line, never 0.0 or NaN
from an overflow, and no numpy warning reaches the user."""
import warnings

import pytest

import irmetrics as irm
from irmetrics.constraints import MAX_GAIN

QRELS = {'1': {'a': 2, 'b': 1, 'c': 0}, '2': {'a': 1, 'd': 2}, '3': {'x': 1}}
RUN = {'1': {'a': 1, 'b': 3, 'c': 2}, '2': {'d': 2, 'a': 1, 'e': 3}, '3': {'y': 1}}


def test_huge_gains_give_the_values_of_their_proportions():
    """nDCG is the same for gains scaled alike: gains of 2^959 and 2^960 give the values of 1 and 2,
    with no numpy warning (before: 1e308 gave 0.0, NaN and a RuntimeWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        huge = irm.calc(f'nDCG(gains={{0:0,1:{MAX_GAIN / 2!r},2:{MAX_GAIN!r}}})@10', QRELS, RUN)
    plain = irm.calc('nDCG(gains={0:0,1:1,2:2})@10', QRELS, RUN)
    assert [v.value for v in huge.per_query] == pytest.approx([v.value for v in plain.per_query], rel=1e-15)


@pytest.mark.parametrize('text', ['nDCG(gains={0:0,1:1e308,2:1e308})@10', 'nDCG(gains={1:1e300})',
                                  'RBP(gains={1:2e288,2:1e289})', 'DCG(gains={2:1e290})'])
def test_a_gain_beyond_the_limit_is_one_error(text):
    with pytest.raises(irm.MeasureError, match=r'numbers >= 0 and <= 2\*\*960'):
        irm.parse_measure(text)


def test_an_exponential_gain_beyond_a_double_is_one_error():
    with pytest.raises(irm.MeasureError, match=r"exponential gain of 1100 \(2\^1100 - 1\) is beyond a double"):
        irm.calc_aggregate(["nDCG(dcg='exp-log2')@10"], {'1': {'a': 1100}}, {'1': {'a': 1.0}})
    assert irm.calc_aggregate(["nDCG(dcg='exp-log2')@10"], {'1': {'a': 960, 'b': 1}}, {'1': {'b': 2.0, 'a': 1.0}})


def test_large_whole_gains_print_in_short():
    assert repr(irm.parse_measure('nDCG(gains={1:1e20,2:3})')) == 'nDCG(gains={1:1e+20,2:3})'
    measure = irm.parse_measure('nDCG(gains={1:1e20})')
    assert irm.parse_measure(repr(measure)) == measure
