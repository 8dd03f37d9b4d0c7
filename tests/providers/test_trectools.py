"""The trectools provider against the native engine (trec_eval semantics) on generated data.

The provider hands trectools the canonical ranking with distinct scores and translates its NaN/absent
values to trec_eval's 0 (see irmetrics.providers.trectools).  Remaining, documented differences are
asserted in test_divergence_*.
"""
import warnings

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import collections, per_query
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP, RBP, RR, Bpref, P, Rprec, nDCG

trectools = reference('trectools')
pytestmark = pytest.mark.filterwarnings('ignore::FutureWarning', 'ignore::DeprecationWarning',
                                        'ignore:The inplace keyword')
TOL = 1e-9
EXP = 'exp-log2'
PANDAS_3 = int(pd.__version__.split('.')[0]) >= 3
MEASURES = [P @ 1, P @ 5, RR, RR @ 3, AP, AP @ 4, nDCG, nDCG @ 3, nDCG(dcg=EXP), nDCG(dcg=EXP) @ 5,
            Bpref, RBP, RBP(p=0.5) @ 3, RBP(rel=1), RBP(rel=1, p=0.9) @ 5] + ([] if PANDAS_3 else [Rprec])


def _no_judged_nonrelevant(judgments):
    return not any(g == 0 for g in judgments.values())


@settings(max_examples=20)
@given(collections())
def test_provider_agrees_with_native(data):
    qrels, run = data
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        theirs = irm.calc(MEASURES, qrels, run, provider='trectools')
    ours = irm.calc(MEASURES, qrels, run)
    for m in MEASURES:
        got, expected = per_query(theirs, m), per_query(ours, m)
        for q, value in expected.items():
            if m == Bpref and _no_judged_nonrelevant(qrels[q]) and q in run:
                continue                                    # test_divergence_bpref_without_nonrelevant
            assert got[q] == pytest.approx(value, abs=TOL), (m, q)


def test_provider_is_chosen_only_when_asked_and_declares_its_measures():
    ev = irm.evaluator([AP, RBP(rel=1)], {'q': {'a': 1}}, provider='trectools')
    assert [name for name, _, _ in ev.engines.plan] == ['trectools']
    assert [name for name, _, _ in irm.evaluator([AP], {'q': {'a': 1}}).engines.plan] == ['native']
    for unsupported in (AP(rel=2), RBP(rel=2), RBP(max_rel=4), nDCG(gains={1: 2}), P(judged_only=True) @ 5):
        with pytest.raises(irm.UnsupportedMeasureError):
            irm.evaluator([unsupported], {'q': {'a': 1}}, provider='trectools')


def test_divergence_bpref_without_nonrelevant():
    qrels = {'q': {'a': 1, 'b': 2}}
    run = {'q': {'a': 2.0, 'x': 1.0}}
    assert irm.calc_aggregate([Bpref], qrels, run)[Bpref] == 0.5              # trec_eval: relret / R
    assert irm.calc_aggregate([Bpref], qrels, run, provider='trectools')[Bpref] == 0.0


def test_negative_judgments_are_not_relevant_in_bpref():
    # trectools alone counts grade -1 as relevant in bpref; the provider does not hand it over
    qrels = {'q': {'a': 1, 'b': 0, 'c': -1}}
    run = {'q': {'c': 3.0, 'b': 2.0, 'a': 1.0}}
    assert irm.calc_aggregate([Bpref], qrels, run, provider='trectools') == irm.calc_aggregate([Bpref], qrels, run)


def test_nan_for_empty_denominators_becomes_zero():
    qrels = {'q1': {'a': 0}, 'q2': {'b': 1}}
    run = {'q1': {'a': 1.0}, 'q2': {'b': 1.0}}
    got = irm.calc([AP, nDCG], qrels, run, provider='trectools')
    assert {m.query_id: m.value for m in got.iter_metrics() if m.query_id == 'q1'} == {'q1': 0.0}
    assert got.aggregated == {AP: 0.5, nDCG: 0.5}


@pytest.mark.skipif(not PANDAS_3, reason='the Rprec bug needs pandas 3')
def test_divergence_rprec_is_refused_under_pandas_3():
    # trectools alone: the relevant 'd0' of both queries is counted for each (Rprec 2.0)
    with pytest.raises(irm.UnsupportedMeasureError):
        irm.evaluator([Rprec], {'q': {'a': 1}}, provider='trectools')


@pytest.mark.parametrize('cutoff', [None, 2])
def test_rr_cutoff(cutoff):
    m = RR if cutoff is None else RR @ cutoff
    qrels, run = {'q': {'c': 1}}, {'q': {'a': 3.0, 'b': 2.0, 'c': 1.0}}
    expected = 1 / 3 if cutoff is None else 0.0
    assert irm.calc_aggregate([m], qrels, run, provider='trectools')[m] == pytest.approx(expected)


@settings(max_examples=10)
@given(collections(), st.sampled_from([0.5, 0.8]))
def test_graded_rbp_uses_raw_grades(data, p):
    qrels, run = data
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        theirs = irm.calc_aggregate([RBP(p=p)], qrels, run, provider='trectools')[RBP(p=p)]
    assert theirs == pytest.approx(irm.calc_aggregate([RBP(p=p)], qrels, run)[RBP(p=p)], abs=TOL)
