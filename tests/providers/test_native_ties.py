"""``ties='expected'``: the exact expectation over every order of tied documents, checked against the mean over
the enumerated orders of small random rankings (and scikit-learn's ndcg_score, which averages over ties); the
lowest and highest values over tie orders (:func:`irmetrics.tie_dependence`) against their minimum and maximum."""
import itertools
import random

import numpy as np
import pytest

import irmetrics as irm
from irmetrics import (
    AP,
    AUC,
    DCG,
    ERR,
    F1,
    IDCG,
    LAG,
    RBP,
    RR,
    YAAP,
    Bpref,
    G,
    Hits,
    IPrec,
    IPrecAvg,
    Judged,
    MeasureError,
    NumRet,
    P,
    R,
    RBPResidual,
    RnDCG,
    Rprec,
    SetAP,
    SetP,
    Success,
    Unjudged,
    nDCG,
    nDCGRel,
    nERR,
)
from irmetrics.algebra.measure import REGISTRY

WITH_EXPECTATION = [
    AP, AP @ 3, AP(judged_only=True), AP(rel=2), AP(divisor='num_rel_ret'), RR, RR @ 2, RR(judged_only=True),
    RR(rel=2) @ 3, P @ 1, P @ 3, P(relative=True) @ 3, P(judged_only=True) @ 2, R @ 3, Hits @ 2, Success @ 1,
    Success @ 3, Success(judged_only=True) @ 2, nDCG, nDCG @ 3, nDCG(dcg='exp-log2') @ 3,
    nDCG(judged_only=True) @ 3, DCG @ 2, nDCG(gains={1: 3, 2: 7, 3: 9}) @ 4, RBP, RBP(p=0.5) @ 3, RBP(rel=2),
    RBP(max_rel=2) @ 4, Rprec, Rprec(mult=2.0), F1 @ 3, F1, Judged @ 3, Unjudged @ 3, NumRet, SetP, SetAP,
    IDCG @ 3, ERR, ERR @ 2, ERR @ 4, ERR(max_rel=2), nERR @ 3, nERR]
MONOTONE = [Bpref, IPrec @ 0.5, IPrecAvg, YAAP, nDCGRel, RnDCG, G, LAG @ 4, AUC,
            RBPResidual @ 3]


def _case(seed):
    """One query: up to 6 retrieved documents with few distinct scores, some unjudged or judged -1, and
    relevant documents not retrieved."""
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    levels = rng.choice([[1.0], [1.0, 2.0], [1.0, 2.0, 3.0]])
    run = [(f'd{i}', rng.choice(levels)) for i in range(n)]
    qrels = {}
    for doc, _ in run:
        if rng.random() < 0.75:
            qrels[doc] = rng.choice([-1, 0, 0, 1, 1, 2, 3])
    for i in range(rng.randint(0, 2)):
        qrels[f'u{i}'] = rng.choice([1, 2])
    if not any(g > 0 for g in qrels.values()):
        qrels['u9'] = 1
    return qrels, run


def _orders(run):
    """Every order of the tied documents: each a list of the documents from the top."""
    by_score = {}
    for doc, score in run:
        by_score.setdefault(score, []).append(doc)
    groups = [by_score[s] for s in sorted(by_score, reverse=True)]
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [doc for group in choice for doc in group]


def _per_order(measures, qrels, run):
    """Each measure in each order (one query per order), as an array (orders x measures)."""
    orders = list(_orders(run))
    judged = {f'o{i}': dict(qrels) for i in range(len(orders))}
    ranked = {f'o{i}': {doc: float(len(o) - r) for r, doc in enumerate(o)} for i, o in enumerate(orders)}
    results = irm.calc(measures, judged, ranked)
    return np.asarray(results.values)


@pytest.mark.parametrize('seed', range(60))
def test_the_expectation_is_the_mean_over_every_order_of_the_tied_documents(seed):
    qrels, run = _case(seed)
    every = _per_order(WITH_EXPECTATION, qrels, run)
    expected = irm.calc([m(ties='expected') for m in WITH_EXPECTATION], {'q': qrels}, {'q': dict(run)})
    np.testing.assert_allclose(np.asarray(expected.values)[0], every.mean(axis=0), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize('seed', range(60))
def test_lowest_and_highest_are_the_extremes_over_every_order(seed):
    qrels, run = _case(seed)
    measures = WITH_EXPECTATION + MONOTONE
    every = _per_order(measures, qrels, run)
    found = irm.tie_dependence(measures, {'q': qrels}, {'q': dict(run)})
    np.testing.assert_allclose(found.lowest[0], every.min(axis=0), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(found.highest[0], every.max(axis=0), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(found.depends[0], every.max(axis=0) > every.min(axis=0))


def test_extremes_are_not_claimed_for_gains_that_fall_as_the_grade_grows():
    found = irm.tie_dependence([nDCG(gains={1: 5, 2: 1}), nDCG(gains={1: 1, 2: 5, 3: 9})], 'examples/qrels.txt',
                               'examples/run_bm25.txt')
    assert np.isnan(found.lowest[:, 0]).all() and not np.isnan(found.lowest[:, 1]).any()


def test_every_family_with_an_expectation_is_checked_against_the_enumeration():
    declared = {d.name for d in REGISTRY.definitions() if d.tie_order in ('expected', 'irrelevant')}
    checked = {m.definition.name for m in WITH_EXPECTATION}
    assert declared - {'NumQ', 'NumRel', 'SetR', 'SetF', 'Utility'} <= checked
    monotone = {d.name for d in REGISTRY.definitions() if d.tie_order == 'monotone'}
    assert monotone <= {m.definition.name for m in MONOTONE}


def test_without_ties_the_expectation_is_trec_eval_s_value_to_the_bit():
    run = irm.read_trec_run('examples/run_bm25.txt')
    frame = run.to_dataframe()
    frame['score'] = -np.arange(len(frame), dtype=float)          # distinct scores: no ties left
    measures = [m for m in WITH_EXPECTATION]
    plain = irm.calc(measures, 'examples/qrels.txt', frame)
    expected = irm.calc([m(ties='expected') for m in measures], 'examples/qrels.txt', frame)
    assert np.array_equal(np.asarray(plain.values), np.asarray(expected.values))


def test_the_examples_run_has_ties_and_the_expectation_differs_from_trec_eval_s_order():
    plain = irm.calc_aggregate([AP, nDCG @ 10], 'examples/qrels.txt', 'examples/run_bm25.txt')
    expected = irm.calc_aggregate([AP(ties='expected'), nDCG(ties='expected') @ 10], 'examples/qrels.txt',
                                  'examples/run_bm25.txt')
    assert expected[AP(ties='expected')] != plain[AP]
    assert abs(expected[AP(ties='expected')] - plain[AP]) < 0.01


@pytest.mark.parametrize('k', [1, 3, 5, None])
def test_ndcg_agrees_with_scikit_learn_which_averages_over_ties(k):
    from sklearn.metrics import ndcg_score
    rng = np.random.default_rng(k or 0)
    grades = rng.integers(0, 4, size=(30, 8))
    scores = rng.integers(0, 3, size=(30, 8)).astype(float)          # many ties
    qrels = {f'q{i}': {f'd{j}': int(grades[i, j]) for j in range(8)} for i in range(30)}
    run = {f'q{i}': {f'd{j}': float(scores[i, j]) for j in range(8)} for i in range(30)}
    measure = nDCG(ties='expected') if k is None else nDCG(ties='expected') @ k
    ours = irm.calc_aggregate([measure], qrels, run)[measure]
    assert ours == pytest.approx(ndcg_score(grades, scores, k=k, ignore_ties=False), rel=1e-12)
    plain = irm.calc_aggregate([measure(ties='trec_eval')], qrels, run)[measure(ties='trec_eval')]
    assert plain != pytest.approx(ours, rel=1e-6)             # the ties matter in this data


def test_a_tie_group_of_many_documents_needs_no_enumeration():
    # 2,000 documents with one score, 10 relevant: 2000! orders; the expectation has closed forms
    qrels = {'q': {f'd{i}': 1 for i in range(0, 2000, 200)}}
    run = {'q': {f'd{i}': 1.0 for i in range(2000)}}
    got = irm.calc_aggregate([P(ties='expected') @ 100, RR(ties='expected'), AP(ties='expected')], qrels, run)
    assert got[P(ties='expected') @ 100] == pytest.approx(10 / 2000)
    # E[1/rank of the first of r relevant among n] = sum_j C(n-j, r-1)/C(n, r) / j
    from math import comb
    rr = sum(comb(2000 - j, 9) / comb(2000, 10) / j for j in range(1, 1992))
    assert got[RR(ties='expected')] == pytest.approx(rr, rel=1e-9)
    # AP of a random ranking: (1/R) sum_j (r/n) (1 + (j-1)(r-1)/(n-1)) / j
    ap = sum((10 / 2000) * (1 + (j - 1) * 9 / 1999) / j for j in range(1, 2001)) / 10
    assert got[AP(ties='expected')] == pytest.approx(ap, rel=1e-12)


def test_families_without_an_exact_form_refuse_the_expectation_by_name():
    with pytest.raises(MeasureError, match=r"Bpref\(ties='expected'\).*no exact expectation.*measures with one: .*AP"):
        Bpref(ties='expected')
    with pytest.raises(MeasureError, match='divisor'):
        AP(ties='expected', divisor='num_rel_ret') @ 10
    assert irm.parse_measure("nDCG(ties='expected')@10") == nDCG(ties='expected') @ 10
    assert repr(nDCG(ties='trec_eval') @ 10) == 'nDCG@10'                # the default is not written


def test_other_engines_are_not_asked_for_the_expectation():
    with pytest.raises(irm.UnsupportedMeasureError):
        irm.calc_aggregate([P(ties='expected') @ 5], 'examples/qrels.txt', 'examples/run_bm25.txt',
                           provider='pytrec_eval')


def test_a_cut_ranking_keeps_the_documents_tied_with_the_last_one():
    # a score matrix is ranked to the measures' depth; with ties='expected' the group across the cutoff
    # counts whole, so the matrix gives what the same run as a dict gives (and scikit-learn)
    from sklearn.metrics import ndcg_score
    rng = np.random.default_rng(7)
    grades = rng.choice([0, 0, 1, 2], size=(50, 30))
    scores = np.round(rng.random((50, 30)), 1)
    measure = nDCG(ties='expected') @ 5
    assert measure.depth is None and (nDCG @ 5).depth == 5
    qrels = {str(i): {str(j): int(grades[i, j]) for j in range(30) if grades[i, j]} for i in range(50)}
    run = {str(i): {str(j): float(scores[i, j]) for j in range(30)} for i in range(50)}
    from_arrays = irm.calc_aggregate([measure], grades, scores)[measure]
    assert from_arrays == pytest.approx(irm.calc_aggregate([measure], qrels, run)[measure], rel=1e-12)
    judged = grades.max(axis=1) > 0
    assert from_arrays * 50 / judged.sum() == pytest.approx(ndcg_score(grades[judged], scores[judged], k=5,
                                                                       ignore_ties=False), rel=1e-12)


@pytest.mark.parametrize('seed', range(3))
def test_err_of_a_large_tie_group_against_its_definition_by_subsets(seed):
    # ERR's expectation straight from its definition: the document at the group's j-th rank is x with chance
    # 1/n, and the j - 1 above it a uniform subset of the others (10 tied documents behind 3 untied ones)
    import math
    rng = random.Random(seed)
    grades = [rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(10)]
    above = [rng.choice([0, 1, 2]) for _ in range(3)]
    qrels = {'q': {**{f'p{i}': g for i, g in enumerate(above)}, **{f'd{i}': g for i, g in enumerate(grades)}}}
    run = {'q': {**{f'p{i}': 100.0 - i for i in range(3)}, **{f'd{i}': 1.0 for i in range(10)}}}

    def stop(g):
        return (2 ** min(g, 4) - 1) / 16
    for k in (None, 5, 9):
        reach, want = 1.0, 0.0
        for i, g in enumerate(above):
            want += stop(g) * reach / (i + 1)
            reach *= 1 - stop(g)
        for j in range(1, 11 if k is None else min(10, k - 3) + 1):
            chance = sum(stop(grades[x]) * sum(math.prod(1 - stop(grades[y]) for y in subset)
                                               for subset in itertools.combinations([y for y in range(10) if y != x],
                                                                                    j - 1))
                         / math.comb(9, j - 1) for x in range(10)) / 10
            want += reach * chance / (3 + j)
        measure = ERR(ties='expected') if k is None else ERR(ties='expected') @ k
        assert irm.calc_aggregate([measure], qrels, run)[measure] == pytest.approx(want, rel=1e-12)


def test_err_of_thousands_of_tied_documents_lies_between_its_extremes():
    rng = np.random.default_rng(1)
    qrels = {'q': {f'd{i}': int(g) for i, g in enumerate(rng.choice([0, 1, 2, 3, 4], 3000, p=[.8, .1, .05, .03, .02]))}}
    run = {'q': {f'd{i}': 1.0 for i in range(3000)}}
    found = irm.tie_dependence([ERR @ 20, ERR], qrels, run)
    assert (found.lowest[0] < found.expected[0]).all() and (found.expected[0] < found.highest[0]).all()
