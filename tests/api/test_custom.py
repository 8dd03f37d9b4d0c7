"""Custom measures: irmetrics.define, per query or vectorised, usable like built-in measures."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from rankdata import collections, per_query
from repo_paths import ROOT

import irmetrics as irm
from irmetrics import P
from irmetrics.algebra.params import Param
from irmetrics.api import custom
from irmetrics.constraints import Float

REPO = str(ROOT)


def _precision(qrels, run, cutoff, rel):
    grades = {q.doc_id: q.relevance for q in qrels}
    return sum(grades.get(d.doc_id, 0) >= rel for d in run[:cutoff]) / cutoff


def _precision_vectorised(t, cutoff, rel):
    return t.count(t.relevant(rel) & (t.rank < cutoff)) / cutoff


@pytest.fixture(autouse=True, scope='module')
def forget_custom_measures():
    """Custom measures live in the global registry: remove the ones this module defines."""
    before = set(custom.custom_measures())
    yield
    for name in set(custom.custom_measures()) - before:
        custom.undefine(name)


@pytest.fixture(scope='module')
def my_p(forget_custom_measures):
    return (irm.define(_precision, name='TestMyP', params=('cutoff', 'rel')),
            irm.define(_precision_vectorised, name='TestMyPV', params=('cutoff', 'rel'), vectorized=True))


@settings(max_examples=40)
@given(data=collections())
def test_custom_measures_equal_the_builtin_one(my_p, data):
    MyP, MyPV = my_p
    qrels, run = data
    measures = [P @ 3, MyP @ 3, MyPV @ 3, MyP(rel=2) @ 5, MyPV(rel=2) @ 5, P(rel=2) @ 5]
    res = irm.calc(measures, qrels, run)
    assert per_query(res, MyP @ 3) == pytest.approx(per_query(res, P @ 3), abs=1e-12)
    assert per_query(res, MyPV @ 3) == pytest.approx(per_query(res, P @ 3), abs=1e-12)
    assert per_query(res, MyP(rel=2) @ 5) == pytest.approx(per_query(res, P(rel=2) @ 5))
    assert per_query(res, MyPV(rel=2) @ 5) == pytest.approx(per_query(res, P(rel=2) @ 5))


def test_parse_by_name_round_trip_and_aggregate(my_p):
    MyP, MyPV = my_p
    m = irm.parse_measure('TestMyP(rel=2)@5')
    assert m == MyP(rel=2) @ 5 and irm.parse_measure(repr(m)) == m
    qrels = {'q1': {'a': 2, 'b': 1}, 'q2': {'c': 1}}
    run = {'q1': {'a': 2.0, 'b': 1.0}}
    assert irm.calc_aggregate(['TestMyP@2', 'P@2'], qrels, run) == {MyP @ 2: 0.5, P @ 2: 0.5}
    ev = irm.evaluator([MyPV @ 1], qrels)
    assert ev.calc_aggregate(run) == {MyPV @ 1: 0.5}


def test_run_rows_are_in_canonical_order_and_missing_queries_get_missing_value():
    seen = {}

    def first_doc(qrels, run):
        seen[run[0].query_id if run else None] = [d.doc_id for d in run]
        return 1.0

    m = irm.define(first_doc, name='TestFirstDoc', missing_value=0.25)
    qrels = {'q1': {'a': 1}, 'q2': {'b': 1}}
    run = {'q1': {'a': 1.0, 'b': 1.0, 'c': 2.0}}
    assert per_query(irm.calc([m], qrels, run), m) == {'q1': 1.0, 'q2': 0.25}
    assert seen == {'q1': ['c', 'b', 'a']}                     # ties: docno descending


def test_typed_parameters_and_validation():
    def weighted(qrels, run, w):
        return w * len(run)

    m = irm.define(weighted, name='TestWeighted', params={'w': 1.0})
    assert irm.calc_aggregate([m(w=0.5)], {'q': {'a': 1}}, {'q': {'a': 1.0, 'b': 0.5}}) == {m(w=0.5): 1.0}
    with pytest.raises(irm.MeasureError):
        m(w='heavy')
    bounded = irm.define(weighted, name='TestBounded', params=[Param('w', Float(0, 1), 1.0, 'a weight')])
    with pytest.raises(irm.MeasureError):
        bounded(w=2)


def test_redefinition_and_builtin_names():
    irm.define(lambda q, r: 1.0, name='TestAgain')
    again = irm.define(lambda q, r: 2.0, name='TestAgain')          # a notebook cell run twice
    assert irm.calc_aggregate([again], {'q': {'a': 1}}, {'q': {'a': 1.0}}) == {again: 2.0}
    with pytest.raises(irm.MeasureError):
        irm.define(lambda q, r: 1.0, name='AP')
    with pytest.raises(irm.MeasureError):
        irm.define(lambda q, r: 1.0, name='TestBadParam', params=('no_such_shared_param',))
    custom.undefine('TestAgain')
    with pytest.raises(irm.UnknownMeasureError):
        irm.parse_measure('TestAgain')
    with pytest.raises(irm.MeasureError):
        custom.undefine('AP')


def test_vectorised_shape_is_checked():
    bad = irm.define(lambda t: np.zeros(1 + t.nq), name='TestBadShape', vectorized=True)
    with pytest.raises(irm.MeasureError, match='shape'):
        irm.calc_aggregate([bad], {'q': {'a': 1}}, {'q': {'a': 1.0}})


def test_undefined_queries_can_be_skipped():
    m = irm.define(lambda q, r: float('nan') if len(r) < 2 else 1.0, name='TestSkips', skips_undefined=True)
    res = irm.calc([m], {'q1': {'a': 1}, 'q2': {'b': 1}}, {'q1': {'a': 1.0}, 'q2': {'a': 1.0, 'b': 2.0}})
    assert per_query(res, m) == {'q2': 1.0} and res.aggregated[m] == 1.0


def test_cli_finds_plugin_measures(tmp_path):
    (tmp_path / 'my_measures.py').write_text(textwrap.dedent('''
        import irmetrics

        @irmetrics.define(name='TopScore')
        def top_score(qrels, run):
            """The score of the first document."""
            return run[0].score
    '''))
    (tmp_path / 'qrels').write_text('q 0 a 1\n')
    (tmp_path / 'run').write_text('q Q0 a 1 3.5 r\nq Q0 b 2 1.5 r\n')
    env = dict(os.environ, IRMETRICS_PLUGINS='my_measures',
               PYTHONPATH=os.pathsep.join([str(tmp_path), REPO, os.environ.get('PYTHONPATH', '')]))
    out = subprocess.run([sys.executable, '-m', 'irmetrics', str(tmp_path / 'qrels'), str(tmp_path / 'run'),
                          'TopScore', 'P@1'], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert 'TopScore\t3.5000' in out.stdout
