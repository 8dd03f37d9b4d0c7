"""The C/W/L family: agreement with cwl_eval on generated data, and hand-computed cases.

The oracle is cwl_eval 1.0.12 as ir_measures calls it (its cwl_eval provider: gains
scaled by min_rel/max_rel, the expected rate of gain, depth 1000).  cwl_eval keeps
file order for ties, so it is given the canonical ranking (score descending, docno
descending) as distinct rank-derived scores.  The hand-computed cases evaluate the
C/W/L definitions (C -> W -> EU) directly with a few lines of Python, rank by rank.
"""
import logging
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import canonical
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP, BPM, INSQ, INST, NERR8, NERR9, NERR10, NERR11, RR, SDCG, MeasureError, P

ir_measures = reference('ir_measures')
logging.getLogger('ir_measures').disabled = True      # max_rel warnings on every evaluator

TOL = 1e-9
CWL_AP = AP(divisor='num_rel_ret')@1000

MEASURES = [
    BPM(max_rel=4)@10, BPM(T=2.0, max_rel=3)@5, BPM(T=0.5, min_rel=1, max_rel=3)@20, BPM(max_rel=1)@1,
    SDCG(max_rel=4)@10, SDCG(max_rel=2)@3,
    NERR8(max_rel=4)@10, NERR8(max_rel=1)@1, NERR9(max_rel=3)@10, NERR9(min_rel=1, max_rel=4)@4,
    NERR10(max_rel=4), NERR10(p=0.5, max_rel=2), NERR11(max_rel=4), NERR11(T=0.3, max_rel=3),
    INST(max_rel=4), INST(T=2.5, max_rel=3), INST(T=0.25, max_rel=1), INST(T=0.4, min_rel=1, max_rel=3),
    INSQ(max_rel=4), INSQ(T=3.0, max_rel=2),
    P@5, P(rel=2)@10, RR@1000, RR(rel=3)@1000, CWL_AP, AP(rel=2, divisor='num_rel_ret')@1000,
]


def cwl_name(m):
    """The ir_measures spelling of a measure for its cwl_eval provider."""
    if m.name in ('RR', 'AP'):                     # cwl_eval's RR and AP: depth 1000, AP over the relevant retrieved
        return f"{m.name}(rel={m['rel']})"
    return repr(m)


def cwl_values(measures, qrels, run):
    """{measure: {query: value}} from cwl_eval, for the qrels queries the run retrieves for."""
    ranked = {q: docs for q, docs in canonical(run).items() if q in qrels}
    theirs = {ir_measures.parse_measure(cwl_name(m)): m for m in measures}
    out = {m: {} for m in measures}
    for x in ir_measures.cwl_eval.iter_calc(list(theirs), qrels, ranked):
        out[theirs[x.measure]][x.query_id] = x.value
    return out


def assert_matches_cwl_eval(measures, qrels, run):
    results = irm.calc(measures, qrels, run)
    values = {(x.query_id, x.measure): x.value for x in results.iter_metrics()}
    expected = cwl_values(measures, qrels, run)
    for m in measures:
        for q in qrels:
            want = expected[m].get(q, 0.0) if q in run else 0.0      # missing from the run: 0
            assert abs(values[q, m] - want) <= TOL, (m, q, values[q, m], want)


QUERIES = ['q1', 'q2', '10', '9']
JUDGED_DOCS = [f'd{i}' for i in range(12)] + ['D', 'd01', 'é']
UNJUDGED_DOCS = ['u1', 'u10', 'u2', 'd99']
GRADES = st.sampled_from([-1, 0, 0, 1, 2, 3, 4, 5])
SCORES = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.5]) | st.floats(-10, 10, allow_nan=False)


@st.composite
def collections(draw):
    """(qrels, run) dicts: graded and -1 judgments, ties, queries missing from the run, run-only queries."""
    qids = draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=3, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(JUDGED_DOCS), GRADES, min_size=1, max_size=10)) for q in qids}
    run_qids = draw(st.lists(st.sampled_from(QUERIES + ['only_in_run']), min_size=1, max_size=4, unique=True))
    run = {q: draw(st.dictionaries(st.sampled_from(JUDGED_DOCS + UNJUDGED_DOCS), SCORES, min_size=1, max_size=16))
           for q in run_qids}
    return qrels, run


@settings(max_examples=25)
@given(collections())
def test_agrees_with_cwl_eval(collection):
    assert_matches_cwl_eval(MEASURES, *collection)


def deep_collection(seed):
    """1,300 ranked documents per query, gains around rank 1000: the depth cut matters."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in ('q1', 'q2', 'q3'):
        docs = [f'd{i:04d}' for i in range(1300)]
        judged = [i for i in range(1300) if rng.random() < 0.25 or 990 <= i <= 1010]
        qrels[q] = {docs[i]: int(rng.choice([0, 1, 2, 3, 4])) for i in judged}
        run[q] = {d: float(rng.integers(0, 400)) for d in docs}          # many ties
    return qrels, run


@pytest.mark.parametrize('seed', [1, 2])
def test_agrees_with_cwl_eval_on_deep_rankings(seed):
    measures = [BPM(T=60.0, max_rel=4)@2000, SDCG(max_rel=4)@1500, NERR8(max_rel=4)@1200,
                NERR9(max_rel=4)@1000, NERR10(p=0.99, max_rel=4), NERR11(T=30.0, max_rel=4),
                INST(T=40.0, max_rel=4), INST(T=0.2, max_rel=4), INSQ(T=10.0, max_rel=4),
                RR(rel=4)@1000, CWL_AP, P@1000]
    assert_matches_cwl_eval(measures, *deep_collection(seed))


@settings(max_examples=10)
@given(collections())
def test_cwl_eval_provider_agrees_with_native(collection):
    qrels, run = collection
    mine = irm.calc(MEASURES, qrels, run)
    theirs = irm.calc(MEASURES, qrels, run, provider='cwl_eval')
    for a, b in zip(mine.iter_metrics(), theirs.iter_metrics(), strict=True):
        assert (a.query_id, a.measure) == (b.query_id, b.measure)
        assert abs(a.value - b.value) <= TOL, (a, b)


def test_subtopic_grades_take_the_highest_when_asked():
    # cwl_eval (through ir_measures) keeps the last line of a document judged twice; irmetrics refuses such
    # qrels for one-grade measures, as trec_eval does, or takes the highest grade with duplicates='max'.
    qrels = [irm.Qrel('q', 'a', 3, '1'), irm.Qrel('q', 'a', 1, '2'), irm.Qrel('q', 'b', 0, '1')]
    run = {'q': {'a': 2.0, 'b': 1.0}}
    with pytest.raises(irm.DuplicateError, match="document 'a' is judged more than once"):
        (SDCG(max_rel=3)@1).calc_aggregate(qrels, run)
    assert (SDCG(max_rel=3)@1).calc_aggregate(irm.to_qrels(qrels, duplicates='max'), run) == 1.0
    theirs = ir_measures.cwl_eval.calc_aggregate([ir_measures.parse_measure('SDCG(max_rel=3)@1')], qrels, run)
    assert abs(next(iter(theirs.values())) - 1 / 3) < TOL


# --- hand-computed cases: the C/W/L definitions, rank by rank --------------------------------
DEPTH = 1000


def by_definition(continuation, gains):
    """EU = sum_i W(i) g(i), W(i) = prod_{j<i} C(j) / sum_k prod_{j<k} C(j), over 1000 ranks (1-based i)."""
    g = list(gains) + [0.0] * (DEPTH - len(gains))
    a, weights, total_gain = 1.0, [], 0.0
    for i in range(1, DEPTH + 1):
        weights.append(a)
        total_gain += g[i - 1]
        a *= continuation(i, g[i - 1], total_gain)
    return sum(w * x for w, x in zip(weights, g, strict=True)) / sum(weights)


def evaluate(measure, grades):
    """The measure of one query whose ranking has these grades (None: unjudged)."""
    qrels = {'q': {f'd{i:03d}': g for i, g in enumerate(grades) if g is not None}}
    run = {'q': {f'd{i:03d}': float(len(grades) - i) for i in range(len(grades))}}
    return measure.calc_aggregate(qrels, run)


GRADES_EXAMPLE = [2, 0, None, 4, 1, 3, 0, 4]           # max_rel=4: gains .5 0 0 1 .25 .75 0 1


@pytest.mark.parametrize('measure, continuation', [
    (SDCG(max_rel=4)@5, lambda i, g, G: math.log2(i + 1) / math.log2(i + 2) if i < 5 else 0.0),
    (NERR8(max_rel=4)@6, lambda i, g, G: 1 - g if i < 6 else 0.0),
    (NERR9(max_rel=4)@6, lambda i, g, G: i / (i + 1) * (1 - g) if i < 6 else 0.0),
    (NERR10(p=0.7, max_rel=4), lambda i, g, G: 0.7 * (1 - g)),
    (NERR11(T=1.5, max_rel=4), lambda i, g, G: ((i + 2 * 1.5 - 1) / (i + 2 * 1.5)) ** 2 * (1 - g)),
    (INSQ(T=2.0, max_rel=4), lambda i, g, G: ((i + 4 - 1) / (i + 4)) ** 2),
    (INST(T=2.0, max_rel=4), lambda i, g, G: ((i + 2 + (2 - G) - 1) / (i + 2 + (2 - G))) ** 2),
    (BPM(T=1.5, max_rel=4)@7, lambda i, g, G: 1.0 if i < 7 and G < 1.5 else 0.0),
    (BPM(T=9.0, max_rel=4)@3, lambda i, g, G: 1.0 if i < 3 and G < 9 else 0.0),
])
def test_definitions_rank_by_rank(measure, continuation):
    gains = [0.0 if g is None else g / 4 for g in GRADES_EXAMPLE]
    assert abs(evaluate(measure, GRADES_EXAMPLE) - by_definition(continuation, gains)) < 1e-12


def test_hand_computed_values():
    # Gains 0.5, 0, 0, 1 (max_rel=4).  NERR8@4: W proportional to 1, .5, .5, .5 -> (.5 + .5) / 2.5.
    assert abs(evaluate(NERR8(max_rel=4)@4, [2, 0, None, 4]) - 0.4) < 1e-15
    # SDCG@3 of gains 1, 0, .5: (1 + .5 / log2 4) / (1 + 1 / log2 3 + 1 / log2 4).
    expected = (1 + 0.25) / (1 + 1 / math.log2(3) + 0.5)
    assert abs(evaluate(SDCG(max_rel=2)@3, [2, 0, 1]) - expected) < 1e-15
    # BPM(T=1)@5 of gains .5, .5, 1: the user has T after rank 2 and reads 2 documents.
    assert evaluate(BPM(max_rel=2)@5, [1, 1, 2]) == 0.5
    # INST(T=1) of one fully relevant document at rank 1: C(1) = (1/2)^2 and C(i) = (i / (i + 1))^2 after
    # it, so the weight of rank i is proportional to 1 / i^2.
    z = sum(1 / i ** 2 for i in range(1, DEPTH + 1))
    assert abs(evaluate(INST(max_rel=1), [1]) - 1 / z) < 1e-13
    # RBP-like truncation: INSQ is normalised over exactly 1000 ranks, so a document at rank 1001 is ignored.
    assert evaluate(INSQ(max_rel=1), [0] * 1000 + [1]) == 0.0


def test_parameters_are_validated():
    with pytest.raises(MeasureError, match='cutoff'):
        irm.parse_measure('BPM(max_rel=4)')
    with pytest.raises(MeasureError, match='max_rel'):
        irm.parse_measure('INST')
    for bad in ('INST(T=0,max_rel=4)', 'NERR10(p=1.0,max_rel=4)', 'SDCG(dcg="exp-log2",max_rel=4)@10',
                'INSQ(min_rel=-1,max_rel=4)', 'BPM(max_rel=0)@10'):
        with pytest.raises(MeasureError):
            irm.parse_measure(bad)
    for build in (lambda: INSQ(min_rel=3, max_rel=2), lambda: INSQ(max_rel=2)(min_rel=2),
                  lambda: irm.parse_measure('BPM(max_rel=3,min_rel=3)@10')):
        with pytest.raises(MeasureError, match='max_rel .* must be greater than min_rel'):
            build()


def test_identity_and_defaults():
    assert irm.parse_measure('INST(max_rel=4,T=1.0)') == INST(max_rel=4)
    assert repr(NERR10(p=0.9, max_rel=4)) == 'NERR10(max_rel=4)'
    assert irm.parse_measure(repr(BPM(T=2.0, min_rel=1, max_rel=3)@20)) == BPM(T=2.0, min_rel=1, max_rel=3)@20
    assert AP(divisor='num_rel') == AP and repr(CWL_AP) == "AP(divisor='num_rel_ret')@1000"


def test_cwl_ap_differs_from_trec_eval_ap_only_in_its_divisor():
    qrels = {'q': {'a': 1, 'b': 1, 'c': 1, 'x': 0}}
    run = {'q': {'a': 3.0, 'x': 2.0, 'b': 1.0}}                   # c, relevant, is not retrieved
    assert abs(AP.calc_aggregate(qrels, run) - (1 + 2 / 3) / 3) < 1e-15
    assert abs(CWL_AP.calc_aggregate(qrels, run) - (1 + 2 / 3) / 2) < 1e-15


@given(collections(), st.randoms(use_true_random=False))
def test_invariants(collection, rnd):
    # Values lie in [0, 1]; the file order of the run does not matter; an unjudged document appended below
    # every ranking changes nothing (it gains 0, and the weights are normalised over 1000 ranks anyway).
    qrels, run = collection
    values = irm.calc(MEASURES, qrels, run).values
    assert ((values >= 0) & (values <= 1 + 1e-12)).all()
    lines = [irm.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    rnd.shuffle(lines)
    assert (irm.calc(MEASURES, qrels, lines).values == values).all()
    longer = {q: {**docs, 'unjudged-last': min(docs.values()) - 1.0} for q, docs in run.items()}
    assert (irm.calc(MEASURES, qrels, longer).values == values).all()
