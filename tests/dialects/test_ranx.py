"""ranx's metric names in parse_measure, and agreement with ranx itself where no score ties are involved.

ranx (numba) orders tied documents its own way, so agreement is checked on tie-free runs; with ties,
irmetrics keeps its rule (score descending, docno descending) and test_ties_follow_trec_eval shows
the difference.  Other documented differences: ranx's bpref divides by zero for a query without judged
non-relevant documents (trec_eval, hence irmetrics, gives the fraction of relevant documents retrieved),
its bpref is 0 for every query as soon as one query of the qrels has no relevant document (a division
by zero inside its parallel loop; test_divergence_ranx_bpref), and it counts negative grades as judged
non-relevant in bpref (trec_eval ignores them), so grades stay in 0..4 here.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import collections, per_query
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP, DCG, F1, RBP, RR, Bpref, Hits, P, R, Rprec, SetP, SetR, Success, nDCG

ranx = reference('ranx')

EXP = 'exp-log2'
MAPPING = {
    'hits': Hits, 'hits@3': Hits @ 3, 'hit_rate@3': Success @ 3,
    'precision': SetP, 'precision@5': P @ 5, 'recall': SetR, 'recall@5': R @ 5,
    'f1': F1, 'f1@5': F1 @ 5, 'r_precision': Rprec, 'r-precision': Rprec, 'bpref': Bpref,
    'rbp': RBP, 'rbp.95': RBP(p=0.95), 'rbp@8': RBP(p=0.8), 'rbp.5': RBP(p=0.5),
    'mrr': RR, 'mrr@3': RR @ 3, 'map': AP, 'map@5': AP @ 5,
    'dcg': DCG, 'dcg@5': DCG @ 5, 'dcg_burges@5': DCG(dcg=EXP) @ 5,
    'ndcg': nDCG, 'ndcg@5': nDCG @ 5, 'ndcg_burges': nDCG(dcg=EXP), 'ndcg_burges@5': nDCG(dcg=EXP) @ 5,
    'precision@5-l2': P(rel=2) @ 5, 'map-l3': AP(rel=3), 'mrr-l1': RR, 'ndcg@5-l3': nDCG(gains={1: 0, 2: 0}) @ 5,
    'hits@0': Hits,
}
#: the names compared with ranx (ranx spells R-precision 'r-precision' and needs p for rbp)
COMPARED = ['hits', 'hits@3', 'hit_rate@3', 'precision', 'precision@5', 'recall', 'recall@5', 'f1', 'f1@5',
            'r-precision', 'bpref', 'rbp.95', 'rbp.5', 'mrr', 'mrr@3', 'map', 'map@5', 'dcg', 'dcg@5',
            'dcg_burges@5', 'ndcg', 'ndcg@5', 'ndcg_burges@5', 'precision@5-l2', 'map-l3', 'ndcg@5-l3']


@pytest.mark.parametrize('name', sorted(MAPPING))
def test_names_map_to_measures(name):
    assert irm.parse_measure(name, dialect='ranx') == MAPPING[name]


def test_names_that_need_a_cutoff_or_take_none():
    for bad in ('hit_rate', 'bpref@10', 'r_precision@5', 'ndcg.10', 'rbp-l2'):
        with pytest.raises(irm.MeasureError):
            irm.parse_measure(bad, dialect='ranx')
    assert irm.parse_measure('RBP@95') == RBP @ 95        # irmetrics' own name: a cutoff, not ranx's p


@st.composite
def tie_free(draw):
    qrels, run = draw(collections(grades=(0, 1, 2, 3, 4)))
    for q, docs in run.items():
        scores = draw(st.permutations(range(len(docs))))
        run[q] = {d: float(s) for d, s in zip(docs, scores, strict=True)}
    return qrels, run


def ranx_values(qrels, run, names):
    q, r = ranx.Qrels(qrels), ranx.Run(run or {'-': {'-': 0.0}})
    r = r.make_comparable(q)
    ranx.evaluate(q, r, names, return_mean=False)
    return {name: {qid: float(v) for qid, v in r.scores[name].items()} for name in names}


@settings(max_examples=15)
@given(tie_free())
def test_agrees_with_ranx_without_ties(data):
    qrels, run = data
    measures = {name: irm.parse_measure(name, dialect='ranx') for name in COMPARED}
    res = irm.calc(list(dict.fromkeys(measures.values())), qrels, run)
    expected = ranx_values(qrels, run, COMPARED)
    for name, m in measures.items():
        got = per_query(res, m)
        for q, value in got.items():
            if name == 'bpref' and not _ranx_bpref_defined(qrels, q):
                continue                                # see the module docstring
            assert value == pytest.approx(expected[name][q], abs=1e-9), (name, q)


def _ranx_bpref_defined(qrels, q):
    return (any(g == 0 for g in qrels[q].values())
            and all(any(g > 0 for g in docs.values()) for docs in qrels.values()))


def test_divergence_ranx_bpref():
    judged = {'d0': 0, 'd1': 0, 'd2': 1}
    run = {'2': {'d0': 0.0, 'd1': 1.0, 'd2': 2.0}}          # the relevant document first: bpref 1
    assert irm.calc_aggregate(['bpref'], {'2': judged}, run)[Bpref] == 1.0
    assert ranx_values({'2': judged}, run, ['bpref'])['bpref']['2'] == 1.0
    with_empty_query = {'2': judged, '1': {'d0': 0}}
    assert per_query(irm.calc([Bpref], with_empty_query, run), Bpref)['2'] == 1.0
    assert ranx_values(with_empty_query, run, ['bpref'])['bpref']['2'] == 0.0


def test_ties_follow_trec_eval():
    qrels = {'1': {'a': 1}}
    run = {'1': {'a': 1.0, 'b': 1.0}}                 # tie: irmetrics ranks b (docno descending) first
    assert irm.calc_aggregate(['mrr'], qrels, run)[RR] == 0.5
    untied = {'1': {'b': 2.0, 'a': 1.0}}
    assert ranx_values(qrels, untied, ['mrr'])['mrr']['1'] == 0.5          # the same ranking, untied
    assert ranx_values(qrels, run, ['mrr'])['mrr']['1'] in (0.5, 1.0)     # ranx's own tie order
