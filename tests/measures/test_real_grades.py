"""Fractional grades in the Python API: a grade of 0.5 or 2.7 is kept, a real-valued gain for the measures
defined on gains (nDCG, ERR, RBP) and compared as a real number with ``rel=``; ``grades='trec_eval'`` takes each
grade's integer part, as trec_eval 10 does.  Values computed by hand from the definitions, and against
scikit-learn's ndcg_score, which takes real-valued relevance."""
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sklearn.metrics import ndcg_score

import irmetrics as irm
from irmetrics import InputError

QRELS = 'q 0 a 0.5\nq 0 b 2.7\nq 0 c 0\nq 0 d 1e-3\n'
RUN = {'q': {'a': 4.0, 'b': 3.0, 'c': 2.0, 'd': 1.0}}


def test_a_fractional_grade_is_a_real_valued_gain():
    qrels = irm.read_trec_qrels(QRELS)
    assert qrels.relevance.tolist() == [0.5, 2.7, 0.0, 0.001]
    dcg = 0.5 + 2.7 / math.log2(3) + 0.001 / math.log2(5)
    ideal = 2.7 + 0.5 / math.log2(3) + 0.001 / math.log2(4)
    values = irm.calc_aggregate(['nDCG', 'nDCG@2', 'RBP(p=0.5)', 'ERR(max_rel=3)', 'P(rel=1)@4', 'P(rel=3)@4',
                                 'Judged@4'], qrels, RUN)
    assert values[irm.parse_measure('nDCG')] == pytest.approx(dcg / ideal, rel=1e-15)
    assert values[irm.parse_measure('nDCG@2')] == pytest.approx((0.5 + 2.7 / math.log2(3)) /
                                                                (2.7 + 0.5 / math.log2(3)), rel=1e-15)
    assert values[irm.parse_measure('RBP(p=0.5)')] == pytest.approx(0.5 * (0.5 + 2.7 * 0.5 + 0.001 * 0.125))
    r = [(2 ** g - 1) / 8 for g in (0.5, 2.7, 0.0, 0.001)]           # ERR's stopping chances, max_rel = 3
    err = r[0] + (1 - r[0]) * r[1] / 2 + (1 - r[0]) * (1 - r[1]) * (1 - r[2]) * r[3] / 4
    assert values[irm.parse_measure('ERR(max_rel=3)')] == pytest.approx(err, rel=1e-14)
    assert values[irm.parse_measure('P(rel=1)@4')] == 0.25            # 2.7 >= 1; 0.5 and 0.001 are not
    assert values[irm.parse_measure('P(rel=3)@4')] == 0.0
    assert values[irm.parse_measure('Judged@4')] == 1.0


def test_trec_evals_rule_is_one_option_away():
    """grades='trec_eval': the integer parts (0, 2, 0, 0): nDCG = (2 / log2 3) / 2."""
    qrels = irm.read_trec_qrels(QRELS)
    assert irm.calc_aggregate(['nDCG'], qrels, RUN, grades='trec_eval') == {
        irm.parse_measure('nDCG'): pytest.approx(1 / math.log2(3), rel=1e-15)}
    assert qrels.integer_grades().relevance.tolist() == [0, 2, 0, 0]
    # read from text as trec_eval reads it (atol): 1e-3 is 1, so d is relevant at rel=1
    text = irm.read_trec_qrels(QRELS, grades='trec_eval')
    assert text.relevance.tolist() == [0, 2, 0, 1]
    assert irm.calc_aggregate(['P(rel=1)@4'], text, RUN) == {irm.parse_measure('P(rel=1)@4'): 0.5}


def test_ndcg_agrees_with_scikit_learn_on_real_valued_relevance():
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(2, 30))
        grades = np.round(rng.uniform(0, 4, n), int(rng.integers(1, 4))) * (rng.random(n) < 0.7)
        scores = rng.permutation(n).astype(float)                   # distinct: no ties
        docs = [f'd{i}' for i in range(n)]
        qrels = irm.to_qrels(pd.DataFrame({'query_id': 'q', 'doc_id': docs, 'relevance': grades}))
        run = {'q': dict(zip(docs, scores.tolist(), strict=True))}
        k = int(rng.integers(1, n + 1))
        if grades.max() == 0:
            continue
        ours = irm.calc_aggregate(['nDCG', f'nDCG@{k}'], qrels, run)
        assert ours[irm.parse_measure('nDCG')] == pytest.approx(ndcg_score([grades], [scores]), rel=1e-12)
        assert ours[irm.parse_measure(f'nDCG@{k}')] == pytest.approx(ndcg_score([grades], [scores], k=k), rel=1e-12)


@pytest.mark.parametrize('qrels', [
    {'q': {'a': 0.5, 'b': 2.7}},
    pd.DataFrame({'query_id': ['q', 'q'], 'doc_id': ['a', 'b'], 'relevance': [0.5, 2.7]}),
    pa.table({'query_id': ['q', 'q'], 'doc_id': ['a', 'b'], 'relevance': pa.array([0.5, 2.7], pa.float32())}),
], ids=['dict', 'DataFrame', 'Arrow float32'])
def test_every_input_keeps_a_real_grade(qrels):
    relevance = irm.to_qrels(qrels).relevance
    assert relevance.dtype == np.float64 and relevance.tolist() == pytest.approx([0.5, 2.7])


def test_whole_grades_stay_integers_and_real_ones_digest_apart():
    assert irm.to_qrels({'q': {'a': 2.0, 'b': 1}}).relevance.dtype == np.int64
    assert irm.read_trec_qrels('q 0 a 2e1\nq 0 b 3.0\n').relevance.tolist() == [20, 3]
    assert irm.to_qrels({'q': {'a': 0.5}}).digest() != irm.to_qrels({'q': {'a': 0.7}}).digest()


@pytest.mark.parametrize('provider', ['pytrec_eval', 'trectools'])
def test_an_engine_reading_whole_grades_only_refuses_real_ones(provider):
    with pytest.raises(InputError, match=rf"{provider} reads whole grades only, and the qrels hold a fractional "
                                         r"one \(0\.5\).*grades='trec_eval'"):
        irm.calc_aggregate(['nDCG'], irm.read_trec_qrels(QRELS), RUN, provider=provider)
    value = irm.calc_aggregate(['nDCG'], irm.read_trec_qrels(QRELS), RUN, provider=provider, grades='trec_eval')
    assert value == {irm.parse_measure('nDCG'): pytest.approx(1 / math.log2(3), rel=1e-15)}


# --- real-valued rel= thresholds: grade >= rel compared as real numbers ---------------------------------------
#: QRELS ranked a (0.5), b (2.7), c (0), d (0.001): the values by hand
THRESHOLDS = {
    'P(rel=0.5)@4': 0.5, 'P(rel=2.7)@4': 0.25, 'P(rel=2.71)@4': 0.0, 'P(rel=0.001)@4': 0.75,
    'P(rel=0.0005)@4': 0.75,
    'R(rel=0.5)@1': 0.5,                        # two relevant (a, b), a at rank 1
    'RR(rel=1.5)': 0.5,                         # b, at rank 2
    'AP(rel=0.001)': (1 / 1 + 2 / 2 + 3 / 4) / 3,
    'Rprec(rel=0.5)': 1.0,                      # R = 2: a and b are the top 2
    'NumRel(rel=0.001)': 3, 'NumRet(rel=0.5)': 2,
    'RBP(p=0.5,rel=0.5)': 0.5 * (1 + 0.5),      # (1 - p) * (p^0 + p^1): a and b
    'Success(rel=2.5)@1': 0.0, 'Success(rel=2.5)@2': 1.0,
}


def test_a_real_threshold_compares_real_grades():
    values = irm.calc_aggregate(list(THRESHOLDS), irm.read_trec_qrels(QRELS), RUN)
    assert {str(m): v for m, v in values.items()} == pytest.approx(THRESHOLDS, rel=1e-15)
    # under trec_eval's rule the grades are 0, 2, 0, 0: one document at rel=1.5
    assert irm.calc_aggregate(['P(rel=1.5)@4'], QRELS, RUN, grades='trec_eval') == {
        irm.parse_measure('P(rel=1.5)@4'): 0.25}


def _rel_families():
    from irmetrics.algebra.measure import REGISTRY
    return [d.name for d in REGISTRY.definitions() if d.has_param('rel')]


@pytest.mark.parametrize('family', _rel_families())
def test_on_whole_grades_a_real_threshold_is_the_next_whole_one(family):
    """Every family with ``rel``, on the examples' whole grades: rel=1.5 counts what rel=2 counts, rel=0.5 what
    rel=1 does, rel=2.2 what rel=3 does (a kernel reading rel as an integer, or truncating it, would differ)."""
    from repo_paths import ROOT

    from irmetrics.algebra.measure import REGISTRY
    from irmetrics.algebra.params import REQUIRED
    qrels, run = (str(ROOT / 'examples' / name) for name in ('qrels.txt', 'run_bm25.txt'))
    definition = REGISTRY.lookup(family).definition
    required = {p.name: {'cutoff': 5, 'recall': 0.5, 'levels': (0.2, 0.5)}[p.name]
                for p in definition.params if p.default is REQUIRED}
    bare = REGISTRY.lookup(family)(**required)
    docs = sorted(set(irm.read_trec_run(run).doc_ids.to_list()) | set(irm.to_qrels(qrels).doc_ids.to_list()))
    items = irm.Items(popularity={d: i % 7 for i, d in enumerate(docs)})
    options = {'items': items} if definition.items else {}
    for real, whole in ((0.5, 1), (1.5, 2), (2.2, 3)):
        got = irm.calc(bare(rel=real), qrels, run, **options).values
        expected = irm.calc(bare(rel=whole), qrels, run, **options).values
        assert np.array_equal(got, expected, equal_nan=True), (real, whole)


def test_a_real_threshold_is_one_measure_spelt_in_one_way():
    from irmetrics import P
    from irmetrics.dialects.trec_eval import trec_output_name
    assert irm.parse_measure('P(rel=1.50)@5') == P(rel=1.5)@5 and repr(P(rel=1.5)@5) == 'P(rel=1.5)@5'
    assert irm.parse_measure(repr(P(rel=0.001)@5)) == P(rel=0.001)@5
    two = irm.parse_measure('P(rel=2.0)@5')                    # a whole real is its integer
    assert two == P(rel=2)@5 and hash(two) == hash(P(rel=2)@5) and repr(two) == 'P(rel=2)@5'
    assert type(two['rel']) is int and type((P(rel=1.5)@5)['rel']) is float
    # trec_eval's names leave the relevance level out (it is -l): P_5, as for P(rel=2)@5
    assert trec_output_name(P(rel=1.5)@5) == trec_output_name(P(rel=2)@5) == 'P_5'
    assert irm.parse_measure('precision@5-l2', dialect='ranx') == P(rel=2)@5      # ranx's -lN: whole, unchanged
    for bad in ('P(rel=-0.5)@5', 'P(rel=1e400)@5'):
        with pytest.raises(irm.MeasureError, match="parameter 'rel': expected a number >= 0"):
            irm.parse_measure(bad)
    with pytest.raises(irm.MeasureError, match="parameter 'rel': expected a number >= 0"):
        P(rel=math.nan)@5


@pytest.mark.parametrize('provider', ['pytrec_eval', 'trectools'])
def test_a_real_threshold_is_the_native_engines(provider):
    """The wrapped engines take whole thresholds only: a real one is not theirs (and not truncated by them)."""
    with pytest.raises(irm.UnsupportedMeasureError, match=r"does not support P\(rel=1\.5\)@4; it can be computed "
                                                          r"by: native"):
        irm.calc_aggregate(['P(rel=1.5)@4'], 'q 0 a 2\n', {'q': {'a': 1.0}}, provider=provider)
