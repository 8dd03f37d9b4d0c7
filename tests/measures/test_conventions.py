"""trec_eval's conventions, on small cases computed by hand from the formulas.

The main case, query ``q`` (R = 4 relevant documents: a, c, e, f):

    rank  doc  qrels     rank  doc  qrels
     1    x    -         5    c    1
     2    a    2         6    y    -
     3    b    0         7    e    3
     4    d    -1        (f: 1 and g: 0 are judged but not retrieved)

x and y are unjudged (absent from the qrels), d is judged -1 (pooled but unjudged: never relevant).
"""
import copy
import math

import numpy as np
import pandas as pd
import pytest

import irmetrics as irm
from irmetrics import (
    AP,
    RR,
    Bpref,
    IPrec,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetAP,
    SetF,
    SetP,
    SetR,
    Success,
    infAP,
    nDCG,
)
from irmetrics.providers.base import PROVIDERS

QRELS = {'q': {'a': 2, 'b': 0, 'c': 1, 'd': -1, 'e': 3, 'f': 1, 'g': 0}}
RUN = {'q': {'x': 10.0, 'a': 9.0, 'b': 8.0, 'd': 7.0, 'c': 6.0, 'y': 5.0, 'e': 4.0}}
EPS = 0.00001
log2 = math.log2


def value(measure, qrels=QRELS, run=RUN, query='q'):
    found = [m.value for m in irm.iter_calc([measure], qrels, run) if m.query_id == query]
    assert len(found) == 1
    return found[0]


def approx(x):
    return pytest.approx(x, abs=1e-12)


HAND_COMPUTED = [
    # P@k: relevant in the top k, over k (k even when fewer documents were retrieved)
    (P@1, 0.0), (P@2, 1 / 2), (P@4, 1 / 4), (P@5, 2 / 5), (P@10, 3 / 10), (P@1000, 3 / 1000),
    # R@k: relevant in the top k, over R
    (R@1, 0.0), (R@5, 2 / 4), (R@10, 3 / 4),
    # AP: precision at each relevant rank, over R (unretrieved relevant documents add 0)
    (AP, (1 / 2 + 2 / 5 + 3 / 7) / 4),
    (AP@5, (1 / 2 + 2 / 5) / 4),                     # the cutoff keeps the divisor R, not min(R, k)
    (AP@1, 0.0),
    (RR, 1 / 2), (RR@1, 0.0), (RR@2, 1 / 2), (RR(rel=3), 1 / 7),
    (Rprec, 1 / 4),                                  # top R = 4: x a b d
    (Success@1, 0.0), (Success@2, 1.0), (Success(rel=3)@6, 0.0), (Success(rel=3)@7, 1.0),
    # Bpref: N = 2 judged non-relevant (b, g); a has none above, c and e have b above
    (Bpref, (1 + (1 - 1 / min(4, 2)) + (1 - 1 / min(4, 2))) / 4),
    # infAP: positions j are 0-based in the full ranking, non-pooled x and y are skipped, d is unjudged
    (infAP, (1 / 2                                                        # a at j = 1: nothing above
             + 1 / 5 + (4 / 5) * (3 / 4) * ((1 + EPS) / (1 + 1 + 2 * EPS))  # c at j = 4: a, b, d above
             + 1 / 7 + (6 / 7) * (4 / 6) * ((2 + EPS) / (2 + 1 + 2 * EPS))  # e at j = 6: a, b, d, c above
             ) / 4),
    # nDCG: linear gains, log2(rank + 1) discount; the ideal ranking holds every judged document
    (nDCG, (2 / log2(3) + 1 / log2(6) + 3 / log2(8)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG@5, (2 / log2(3) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG@2, (2 / log2(3)) / (3 + 2 / log2(3))),     # the ideal ranking is cut at k too
    (nDCG(gains={1: 1, 2: 3, 3: 7}), (3 / log2(3) + 1 / log2(6) + 7 / log2(8))
     / (7 + 3 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG(gains={3: 0}), (2 / log2(3) + 1 / log2(6)) / (2 + 1 / log2(3) + 1 / log2(4))),    # unlisted: gain = grade
    (nDCG(gains={0: 1}), (2 / log2(3) + 1 / log2(4) + 1 / log2(6) + 3 / log2(8))
     / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5) + 1 / log2(6) + 1 / log2(7))),
    # set measures: 3 relevant among 7 retrieved, R = 4
    (SetP, 3 / 7), (SetP(relative=True), 3 / min(7, 4)), (SetR, 3 / 4), (SetAP, 3 * 3 / (7 * 4)),
    (SetF, 2 * (3 / 7) * (3 / 4) / (3 / 7 + 3 / 4)),
    (SetF(beta=2), (1 + 2) * (3 / 7) * (3 / 4) / (2 * (3 / 7) + 3 / 4)),            # trec_eval: beta, not beta²
    (SetF(beta=0.5), (1 + 0.5) * (3 / 7) * (3 / 4) / (0.5 * (3 / 7) + 3 / 4)),
    (SetF(beta=0), 3 / 7),
    (NumQ, 1), (NumRel, 4), (NumRet, 7), (NumRet(rel=1), 3), (irm.parse_measure('NumRelRet'), 3),
    # rel=2: relevant are a and e (R = 2); judged non-relevant are b, c, f, g
    (P(rel=2)@5, 1 / 5), (AP(rel=2), (1 / 2 + 2 / 7) / 2), (R(rel=2)@5, 1 / 2), (Rprec(rel=2), 1 / 2),
    (RR(rel=2), 1 / 2), (Bpref(rel=2), (1 + (1 - min(2, 2) / min(2, 4))) / 2), (NumRel(rel=2), 2),
    (NumRet(rel=2), 2), (SetP(rel=2), 2 / 7), (SetR(rel=2), 2 / 2), (IPrec(rel=2)@1, 2 / 7),
    (infAP(rel=2), (1 / 2 + 1 / 7 + (6 / 7) * (4 / 6) * ((1 + EPS) / (1 + 2 + 2 * EPS))) / 2),
    # judged_only: x, y (unjudged) and d (judged -1) are removed: the ranking is a b c e
    (P(judged_only=True)@2, 1 / 2), (P(judged_only=True)@4, 3 / 4), (AP(judged_only=True), (1 + 2 / 3 + 3 / 4) / 4),
    (RR(judged_only=True), 1.0), (Rprec(judged_only=True), 3 / 4), (Success(judged_only=True)@1, 1.0),
    (R(judged_only=True)@3, 2 / 4), (SetP(judged_only=True), 3 / 4), (SetAP(judged_only=True), 9 / (4 * 4)),
    (SetF(judged_only=True), 2 * (3 / 4) * (3 / 4) / (3 / 4 + 3 / 4)),
    (nDCG(judged_only=True), (2 + 1 / log2(4) + 3 / log2(5)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))),
    (nDCG(judged_only=True)@1, 2 / 3),
    (IPrec(judged_only=True)@0.5, 3 / 4),            # reached at c (rank 3: 2/3), e gives 3/4 at rank 4
]
HAND_MEASURES = list(dict.fromkeys(m for m, _ in HAND_COMPUTED))


@pytest.mark.parametrize('measure, expected', HAND_COMPUTED, ids=[repr(m) for m, _ in HAND_COMPUTED])
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)


def test_negative_grades_are_judged_non_relevant():
    # d (-1) is in the top 4 but never relevant, and is not counted in R
    assert value(P@4) == 1 / 4 and value(NumRel) == 4
    assert value(NumRet(rel=1)) == 3
    assert value(Bpref) == value(Bpref, {'q': {k: v for k, v in QRELS['q'].items() if k != 'd'}})


# --- IPrec: trec_eval 9's rounding of the recall level --------------------------------------------
def test_iprec_on_the_main_case():
    # relevant at ranks 2, 5, 7 (precisions 1/2, 2/5, 3/7); R = 4
    assert value(IPrec@0.0) == approx(1 / 2)                 # level 0 behaves as the first relevant document
    assert value(IPrec@0.25) == approx(1 / 2)               # int(0.25 * 4 + 0.9) = 1
    assert value(IPrec@0.3) == approx(3 / 7)                # int(1.2 + 0.9) = 2 (trec_eval 10: lround(1.2) = 1)
    assert value(IPrec@0.5) == approx(3 / 7)
    assert value(IPrec@0.75) == approx(3 / 7)
    assert value(IPrec@1.0) == 0.0                          # the 4th relevant document is never retrieved


def test_iprec_uses_trec_eval_9_rounding_with_three_relevant():
    # ranking n r n n r n n n r: precisions 1/2, 2/5, 3/9 at the relevant ranks
    docs = ['n1', 'r1', 'n2', 'n3', 'r2', 'n4', 'n5', 'n6', 'r3']
    qrels = {'q': {d: int(d.startswith('r')) for d in docs}}
    run = {'q': {d: float(len(docs) - i) for i, d in enumerate(docs)}}
    # cutoff = int(level * 3 + 0.9) in doubles: [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3] for levels 0.0 .. 1.0
    expected = [1 / 2, 1 / 2, 1 / 2, 1 / 2, 2 / 5, 2 / 5, 2 / 5, 2 / 5, 3 / 9, 3 / 9, 3 / 9]
    for i, want in enumerate(expected):
        assert value(IPrec@(i / 10), qrels, run) == approx(want), i / 10
    # 0.7 * 3 + 0.9 is 2.9999999999999996 in doubles: the 2nd relevant document, as trec_eval 9 computes
    assert 0.7 * 3 + 0.9 < 3
    assert value(IPrec@0.7, qrels, run) == approx(2 / 5)
    # trec_eval 10 would give 1/2 at 0.4 (lround(1.2) = 1) and 2/5 at 0.8 (lround(2.4) = 2)
    assert value(IPrec@0.4, qrels, run) == approx(2 / 5) and value(IPrec@0.8, qrels, run) == approx(3 / 9)


def test_iprec_is_the_best_precision_at_or_below_the_level():
    # r n r r: precision rises again at rank 4, and interpolation takes it
    qrels = {'q': {'r1': 1, 'r2': 1, 'r3': 1, 'n': 0}}
    run = {'q': {'r1': 4.0, 'n': 3.0, 'r2': 2.0, 'r3': 1.0}}
    assert value(IPrec@0.5, qrels, run) == approx(3 / 4)    # level reached at rank 3 (2/3), rank 4 gives 3/4


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

