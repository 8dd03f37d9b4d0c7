"""trec_eval's conventions across the measures, on the hand-computed case of tests/hand_case.py: negative
grades, which queries count, tie-breaking, purity, measures evaluating themselves.  Each family's
hand-computed values are in tests/measures/test_<family>.py."""
import copy

import numpy as np
import pandas as pd
from hand_case import HAND_MEASURES, QRELS, RUN, approx, value

import irmetrics as irm
from irmetrics import (
    AP,
    RR,
    Bpref,
    NumQ,
    NumRel,
    NumRet,
    P,
    nDCG,
)
from irmetrics.providers.base import PROVIDERS


def test_negative_grades_are_judged_non_relevant():
    # d (-1) is in the top 4 but never relevant, and is not counted in R
    assert value(P@4) == 1 / 4 and value(NumRel) == 4
    assert value(NumRet(rel=1)) == 3
    assert value(Bpref) == value(Bpref, {'q': {k: v for k, v in QRELS['q'].items() if k != 'd'}})


# --- queries: those of the qrels --------------------------------------------------------------------
def test_a_qrels_query_missing_from_the_run():
    qrels = dict(QRELS, m={'p': 1, 'r': 2, 's': 0, 't': -1})
    results = irm.calc(HAND_MEASURES, qrels, RUN)
    missing = {m.measure: m.value for m in results.per_query if m.query_id == 'm'}
    counts = {NumQ: 1.0, NumRel: 2.0, NumRel(rel=2): 1.0}
    assert missing == {m: counts.get(m, 0.0) for m in HAND_MEASURES}
    # the mean is over both queries, the counts are summed
    assert results.aggregated[AP] == approx(value(AP) / 2)
    assert results.aggregated[NumQ] == 2 and results.aggregated[NumRel] == 6 and results.aggregated[NumRet] == 7
    assert isinstance(results.aggregated[NumQ], int)


def test_run_only_queries_are_ignored():
    run = dict(RUN, z={'a': 1.0, 'zz': 2.0}, w={'x': 3.0})
    with_extra, without = irm.calc(HAND_MEASURES, QRELS, run), irm.calc(HAND_MEASURES, QRELS, RUN)
    assert with_extra.query_ids == without.query_ids == ['q']
    assert with_extra.aggregated == without.aggregated
    assert with_extra.aggregated[NumRet] == 7


def test_a_query_with_no_relevant_document():
    qrels = {'q': {'a': 0, 'b': -1}}
    run = {'q': {'a': 2.0, 'b': 1.0, 'c': 0.5}}
    linear = [m for m in HAND_MEASURES if 'gains' not in m.params]
    values = {m: value(m, qrels, run) for m in linear}
    counts = {NumQ: 1, NumRet: 3}
    assert values == {m: counts.get(m, 0.0) for m in linear}
    assert value(nDCG(gains={0: 1}), qrels, run) == 1.0       # unless grade 0 is given a gain


# --- tie-breaking: score descending as doubles, then docno descending byte-wise -------------------
def ranking(run):
    return [d.doc_id for d in irm.to_run(run)]


def test_ties_are_broken_by_docno_descending_byte_wise(layout):
    assert ranking({'q': {'d10': 1.0, 'd9': 1.0}}) == ['d9', 'd10']          # strcmp, not numeric
    assert ranking({'q': {'d100': 1.0, 'd10': 1.0, 'd9': 1.0}}) == ['d9', 'd100', 'd10']
    assert ranking({'q': {'B': 1.0, 'a': 1.0}}) == ['a', 'B']                # bytes: 'a' > 'B'
    assert ranking({'q': {'z': 1.0, 'é': 1.0}}) == ['é', 'z']                # UTF-8 0xC3 > 'z'
    assert ranking({'q': {'a': 1.0, 'c': 1.0, 'b': 1.0, 'e': 2.0, 'd': 0.5}}) == ['e', 'c', 'b', 'a', 'd']


def test_ties_decide_measures_and_file_order_does_not(layout):
    qrels = {'q': {'d10': 1, 'd9': 0}}
    lines = ['q Q0 d10 1 1.0 t', 'q Q0 d9 2 1.0 t']
    for text in ('\n'.join(lines) + '\n', '\n'.join(reversed(lines)) + '\n'):
        assert irm.calc_aggregate([P@1, RR], qrels, text) == {P@1: 0.0, RR: 0.5}
    assert irm.calc_aggregate([P@1], {'q': {'d10': 0, 'd9': 1}}, '\n'.join(lines) + '\n') == {P@1: 1.0}


def test_scores_are_compared_as_doubles(layout):
    assert 0.1 + 0.2 != 0.3 and np.float32(0.1 + 0.2) == np.float32(0.3)
    # as a tie, docno descending would put 'b' first; as doubles 'a' (0.30000000000000004) is higher
    assert ranking({'q': {'a': 0.1 + 0.2, 'b': 0.3}}) == ['a', 'b']
    assert ranking({'q': {'a': 1.0 + 2 ** -30, 'b': 1.0}}) == ['a', 'b']
    assert ranking({'q': {'a': 1.0, 'b': 1.0}}) == ['b', 'a']
    assert irm.calc_aggregate([P@1], {'q': {'a': 1, 'b': 0}}, {'q': {'a': 0.1 + 0.2, 'b': 0.3}})[P@1] == 1.0


def test_large_tie_groups_in_both_layouts(layout):
    docs = [f'd{i}' for i in range(50)]
    run = {'q': {d: float(i // 10) for i, d in enumerate(docs)}, 'p': {'b': 1.0, 'a': 1.0, 'c': 1.0}}
    expected = [d for score in range(4, -1, -1) for d in sorted(docs[score * 10:score * 10 + 10], reverse=True)]
    got = [(d.query_id, d.doc_id) for d in irm.to_run(run)]
    assert [d for q, d in got if q == 'q'] == expected
    assert [d for q, d in got if q == 'p'] == ['c', 'b', 'a']


# --- purity ---------------------------------------------------------------------------------------
def test_evaluation_never_mutates_its_inputs():
    qrels_frame = pd.DataFrame([(q, d, r) for q, docs in QRELS.items() for d, r in docs.items()],
                               columns=['query_id', 'doc_id', 'relevance'])
    run_frame = pd.DataFrame([(q, d, s) for q, docs in RUN.items() for d, s in docs.items()],
                             columns=['query_id', 'doc_id', 'score']).sample(frac=1, random_state=1)
    qrels_dict, run_dict = copy.deepcopy(QRELS), copy.deepcopy(RUN)
    run_list = [tuple(r) for r in run_frame.itertuples(index=False)]
    saved = (qrels_frame.copy(deep=True), run_frame.copy(deep=True), list(run_list))
    first = irm.calc_aggregate(HAND_MEASURES, qrels_frame, run_frame)
    pytrec_eval = next(p for p in PROVIDERS if p.name == 'pytrec_eval')
    if pytrec_eval.is_available():
        irm.calc_aggregate([m for m in HAND_MEASURES if pytrec_eval.supports(m)], qrels_dict, run_dict,
                           provider='pytrec_eval')
    irm.calc_aggregate(HAND_MEASURES, qrels_dict, run_list)
    pd.testing.assert_frame_equal(qrels_frame, saved[0])
    pd.testing.assert_frame_equal(run_frame, saved[1])
    assert list(run_frame.index) == list(saved[1].index)
    assert run_list == saved[2]
    assert qrels_dict == QRELS and run_dict == RUN and list(qrels_dict['q']) == list(QRELS['q'])
    assert irm.calc_aggregate(HAND_MEASURES, qrels_frame, run_frame) == first      # no state carried over


def test_converted_inputs_are_not_changed_by_evaluation():
    qrels, run = irm.to_qrels(QRELS), irm.to_run(RUN)
    before = (list(qrels), list(run), run.order.copy(), run.scores.copy())
    ev = irm.evaluator(HAND_MEASURES, qrels)
    results = [ev.calc(run).values.copy() for _ in range(2)]
    ev.calc({'q': {'a': 1.0}})
    assert np.array_equal(results[0], results[1]) and np.array_equal(ev.calc(run).values, results[0])
    assert (list(qrels), list(run)) == before[:2]
    assert np.array_equal(run.order, before[2]) and np.array_equal(run.scores, before[3])


# --- measure objects evaluate themselves ------------------------------------------------------------
def test_measure_convenience_methods():
    assert AP.calc_aggregate(QRELS, RUN) == approx(value(AP))
    assert [(m.query_id, m.value) for m in (P@5).iter_calc(QRELS, RUN)] == [('q', 2 / 5)]
    assert nDCG.evaluator(QRELS).calc_aggregate(RUN)[nDCG] == approx(value(nDCG))
    aggregated, per_query = (P@5).calc(QRELS, RUN)
    assert aggregated == {P@5: 2 / 5} and [m.value for m in per_query] == [2 / 5]

