"""Aggregates read the way they print: keyed by the measure's name (for json and loggers), found by the measure or
by any string that names it."""
import json
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


def test_it_equals_the_dict_ir_measures_returns(values):
    plain = {irm.parse_measure(m): v for m, v in zip(['AP', 'nDCG@10', 'P@5', 'NumRet'], values.values(), strict=True)}
    assert values == plain and values.measures == list(plain) and list(values) == [str(m) for m in plain]
    assert pickle.loads(pickle.dumps(values)) == values
    assert irm.calc(['AP'], QRELS, RUN).aggregated['map'] == values['AP']


def test_aggregates_go_to_json_and_loggers_as_they_are():
    import json
    qrels = {'q1': {'d1': 1, 'd2': 0}, 'q2': {'d3': 2}}
    run = {'q1': {'d1': 2.0, 'd2': 1.0}, 'q2': {'d4': 1.0}}
    values = irm.calc_aggregate([irm.AP, irm.nDCG @ 10, irm.NumRet], qrels, run)
    assert json.loads(json.dumps(values)) == {'AP': 0.5, 'nDCG@10': 0.5, 'NumRet': 3}
    assert all(type(k) is str for k in values)                        # what a logger's log_dict checks
    assert values == {irm.AP: 0.5, irm.nDCG @ 10: 0.5, irm.NumRet: 3} == values
    assert values[irm.AP] == values['AP'] == values['map'] == 0.5
    assert values.measures == [irm.AP, irm.nDCG @ 10, irm.NumRet]
    assert values.by_measure() == {irm.AP: 0.5, irm.nDCG @ 10: 0.5, irm.NumRet: 3}
    assert pickle.loads(pickle.dumps(values)).measures == values.measures


def test_it_renders_as_every_result_does_through_the_records_path(values):
    """render, to_dataframe and to_dict, as the other results have them: a row per measure, a count an integer."""
    assert values.render().splitlines() == ['measure   value', 'AP       0.4087', 'nDCG@10  0.4361', 'P@5      0.5000',
                                            'NumRet      500']
    assert values.render('csv', places=2).splitlines() == ['measure,value', 'AP,0.41', 'nDCG@10,0.44', 'P@5,0.50',
                                                           'NumRet,500']
    assert json.loads(values.render('json'))[0] == {'measure': 'AP', 'value': values['AP']}
    assert values.render('markdown').splitlines()[:3] == ['| measure | value |', '|:---|---:|', '| AP | 0.4087 |']
    frame = values.to_dataframe()
    assert list(frame.columns) == ['measure', 'value'] and frame['value'].tolist() == list(values.values())
    assert values.to_dict() == dict(values) and type(values.to_dict()) is dict
    assert str(values) == repr(values) == repr(dict(values))                 # print() shows the dict, as ir_measures'


def test_to_dict_writes_nan_as_none_as_json_does():
    values = irm.MeasureValues([(irm.parse_measure('AP'), float('nan')), (irm.parse_measure('P@5'), 0.25)])
    assert values.to_dict() == {'AP': None, 'P@5': 0.25}
    assert values.render('table').splitlines()[1:] == ['AP          nan', 'P@5      0.2500']
