"""Measures of a whole run (MeasureDef.scope 'run', irmetrics.algebra.measure.SCOPES): a definition and a
native kernel defined here, evaluated through the API beside per-query measures; the scopes nothing
computes are refused, and so is the ``baseline=`` option they once had."""
import pytest

import irmetrics as irm
import irmetrics.providers.native as native
from irmetrics.algebra.measure import REGISTRY, SCOPES, MeasureDef
from irmetrics.algebra.params import CUTOFF
from irmetrics.errors import MeasureError
from irmetrics.providers.native.kernels import KERNELS, kernel

QRELS = {'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1}, 'q3': {'d': 1}}
RUN = {'q1': {'a': 2.0, 'x': 1.0}, 'q2': {'y': 1.0}}                     # q3 missing
OTHER = {'q1': {'x': 2.0, 'a': 1.0}, 'q2': {'c': 1.0}, 'q3': {'d': 1.0}}


@pytest.fixture(scope='module')
def retrieved():
    """TestRetrieved (scope run): the documents retrieved in the whole run."""
    bare = REGISTRY.register(MeasureDef(name='TestRetrieved', params=(CUTOFF,), summary='TestRetrieved',
                                        formula='test', scope='run', bounds=None))
    kernel(bare)(lambda m, t: float(t.n_ret.sum()))
    yield bare
    KERNELS.pop(bare.definition)
    REGISTRY.remove(bare.name)


def test_the_scopes_are_one_query_and_a_whole_run():
    assert SCOPES == ('query', 'run')
    builtin = [d for d in REGISTRY.definitions() if not d.name.startswith('Test')]
    assert {d.scope for d in builtin} == {'query', 'run'}                 # Coverage and Gini are of a whole run


@pytest.mark.parametrize('scope', ['baseline', 'runs', 'corpus'])
def test_a_scope_nothing_computes_is_refused(scope):
    with pytest.raises(TypeError, match=f"scope '{scope}' is not one of query, run"):
        MeasureDef(name='TestBad', params=(), summary='', formula='', at_param=None, scope=scope)


def test_a_measure_of_a_whole_run_is_one_value_beside_the_means(retrieved):
    results = irm.calc([irm.AP, retrieved], QRELS, RUN)
    assert results.aggregated == {irm.AP: pytest.approx((1.0 + 0 + 0) / 3), retrieved: 3.0}
    assert results.measures == [irm.AP] and results.values.shape == (3, 1)     # no per-query value of it
    assert results.run_values == {retrieved: 3.0}
    assert 'TestRetrieved\t3' in results.render('tsv')


def test_query_and_run_measures_come_from_one_join_of_the_run(retrieved, monkeypatch):
    built = []

    class Counted(native.RankedTable):
        def __init__(self, *args):
            built.append(1)
            super().__init__(*args)
    monkeypatch.setattr(native, 'RankedTable', Counted)
    ev = irm.evaluator([irm.AP, irm.nDCG, retrieved, irm.Coverage(catalogue=10)@2], QRELS)
    results = ev.calc(RUN)
    assert len(built) == 1
    assert results.aggregated["Coverage(catalogue=10)@2"] == pytest.approx(3 / 10)       # a, x and y


def test_measures_of_a_whole_run_are_refused_in_parts_and_in_comparisons(retrieved):
    ev = irm.evaluator([irm.AP, retrieved], QRELS)
    with pytest.raises(MeasureError, match='cannot be evaluated in parts'):
        ev.calc_queries(RUN)
    with pytest.raises(MeasureError, match='whole run'):
        irm.compare([irm.AP, retrieved], QRELS, {'run': RUN, 'other': OTHER})


@pytest.mark.parametrize('calc', [irm.calc, irm.calc_aggregate, irm.iter_calc])
def test_baseline_is_no_option_of_the_calc_functions(calc):
    with pytest.raises(TypeError, match="unexpected keyword argument 'baseline'"):
        calc(['AP'], QRELS, RUN, baseline=OTHER)


def test_baseline_is_no_option_of_the_evaluator():
    ev = irm.evaluator(['AP'], QRELS)
    for method in (ev.calc, ev.calc_aggregate, ev.iter_calc):
        with pytest.raises(TypeError, match="unexpected keyword argument 'baseline'"):
            method(RUN, baseline=OTHER)
    assert not hasattr(ev, 'calc_runs')
