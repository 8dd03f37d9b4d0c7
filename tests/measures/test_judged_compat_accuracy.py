"""Judged@k, Compat, Accuracy@k and RR@k (MS MARCO's MRR@k) against ir_measures' own providers.

Each reference gets the canonical ranking as distinct rank-derived scores (the judged, compat and
msmarco providers break ties by docno ascending; the accuracy provider keeps file order).  ir_measures
fills the queries a provider leaves out with 0, except the accuracy provider, which reports only the
queries it defines — as irmetrics does for Accuracy (skips_undefined).
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import canonical, collections, per_query, ranked, raw_reference_values, reference_values
from reference_tools import reference

import irmetrics as irm
from irmetrics import RR, Accuracy, Compat, Judged

ir_measures = reference('ir_measures')
TOL = 1e-9


def cut(measure, k):
    return measure if k is None else measure @ k


@settings(max_examples=40)
@given(collections(), st.sampled_from([None, 1, 3, 5, 20]))
def test_judged_agrees_with_judged_provider(data, k):
    qrels, run = data
    got = per_query(irm.calc([cut(Judged, k)], qrels, run), cut(Judged, k))
    expected = reference_values(ir_measures.judged, cut(ir_measures.Judged, k), qrels, canonical(run))
    assert got == pytest.approx(expected, abs=TOL)


@settings(max_examples=40)
@given(collections(), st.sampled_from([0.5, 0.8, 0.95]), st.booleans())
def test_compat_agrees_with_compat_provider(data, p, normalize):
    qrels, run = data
    mine = Compat(p=p, normalize=normalize)
    got = per_query(irm.calc([mine], qrels, run), mine)
    expected = reference_values(ir_measures.compat, ir_measures.Compat(p=p, normalize=normalize), qrels,
                                canonical(run))
    assert got == pytest.approx(expected, abs=TOL)


def test_compat_by_hand():
    # ranking a b u c; ideal a (2), then grade 1: c (retrieved first), e; p = 0.95, depth 4
    qrels = {'q': {'a': 2, 'b': 0, 'c': 1, 'd': 0, 'e': 1}}
    run = {'q': {'a': 5, 'b': 4, 'u': 3, 'c': 2}}
    w = [0.95 ** i for i in range(4)]
    overlap = w[0] * 1 + w[1] * 1 / 2 + w[2] * 1 / 3 + w[3] * 2 / 4
    ideal = w[0] + w[1] + w[2] + w[3] * 3 / 4
    got = irm.calc_aggregate([Compat, Compat(normalize=False)], qrels, run)
    assert got[Compat(normalize=False)] == pytest.approx(overlap / sum(w), rel=1e-14)
    assert got[Compat] == pytest.approx(overlap / ideal, rel=1e-14)


def _all_relevant_top(qrels, run, k, rel):
    """Queries whose top k holds relevant documents only (the accuracy provider divides by zero there)."""
    out = set()
    for q, docs in run.items():
        top = ranked(docs)[:k]
        if q in qrels and top and all(qrels[q].get(d, 0) >= rel for d in top):
            out.add(q)
    return out


@settings(max_examples=40)
@given(collections(), st.sampled_from([None, 1, 3, 10]), st.sampled_from([1, 2]))
def test_accuracy_agrees_with_accuracy_provider(data, k, rel):
    qrels, run = data
    mine, theirs = cut(Accuracy(rel=rel), k), cut(ir_measures.Accuracy(rel=rel), k)
    got = per_query(irm.calc([mine], qrels, run), mine)
    perfect = _all_relevant_top(qrels, run, k, rel)
    comparable = {q: docs for q, docs in canonical(run).items() if q not in perfect}
    expected = {m.query_id: m.value for m in theirs.iter_calc(qrels, comparable)} if comparable else {}
    assert {q: v for q, v in got.items() if q not in perfect} == pytest.approx(expected, abs=TOL)
    assert all(got[q] == 1.0 for q in perfect if q in qrels)


def test_accuracy_divergence_when_every_document_is_relevant():
    qrels, run = {'q': {'a': 1, 'b': 2}}, {'q': {'a': 2.0, 'b': 1.0}}
    with pytest.raises(ZeroDivisionError):
        list(ir_measures.Accuracy.iter_calc(qrels, run))
    assert irm.calc_aggregate([Accuracy], qrels, run)[Accuracy] == 1.0


def test_accuracy_skips_undefined_queries():
    qrels = {'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1}, 'q3': {'d': 1}}
    run = {'q1': {'b': 3.0, 'x': 2.0, 'a': 1.0}, 'q2': {'y': 1.0}}       # q2: no relevant; q3: missing
    res = irm.calc([Accuracy, Accuracy @ 1, Judged], qrels, run)
    assert per_query(res, Accuracy) == {'q1': 0.0}
    assert per_query(res, Accuracy @ 1) == {}
    assert res.aggregated[Accuracy] == 0.0
    assert res.aggregated[Accuracy @ 1] != res.aggregated[Accuracy @ 1]   # NaN: no query defined
    assert per_query(res, Judged) == {'q1': pytest.approx(2 / 3, abs=1e-12), 'q2': 0.0, 'q3': 0.0}


@settings(max_examples=40)
@given(collections(), st.sampled_from([None, 1, 3, 10]), st.sampled_from([1, 2]))
def test_rr_at_k_agrees_with_msmarco(data, k, rel):
    qrels, run = data
    mine, theirs = cut(RR(rel=rel), k), cut(ir_measures.RR(rel=rel), k)
    got = per_query(irm.calc([mine], qrels, run), mine)
    raw = raw_reference_values(ir_measures.msmarco, theirs, qrels, canonical(run))
    for q, value in got.items():
        if q in raw:
            assert value == pytest.approx(raw[q], abs=TOL)
        else:       # MS MARCO's script reports only queries with a relevant document; irmetrics gives 0
            assert value == 0.0 and (q not in run or not any(g >= rel for g in qrels[q].values()))


def test_judged_counts_negative_judgments_and_divides_by_ranking_length():
    qrels = {'q': {'a': -1, 'b': 0}}
    run = {'q': {'a': 3.0, 'b': 2.0, 'c': 1.0}}
    got = irm.calc_aggregate([Judged, Judged @ 2, Judged @ 10], qrels, run)
    two_thirds = pytest.approx(2 / 3, abs=1e-12)
    assert got == {Judged: two_thirds, Judged @ 2: 1.0, Judged @ 10: two_thirds}


def test_bad_parameters():
    for bad in ('Compat(p=2)', 'Compat(p=0)', 'Compat(normalize=1)', 'Judged@0',
                'Compat@10'):
        with pytest.raises(irm.MeasureError):
            irm.parse_measure(bad)
