"""unjudged_bounds against evaluating hand-built qrels, the bound claim against brute force (random
judgments of the unjudged documents stay between the two values of every measure said to be bounded),
and a measure whose value under 'relevant' falls (nDCG), which is never called bounded."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import irmetrics as irm
from irmetrics.errors import MeasureError, OptionError

QRELS = {'q1': {'d1': 1, 'd2': 0, 'd4': 2}, 'q2': {'d7': 1}}
#: q1 ranks d1, d3 (unjudged), d2, d5 (unjudged), d4; q9 is no qrels query; q2 is not retrieved
RUN = {'q1': {'d1': 5.0, 'd3': 4.0, 'd2': 3.0, 'd5': 2.0, 'd4': 1.0}, 'q9': {'x': 1.0}}


def with_grades(qrels, added):
    out = {q: dict(docs) for q, docs in qrels.items()}
    for (q, d), g in added.items():
        out[q][d] = g
    return out


def test_the_values_are_those_of_hand_built_qrels():
    result = irm.unjudged_bounds(['P@3', 'AP', 'nDCG@2', 'RR'], QRELS, RUN)
    assert result.grade == 2                                            # the qrels' highest grade
    as_judged = irm.calc(['P@3', 'AP', 'nDCG@2', 'RR'], QRELS, RUN)
    assert np.array_equal(result.nonrelevant, as_judged.values)
    top3 = with_grades(QRELS, {('q1', 'd3'): 2})                        # only d3 is unjudged in the top 3 (and 2)
    every = with_grades(QRELS, {('q1', 'd3'): 2, ('q1', 'd5'): 2})
    for j, (measure, qrels) in enumerate([('P@3', top3), ('AP', every), ('nDCG@2', top3), ('RR', every)]):
        assert result.relevant[:, j].tolist() == irm.calc([measure], qrels, RUN).values[:, 0].tolist(), measure
    assert result.unjudged.tolist() == [[1, 2, 1, 2], [0, 0, 0, 0]]      # q9's document is no qrels query's
    assert list(result.query_ids) == ['q1', 'q2']


def test_grade_is_the_grade_given():
    result = irm.unjudged_bounds(['DCG@5', 'P(rel=2)@5'], QRELS, RUN, grade=1)
    qrels = with_grades(QRELS, {('q1', 'd3'): 1, ('q1', 'd5'): 1})
    assert np.array_equal(result.relevant, irm.calc(['DCG@5', 'P(rel=2)@5'], qrels, RUN).values)
    assert result.relevant[0, 1] == result.nonrelevant[0, 1] == 0.2     # grade 1 is not relevant at rel=2


BOUNDED = ['P@3', 'Success@2', 'RR', 'Hits@4', 'DCG@4', 'DCG(dcg="exp-log2")@3', 'ERR@4', 'RBP(p=0.5)',
           'RBP(p=0.8,rel=2)', 'SetP', 'NumRet(rel=1)', 'NumRet', 'P(rel=2)@5']
judgments = st.lists(st.tuples(st.sampled_from(['q1', 'q2']), st.sampled_from([f'd{i}' for i in range(10)]),
                               st.integers(0, 3)), min_size=1, max_size=12, unique_by=lambda r: (r[0], r[1]))
rankings = st.lists(st.tuples(st.sampled_from(['q1', 'q2']), st.sampled_from([f'd{i}' for i in range(10)]),
                              st.integers(0, 5)), min_size=1, max_size=16, unique_by=lambda r: (r[0], r[1]))


@given(judgments, rankings, st.integers(0, 2 ** 31))
def test_bounded_measures_stay_within_their_bounds_under_any_judgment(judged, ranked, seed):
    qrels = {}
    for q, d, g in judged:
        qrels.setdefault(q, {})[d] = g
    run = [irm.ScoredDoc(q, d, float(s)) for q, d, s in ranked]
    result = irm.unjudged_bounds(BOUNDED, qrels, run)
    assert all(result.bounds)
    unjudged = sorted({(q, d) for q, d, _ in ranked if q in qrels and d not in qrels[q]})
    rng = np.random.default_rng(seed)
    for _ in range(4):
        grading = dict(zip(unjudged, rng.integers(0, result.grade + 1, len(unjudged)).tolist(), strict=True))
        truth = irm.calc(BOUNDED, with_grades(qrels, grading), run).values
        assert np.all(result.nonrelevant <= truth + 1e-12) and np.all(truth <= result.relevant + 1e-12)


def test_ndcg_can_fall_when_unjudged_documents_are_assumed_relevant():
    """One relevant document ranked first, eight judged non-relevant, an unjudged one tenth: nDCG@10 is 1 as
    judged; with the tenth relevant, DCG = 1 + 1/log2(11) and the ideal 1 + 1/log2(3), lower.  So neither
    value bounds nDCG, and it is not called bounded."""
    qrels = {'q1': {'d1': 1, **{f'n{i}': 0 for i in range(8)}}}
    run = {'q1': {'d1': 10.0, **{f'n{i}': 9.0 - i for i in range(8)}, 'u': 0.5}}
    result = irm.unjudged_bounds(['nDCG@10', 'AP', 'P@10'], qrels, run)
    assert result.nonrelevant[0].tolist() == [1.0, 1.0, 0.1]
    assert result.relevant[0, 0] == pytest.approx((1 + 1 / math.log2(11)) / (1 + 1 / math.log2(3)))
    assert result.relevant[0, 1] == pytest.approx((1 + 2 / 10) / 2)
    assert result.relevant[0, 0] < result.nonrelevant[0, 0] and result.relevant[0, 1] < result.nonrelevant[0, 1]
    assert result.bounds == (False, False, True)
    frame = result.to_dataframe()
    assert frame.index.tolist() == ['nDCG@10', 'AP', 'P@10'] and frame['bounds'].tolist() == [False, False, True]


def test_parameters_that_break_monotony_are_not_bounds():
    result = irm.unjudged_bounds(['P(judged_only=True)@5', 'P(relative=True)@5', 'NumRet(judged_nonrel=True)',
                                  'DCG(gains={0:0,1:1,2:3})@5', 'Judged@5', 'R@5', 'nERR@5'], QRELS, RUN)
    assert not any(result.bounds)


def test_measures_of_subtopics_are_refused_and_options_checked():
    with pytest.raises(MeasureError, match='cannot be bounded'):
        irm.unjudged_bounds(['alpha_nDCG@10'], QRELS, RUN)
    with pytest.raises(OptionError, match="'grade'"):
        irm.unjudged_bounds(['P@5'], QRELS, RUN, grade=0)
    result = irm.unjudged_bounds(['P@5'], QRELS, RUN)
    with pytest.raises(MeasureError, match='unjudged must be'):
        result.aggregated('maybe')


def test_results_render():
    result = irm.unjudged_bounds(['P@3', 'AP'], QRELS, RUN)
    frame = result.per_query()
    assert frame.columns.tolist() == ['query_id', 'measure', 'nonrelevant', 'relevant', 'unjudged']
    assert frame['query_id'].tolist() == ['q1', 'q1', 'q2', 'q2'] and frame['measure'].tolist() == ['P@3', 'AP'] * 2
    assert result.to_dict()['P@3'] == {'nonrelevant': 1 / 6, 'relevant': 1 / 3, 'bounds': True}
    assert 'P@3: 0.1667 .. 0.3333' in repr(result) and 'AP: ' in repr(result) and '(not bounds)' in repr(result)


def test_the_families_declared_monotone_are_those_the_brute_force_checks():
    """``MeasureDef.monotone`` is where unjudged_bounds reads which families bound their values: each family
    declared so is in BOUNDED (the brute force above checks its claim), and each family of BOUNDED is declared."""
    from irmetrics.algebra.measure import REGISTRY
    declared = {d.name for d in REGISTRY.definitions() if d.monotone}
    assert declared == {irm.parse_measure(m).definition.name for m in BOUNDED}
    assert declared == {'P', 'Success', 'RR', 'Hits', 'DCG', 'ERR', 'RBP', 'SetP', 'NumRet'}
