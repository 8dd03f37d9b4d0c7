"""Aggregates read the way they print (issue 21): by the measure, or by any string that names it."""
import pickle

import pytest
from repo_paths import ROOT

import irmetrics as irm

QRELS, RUN = ROOT / 'examples' / 'qrels.txt', ROOT / 'examples' / 'run_bm25.txt'


@pytest.fixture(scope='module')
def values():
    return irm.calc_aggregate(['AP', 'nDCG@10', 'P@5', 'NumRet'], QRELS, RUN)


@pytest.mark.parametrize('key, measure', [('AP', 'AP'), ('map', 'AP'), ('nDCG@10', 'nDCG@10'),
                                          ('ndcg_cut_10', 'nDCG@10'), ('ndcg_cut.10', 'nDCG@10'),
                                          ('P_5', 'P@5'), ('P.5', 'P@5'), ('num_ret', 'NumRet')])
def test_a_value_is_found_by_any_name_of_its_measure(values, key, measure):
    assert isinstance(values, irm.MeasureValues) and key in values
    assert values[key] == values[irm.parse_measure(measure)] == values.get(key)


@pytest.mark.parametrize('key, message', [('RR', 'which was not evaluated'), ('P.5,10', 'names 2 measures'),
                                          ('nonsense', "unknown measure 'nonsense'")])
def test_a_string_that_names_no_evaluated_measure_is_a_key_error_saying_why(values, key, message):
    assert key not in values and values.get(key, 'none') == 'none'
    with pytest.raises(KeyError, match=message):
        values[key]


def test_it_is_still_the_dict_ir_measures_returns(values):
    plain = {irm.parse_measure(m): v for m, v in zip(['AP', 'nDCG@10', 'P@5', 'NumRet'], values.values(), strict=True)}
    assert values == plain and list(values) == list(plain)
    assert pickle.loads(pickle.dumps(values)) == values
    assert irm.calc(['AP'], QRELS, RUN).aggregated['map'] == values['AP']
