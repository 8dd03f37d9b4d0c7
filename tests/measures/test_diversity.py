"""Diversity measures: agreement with pyndeval (ndeval 4.5) on generated subtopic qrels, hand-computed cases.

pyndeval is called directly: qrels as (query, subtopic, doc, grade) lines in the
order irmetrics stores them, the run as the canonical ranking (score descending,
docno descending) with distinct rank-derived scores, since pyndeval breaks ties
by docno ascending.  For judged_only the test removes the unjudged documents
itself (absent from the qrels, or judged only with negative grades), as
ir_measures means to.  Known divergence, asserted: ndeval's nNRBP is NaN (0/0) for
a query without relevant documents, irmetrics' is 0.
"""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_tools import reference

import irmetrics as irm
from irmetrics import AP_IA, ERR_IA, NRBP, P_IA, MeasureError, Qrel, StRecall, alpha_DCG, alpha_nDCG, nERR_IA, nNRBP

pyndeval = reference('pyndeval')

TOL = 1e-9

#: irmetrics measure (bare) -> ndeval name (cutoff measures take '@k').
NDEVAL = {'alpha_DCG': 'alpha-DCG', 'alpha_nDCG': 'alpha-nDCG', 'ERR_IA': 'ERR-IA', 'nERR_IA': 'nERR-IA',
          'P_IA': 'P-IA', 'StRecall': 'strec', 'NRBP': 'NRBP', 'nNRBP': 'nNRBP', 'AP_IA': 'MAP-IA'}


def ndeval_name(m):
    return NDEVAL[m.name] + (f"@{m['cutoff']}" if m.definition.at_param == 'cutoff' else '')


def measures_for(rel, alpha, beta, judged_only, cutoffs):
    """Every diversity measure under one pyndeval invocation setting."""
    out = [AP_IA(rel=rel, judged_only=judged_only)]
    if not judged_only:                        # NRBP and StRecall have no judged_only
        out += [NRBP(rel=rel, alpha=alpha, beta=beta), nNRBP(rel=rel, alpha=alpha, beta=beta)]
        out += [StRecall(rel=rel)@k for k in cutoffs]
    for k in cutoffs:
        out += [m(rel=rel, alpha=alpha, judged_only=judged_only)@k for m in (alpha_DCG, alpha_nDCG, ERR_IA, nERR_IA)]
        out += [P_IA(rel=rel, judged_only=judged_only)@k]
    return out


def pyndeval_values(qrels, run, measures, rel, alpha, beta, judged_only):
    """{(query, measure): value} computed by pyndeval for the qrels queries the run retrieves for."""
    stored = irm.to_qrels(qrels)
    best = {}
    for q in stored:
        best[q.query_id, q.doc_id] = max(q.relevance, best.get((q.query_id, q.doc_id), q.relevance))
    ranked, depth = [], {}
    for d in irm.to_run(run):                   # the canonical order
        if judged_only and best.get((d.query_id, d.doc_id), -1) < 0:
            continue
        depth[d.query_id] = depth.get(d.query_id, 0) + 1
        ranked.append(pyndeval.ScoredDoc(d.query_id, d.doc_id, -float(depth[d.query_id])))
    lines = [pyndeval.SubtopicQrel(q.query_id, q.iteration, q.doc_id, q.relevance) for q in stored]
    names = {ndeval_name(m): m for m in measures}
    evaluator = pyndeval.RelevanceEvaluator(lines, list(names), relevance_level=rel, alpha=alpha, beta=beta)
    return {(q, names[n]): v for q, values in evaluator.evaluate(ranked).items() for n, v in values.items()}


def assert_matches_pyndeval(qrels, run, rel=1, alpha=0.5, beta=0.5, judged_only=False, cutoffs=(1, 2, 5, 10, 20)):
    measures = measures_for(rel, alpha, beta, judged_only, cutoffs)
    expected = pyndeval_values(qrels, run, measures, rel, alpha, beta, judged_only)
    for x in irm.calc(measures, qrels, run).iter_metrics():
        want = expected.get((x.query_id, x.measure), 0.0)          # missing from the run (or empty): 0
        if math.isnan(want):                                       # the known divergence, see test below
            assert x.measure.name == 'nNRBP' and x.value == 0.0
            continue
        assert abs(x.value - want) <= TOL, (x.measure, x.query_id, x.value, want)


QUERIES = ['q1', 'q2', '10']
DOCS = [f'd{i}' for i in range(10)] + ['D', 'é']
UNJUDGED = ['u1', 'u2', 'd99']
SUBTOPICS = ['1', '2', '3', '10', 'x']
GRADES = st.sampled_from([-1, 0, 1, 1, 1, 2, 3])
SCORES = st.sampled_from([0.0, 1.0, 2.0, 3.0]) | st.floats(-5, 5, allow_nan=False)


@st.composite
def collections(draw):
    """(qrels, run): subtopic qrels with several grades per document, ties, missing and run-only queries."""
    qids = draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=3, unique=True))
    qrels = []
    for q in qids:
        judged = draw(st.dictionaries(st.tuples(st.sampled_from(DOCS), st.sampled_from(SUBTOPICS)), GRADES,
                                      min_size=1, max_size=25))
        qrels += [Qrel(q, d, g, s) for (d, s), g in judged.items()]
    run_qids = draw(st.lists(st.sampled_from(QUERIES + ['only_in_run']), min_size=1, max_size=4, unique=True))
    run = {q: draw(st.dictionaries(st.sampled_from(DOCS + UNJUDGED), SCORES, min_size=1, max_size=15))
           for q in run_qids}
    return qrels, run


@given(collections(), st.sampled_from([(1, 0.5, 0.5), (2, 0.5, 0.5), (1, 0.8, 0.3), (1, 0.3, 0.9),
                                       (1, 1.0, 0.5), (1, 0.0, 1.0)]), st.booleans())
def test_agrees_with_pyndeval(collection, setting, judged_only):
    rel, alpha, beta = setting
    assert_matches_pyndeval(*collection, rel=rel, alpha=alpha, beta=beta, judged_only=judged_only)


@settings(max_examples=20)
@given(collections())
def test_pyndeval_provider_agrees_with_native(collection):
    qrels, run = collection
    measures = measures_for(1, 0.5, 0.5, False, (1, 3, 20)) + measures_for(2, 0.7, 0.6, True, (5,))
    mine = irm.calc(measures, qrels, run)
    theirs = irm.calc(measures, qrels, run, provider='pyndeval')
    for a, b in zip(mine.iter_metrics(), theirs.iter_metrics(), strict=True):
        assert (a.query_id, a.measure) == (b.query_id, b.measure)
        assert abs(a.value - b.value) <= TOL, (a, b)


@given(collections(), st.randoms(use_true_random=False))
def test_invariants(collection, rnd):
    # NRBP, P_IA, AP_IA and StRecall lie in [0, 1]; the file order of the run does not matter; an unjudged
    # document appended below every ranking changes nothing.
    qrels, run = collection
    measures = measures_for(1, 0.5, 0.5, False, (1, 5, 20)) + measures_for(2, 0.8, 0.4, True, (3,))
    values = irm.calc(measures, qrels, run).values
    for j, m in enumerate(measures):
        if m.definition.bounds is not None:
            assert ((values[:, j] >= 0) & (values[:, j] <= 1 + 1e-12)).all(), m
    lines = [irm.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    rnd.shuffle(lines)
    assert (irm.calc(measures, qrels, lines).values == values).all()
    longer = {q: {**docs, 'unjudged-last': min(docs.values()) - 1.0} for q, docs in run.items()}
    assert (irm.calc(measures, qrels, longer).values == values).all()


def test_greedy_ideal_breaks_ties_by_greater_docno():
    # c, z and y tie at 2 for the first ideal rank, then a, b and the rest tie too: which document ndeval
    # takes (the greater docno) changes the gains of the next ranks.
    qrels = [Qrel('q', 'c', 1, '1'), Qrel('q', 'c', 1, '2'), Qrel('q', 'a', 1, '1'), Qrel('q', 'b', 1, '2'),
             Qrel('q', 'z', 1, '2'), Qrel('q', 'z', 1, '3'), Qrel('q', 'y', 1, '1'), Qrel('q', 'y', 1, '4')]
    for run in ({'q': {'a': 3.0, 'c': 2.0, 'z': 1.0}}, {'q': {'z': 3.0, 'y': 2.0, 'a': 1.0, 'b': 0.5}}):
        assert_matches_pyndeval(qrels, run, cutoffs=(1, 2, 3, 4, 5))


def test_query_without_relevant_documents():
    qrels = [Qrel('q', 'a', 1, '1'), Qrel('q', 'b', 0, '2'), Qrel('empty', 'a', 0, '1')]
    run = {'q': {'a': 1.0}, 'empty': {'a': 1.0, 'b': 0.5}}
    ndeval = pyndeval.ndeval([pyndeval.SubtopicQrel(q.query_id, q.iteration, q.doc_id, q.relevance)
                              for q in qrels], [('empty', 'a', 1.0), ('empty', 'b', 0.5)], ['nNRBP', 'alpha-nDCG@5'])
    assert math.isnan(ndeval['empty']['nNRBP']) and ndeval['empty']['alpha-nDCG@5'] == 0.0
    values = {(x.query_id, x.measure.name): x.value
              for x in irm.iter_calc([nNRBP, alpha_nDCG@5, AP_IA, StRecall@5], qrels, run)}
    assert values['empty', 'nNRBP'] == 0.0 and values['empty', 'AP_IA'] == 0.0
    # The subtopic '2' of 'q' has no relevant document: it is ignored (S = 1), so 'a' covers everything.
    assert values['q', 'StRecall'] == 1.0 and values['q', 'nNRBP'] == 1.0


# --- hand-computed cases (Clarke et al. 2008; Agrawal et al. 2009) ----------------------------
# Subtopics: A covers 1 and 2, B covers 1, C covers 3 (S = 3).  Run B, A, C with alpha = 1/2:
# G = 1, (1/2 + 1), 1.  Greedy ideal: A (2), C (1), B (1/2).
HAND_QRELS = [Qrel('q', 'A', 1, '1'), Qrel('q', 'A', 1, '2'), Qrel('q', 'B', 1, '1'), Qrel('q', 'C', 1, '3'),
              Qrel('q', 'N', 0, '3')]
HAND_RUN = {'q': {'B': 3.0, 'A': 2.0, 'U': 1.5, 'C': 1.0}}      # U is unjudged


def hand(measure):
    return measure.calc_aggregate(HAND_QRELS, HAND_RUN)


def test_hand_computed_gains_and_ideal():
    dcg = 1 + 1.5 / math.log2(3) + 0 + 1 / math.log2(5)
    ideal_dcg = 2 + 1 / math.log2(3) + 0.5 / 2 + 0
    assert abs(hand(alpha_nDCG@4) - dcg / ideal_dcg) < 1e-15
    ideal_ideal = 3 * sum(0.5 ** i / math.log2(i + 2) for i in range(4))
    assert abs(hand(alpha_DCG@4) - dcg / ideal_ideal) < 1e-15
    assert hand(alpha_DCG@1) == 1.0 and hand(ERR_IA@1) == 1.0         # ndeval: G(1), unnormalised at k = 1
    err = 1 + 1.5 / 2 + 0 + 1 / 4
    assert abs(hand(ERR_IA@4) - err / (3 * sum(0.5 ** i / (i + 1) for i in range(4)))) < 1e-15
    assert abs(hand(nERR_IA@4) - err / (2 + 1 / 2 + 0.5 / 3)) < 1e-15
    nrbp = 1 + 1.5 * 0.5 + 0 + 1 * 0.125
    assert abs(hand(NRBP) - (1 - 0.5 * 0.5) / 3 * nrbp) < 1e-15
    assert abs(hand(nNRBP) - nrbp / (2 + 0.5 + 0.5 * 0.25)) < 1e-15
    assert abs(hand(P_IA@2) - (1 + 2) / (2 * 3)) < 1e-15                 # 3 (document, subtopic) hits in top 2
    assert hand(StRecall@2) == 2 / 3 and hand(StRecall@4) == 1.0
    ap = ((1 + 2 / 2) / 2 + (1 / 2) / 1 + (1 / 4) / 1) / 3              # subtopics 1, 2, 3
    assert abs(hand(AP_IA) - ap) < 1e-15
    # Without the unjudged U, C moves up to rank 3.
    assert abs(hand(StRecall@3) - 2 / 3) < 1e-15
    assert abs(hand(P_IA(judged_only=True)@3) - 4 / 9) < 1e-15


def test_parameters_are_validated():
    with pytest.raises(MeasureError, match=r'cutoff .*alpha_nDCG@10'):
        irm.parse_measure('alpha_nDCG')
    for bad in ('alpha_nDCG(alpha=1.5)@5', 'NRBP(beta=0)', 'NRBP@5', 'P_IA@0', 'StRecall(judged_only=True)@5'):
        with pytest.raises(MeasureError):
            irm.parse_measure(bad)
    assert irm.parse_measure('α_nDCG@20') == alpha_nDCG@20 and irm.parse_measure('MAP_IA') == AP_IA


def test_evaluator_builds_the_ideal_once(monkeypatch):
    from irmetrics.providers.native import diversity
    built, placed = [], []
    init, place = diversity.GreedyIdeal.__init__, diversity.GreedyIdeal._place_one
    monkeypatch.setattr(diversity.GreedyIdeal, '__init__',
                        lambda self, sj, alpha: built.append(alpha) or init(self, sj, alpha))
    monkeypatch.setattr(diversity.GreedyIdeal, '_place_one', lambda self: placed.append(1) or place(self))
    ev = irm.evaluator([alpha_nDCG@1, alpha_nDCG@2, nNRBP, nERR_IA@20], HAND_QRELS)
    first = ev.calc_aggregate(HAND_RUN)
    assert ev.calc_aggregate({'q': {'C': 2.0, 'A': 1.0}}) != first
    assert ev.calc_aggregate(HAND_RUN) == first
    assert built == [0.5] and len(placed) == 3     # one step per document with a gain, never repeated


def test_the_ideal_sum_of_a_cutoff_beyond_a_block_is_summed_a_block_at_a_time():
    """alpha_DCG and ERR-IA divide by S * sum_{i<k} (1 - alpha)^i w(i): beyond 2**20 ranks a block at a time,
    within a few units of the last place of the sum of one array; up to the rank where (1 - alpha)^i stops
    counting, so that a cutoff of 2**63 - 1 costs what that rank costs (before: an array of k doubles, a
    traceback); a sum whose terms never stop counting (alpha = 0) beyond 10**8 terms is one error."""
    import numpy as np

    from irmetrics.providers.native import diversity as D
    for alpha in (0.0, 0.1, 0.5):
        for weight in (D.discount, D._reciprocal):
            k = (1 << 20) + 1234
            whole = float(np.sum(D.novelty_gains(alpha, k) * weight(np.arange(k))))
            assert D._long_ideal_sum(alpha_DCG(alpha=alpha) @ k, weight) == pytest.approx(whole, rel=1e-14)
    qrels = [Qrel('q1', 'd1', 1, '1'), Qrel('q1', 'd2', 1, '2'), Qrel('q2', 'd3', 1, '1')]
    run = {'q1': {'d1': 2.0, 'd2': 1.0}, 'q2': {'d3': 1.0}}
    for family in (alpha_DCG, ERR_IA):
        huge, short = family(alpha=0.5) @ (2 ** 63 - 1), family(alpha=0.5) @ 200       # 0.5^200: nothing left
        got = irm.calc_aggregate([huge, short], qrels, run)
        assert got[huge] == pytest.approx(got[short], rel=1e-15)
        with pytest.raises(MeasureError, match=r'a term for each of the first 9,223,372,036,854,775,807 ranks'):
            irm.calc_aggregate([family(alpha=0.0) @ (2 ** 63 - 1)], qrels, run)
