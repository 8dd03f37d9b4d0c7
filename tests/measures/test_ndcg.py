"""nDCG: linear gains and trec_eval's ideal ranking (measures/ndcg.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import math

import numpy as np
import pytest
from hand_case import approx, cases_of, value

import irmetrics as irm
from irmetrics import DCG, IDCG, nDCG


@pytest.mark.parametrize('measure, expected', cases_of(nDCG))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)


def m_ndcg_cut_c(grades_ranked, judged_grades, cutoff):
    """m_ndcg.c (cutoff None) and m_ndcg_cut.c, step for step in doubles: the ranking's positive gains,
    each divided by log2(rank + 1), summed from the top; the ideal ranking's the same way (judged grades
    in decreasing order); their ratio where the ideal is positive."""
    dcg = 0.0
    for i, gain in enumerate(grades_ranked[:cutoff]):
        if gain > 0:
            dcg += gain / math.log2(i + 2)
    ideal = 0.0
    for i, gain in enumerate(sorted((g for g in judged_grades if g > 0), reverse=True)[:cutoff]):
        ideal += gain / math.log2(i + 2)
    return dcg / ideal if ideal > 0 else 0.0


def test_ndcg_at_a_midpoint_is_the_double_trec_eval_computes():
    """Grades 5, 5, 32, 32, the run ranks the grade-5 documents: nDCG@2 = (5 + 5 / log2 3) / (32 + 32 / log2 3)
    = 5/32 exactly in doubles when each gain is divided by its log2 (m_ndcg_cut.c), so that trec_eval's
    0.1562 is printed; a product with 1 / log2 3 lands above 0.15625."""
    qrels, run = {'1': {'a': 5, 'b': 5, 'c': 32, 'd': 32}}, {'1': {'a': 2.0, 'b': 1.0}}
    got = irm.calc_aggregate([nDCG @ 2, DCG @ 2, IDCG @ 2], qrels, run)
    assert got == {nDCG @ 2: 0.15625, DCG @ 2: 5 / 1 + 5 / math.log2(3), IDCG @ 2: 32 / 1 + 32 / math.log2(3)}


@pytest.mark.parametrize('seed', range(4))
def test_ndcg_is_computed_in_the_order_of_m_ndcg_c_to_the_last_bit(seed):
    """Grades 0 to 40, several documents of a grade, unjudged documents, rankings of 1 to 80: every value
    the double of trec_eval's loops (the textbook's other orders differ in the last bit, and print differently
    at a 4-decimal midpoint)."""
    rng = np.random.default_rng(seed)
    run, qrels, ranked = {}, {}, {}
    for q in range(60):
        levels = rng.choice(41, size=int(rng.integers(1, 5)), replace=False)
        judged = {f'd{i}': int(rng.choice(levels)) for i in range(int(rng.integers(1, 30)))}
        judged['top'] = int(levels.max()) or 1
        docs = list(rng.permutation(list(judged) + [f'u{i}' for i in range(20)]))[:int(rng.integers(1, 80))]
        qrels[f'q{q}'], run[f'q{q}'] = judged, {d: float(len(docs) - i) for i, d in enumerate(docs)}
        ranked[f'q{q}'] = [judged.get(d, 0) for d in docs]
    for cutoff in (None, 1, 2, 3, 5, 10, 20, 100):
        measure = nDCG if cutoff is None else nDCG @ cutoff
        got = {m.query_id: m.value for m in irm.iter_calc([measure], qrels, run)}
        assert got == {q: m_ndcg_cut_c(ranked[q], qrels[q].values(), cutoff) for q in qrels}, cutoff
