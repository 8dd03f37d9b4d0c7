"""Measures beyond one query (MeasureDef.scope, irmetrics.algebra.measure.SCOPES): a measure of a whole
run, one against a baseline and one of several runs, each a definition and a native kernel defined here
(the rooms later issues fill with coverage, URisk, rank correlation), evaluated through the API."""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics.algebra.measure import REGISTRY, MeasureDef
from irmetrics.algebra.params import CUTOFF
from irmetrics.errors import MeasureError
from irmetrics.providers.native.kernels import KERNELS, kernel

QRELS = {'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1}, 'q3': {'d': 1}}
RUN = {'q1': {'a': 2.0, 'x': 1.0}, 'q2': {'y': 1.0}}                     # q3 missing
BASE = {'q1': {'x': 2.0, 'a': 1.0}, 'q2': {'c': 1.0}, 'q3': {'d': 1.0}}


def _define(name, scope):
    return REGISTRY.register(MeasureDef(name=name, params=(CUTOFF,), summary=name, formula='test', scope=scope,
                                        bounds=None))


@pytest.fixture(scope='module')
def families():
    """TestRetrieved (scope run): documents retrieved in the whole run; TestGain (baseline): the run's
    relevant retrieved documents minus the baseline's; TestRank (runs): each run's number of relevant
    retrieved documents, ranked among the runs (1 = most)."""
    retrieved, gain, ranks = _define('TestRetrieved', 'run'), _define('TestGain', 'baseline'), \
        _define('TestRank', 'runs')

    def relevant_retrieved(t):
        return int(t.relevant(1).sum())

    kernel(retrieved)(lambda m, t: float(t.n_ret.sum()))
    kernel(gain)(lambda m, t, base: float(relevant_retrieved(t) - relevant_retrieved(base)))
    kernel(ranks)(lambda m, tables: 1 + np.argsort(np.argsort([-relevant_retrieved(t) for t in tables],
                                                              kind='stable')))
    yield retrieved, gain, ranks
    for bare in (retrieved, gain, ranks):
        KERNELS.pop(bare.definition)
        REGISTRY.remove(bare.name)


def test_a_measure_of_a_whole_run_is_one_value_beside_the_means(families):
    retrieved, _, _ = families
    results = irm.calc([irm.AP, retrieved], QRELS, RUN)
    assert results.aggregated == {irm.AP: pytest.approx((1.0 + 0 + 0) / 3), retrieved: 3.0}
    assert results.measures == [irm.AP] and results.values.shape == (3, 1)     # no per-query value of it
    assert {m.measure for m in results.iter_metrics()} == {irm.AP}
    assert 'TestRetrieved\t3' in results.render('tsv')
    assert irm.calc_aggregate([irm.AP, irm.nDCG], QRELS, RUN) == irm.calc_aggregate([irm.AP, irm.nDCG], QRELS, RUN)


def test_a_measure_against_a_baseline_needs_the_baseline(families):
    _, gain, _ = families
    assert irm.evaluator([gain], QRELS).calc(RUN, baseline=BASE).aggregated == {gain: 1.0 - 3.0}
    with pytest.raises(MeasureError, match='baseline='):
        irm.calc([gain], QRELS, RUN)


def test_measures_of_several_runs_are_computed_from_all_of_them(families):
    retrieved, _, ranks = families
    ev = irm.evaluator([irm.AP, retrieved, ranks], QRELS)
    found = ev.calc_runs({'run': RUN, 'base': BASE})
    assert found.names == ('run', 'base')
    assert found.across[ranks].tolist() == [2.0, 1.0]                     # base retrieves 3 relevant, run 1
    assert found.results['base'].aggregated[retrieved] == 4.0
    with pytest.raises(MeasureError, match='calc_runs'):
        ev.calc(RUN)


def test_measures_of_a_whole_run_are_refused_in_parts_and_in_comparisons(families):
    retrieved, _, _ = families
    ev = irm.evaluator([irm.AP, retrieved], QRELS)
    with pytest.raises(MeasureError, match='cannot be evaluated in parts'):
        ev.calc_queries(RUN)
    with pytest.raises(MeasureError, match='whole run'):
        irm.compare([irm.AP, retrieved], QRELS, {'run': RUN, 'base': BASE})


def test_a_scope_must_be_one_of_the_four():
    with pytest.raises(TypeError, match='scope'):
        MeasureDef(name='TestBad', params=(), summary='', formula='', at_param=None, scope='corpus')
    builtin = [d for d in REGISTRY.definitions() if not d.name.startswith('Test')]
    assert {d.scope for d in builtin} == {'query', 'run'}                 # Coverage and Gini are of a whole run
