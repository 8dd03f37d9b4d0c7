"""Agreement of the native engine with pytrec_eval (trec_eval 9.0.8) on generated data.

Two oracles: irmetrics' own pytrec_eval provider, and pytrec_eval called
directly on dict-of-dict inputs that this module builds itself (with its own
table of trec_eval names).  pytrec_eval compares scores as 32-bit floats, so it
is given the canonical ranking (score descending as doubles, docno descending
byte-wise) as distinct rank-derived scores.  pytrec_eval leaves out the queries
missing from the run; the native values of those are checked against
trec_eval -c's rule instead (0; NumQ 1, NumRel the real count).  Queries whose
judgments are all negative are not given to pytrec_eval either: trec_eval 9
reads relevance-level arrays it never allocated for them (bpref, ndcg) and the
process crashes or hangs; they have no relevant document, so every value is 0
but NumQ and NumRet.

Known divergences are asserted, not skipped: see the tests named
``test_divergence_*``.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import canonical
from reference_tools import reference
from repo_paths import FIXTURES

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

pytrec_eval = reference('pytrec_eval')
pytrec_eval_ext = reference('pytrec_eval_ext')

TOL = 1e-9
TESTDATA = FIXTURES / 'trec_eval' / 'nist'
LEVELS = [round(0.1 * i, 1) for i in range(11)] + [0.25]

#: Every measure family of the trec_eval suite, with parameter variants.
MEASURES = [
    P@1, P@5, P@10, P(rel=2)@5, P(judged_only=True)@5, P(rel=2, judged_only=True)@10,
    R@5, R@1000, R(rel=2)@10, R(judged_only=True)@5,
    AP, AP@5, AP@10, AP(rel=2), AP(judged_only=True), AP(rel=3, judged_only=True)@10,
    RR, RR(rel=2), RR(judged_only=True),
    Rprec, Rprec(rel=2), Rprec(judged_only=True),
    Bpref, Bpref(rel=2), Bpref(rel=3),
    infAP, infAP(rel=2),
    nDCG, nDCG@3, nDCG@10, nDCG(judged_only=True), nDCG(judged_only=True)@5,
    nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7}), nDCG(gains={1: 5, 2: 1}), nDCG(gains={0: 1}),
    nDCG(gains={1: 5, 2: 1})@5, nDCG(gains={0: 2, 3: 10}, judged_only=True)@4,
    Success@1, Success@5, Success(rel=2)@10, Success(judged_only=True)@1,
    *[IPrec@level for level in LEVELS], IPrec(rel=2)@0.5, IPrec(rel=2)@0.0,
    SetP, SetP(rel=2), SetP(relative=True), SetP(judged_only=True), SetP(relative=True, judged_only=True),
    SetR, SetR(rel=2),
    SetF, SetF(beta=0.5), SetF(beta=2), SetF(rel=2), SetF(judged_only=True), SetF(beta=0),
    SetAP, SetAP(rel=2), SetAP(judged_only=True),
    NumQ, NumRel, NumRel(rel=2), NumRet, NumRet(rel=1), NumRet(rel=2),
]
#: Covered separately, because of a documented divergence (see test_divergence_iprec_judged_only_*).
IPREC_JUDGED_ONLY = [IPrec(judged_only=True)@level for level in LEVELS]


# --- the test's own route to pytrec_eval ---------------------------------------------------
_SIMPLE = {'RR': 'recip_rank', 'Rprec': 'Rprec', 'Bpref': 'bpref', 'infAP': 'infAP', 'SetR': 'set_recall',
           'SetAP': 'set_map', 'NumQ': 'num_q', 'NumRel': 'num_rel'}
_CUT = {'P': 'P', 'R': 'recall', 'Success': 'success'}


def trec_name(m):
    """(request, result key) of ``m`` in pytrec_eval."""
    p = m.params
    if m.name in _SIMPLE:
        name = _SIMPLE[m.name]
    elif m.name in _CUT:
        name = f"{_CUT[m.name]}_{p['cutoff']}"
    elif m.name == 'AP':
        name = f"map_cut_{p['cutoff']}" if 'cutoff' in p else 'map'
    elif m.name == 'nDCG':
        name = f"ndcg_cut_{p['cutoff']}" if 'cutoff' in p else 'ndcg'
    elif m.name == 'IPrec':
        name = f"iprec_at_recall_{p['recall']:.2f}"
    elif m.name == 'SetP':
        name = 'set_relative_P' if p.get('relative') else 'set_P'
    elif m.name == 'SetF':
        return f"set_F_{p.get('beta', 1.0)}", 'set_F'
    elif m.name == 'NumRet':
        name = 'num_rel_ret' if 'rel' in p else 'num_ret'
    else:
        raise AssertionError(f'no trec_eval name for {m}')
    return name, name


def with_gains(qrels, gains):
    mapping = dict(gains)
    return {q: {d: (int(mapping.get(g, g)) if g >= 0 else g) for d, g in docs.items()} for q, docs in qrels.items()}


def pytrec_values(measures, qrels, run):
    """{measure: {query: value}} computed by pytrec_eval itself."""
    ranked = canonical(run)
    groups = {}
    for m in measures:
        p = m.params
        gains = p.get('gains')
        use_ext = m.name == 'nDCG' and gains is not None and 'cutoff' not in p
        beta = p.get('beta') if m.name == 'SetF' else None
        key = (p.get('rel', 1), p.get('judged_only', False), gains, use_ext, beta)
        groups.setdefault(key, []).append(m)
    out = {}
    for (rel, judged_only, gains, use_ext, _), ms in groups.items():
        names = {m: trec_name(m) for m in ms}
        if use_ext:        # trec_eval's own custom gains: 'ndcg.1=5,2=1' (the pytrec_eval wrapper mangles them)
            spec = 'ndcg.' + ','.join(f'{g}={int(v)}' for g, v in gains)
            evaluator = pytrec_eval_ext.RelevanceEvaluator(qrels, {spec}, relevance_level=rel,
                                                           judged_docs_only_flag=judged_only)
        else:
            judgments = qrels if gains is None else with_gains(qrels, gains)
            evaluator = pytrec_eval.RelevanceEvaluator(judgments, {req for req, _ in names.values()},
                                                       relevance_level=rel, judged_docs_only_flag=judged_only)
        result = evaluator.evaluate(ranked)
        for m in ms:
            out[m] = {q: values[names[m][1]] for q, values in result.items()}
    return out


def value_without_relevant_retrieved(m, judgments, n_retrieved=0):
    """trec_eval's value for a query with no relevant document retrieved: 0, but the counts.

    It applies to a qrels query missing from the run (trec_eval -c), and to a query whose
    judgments are all negative, which pytrec_eval cannot be given (see module docstring).
    """
    if m.name == 'NumQ':
        return 1.0
    if m.name == 'NumRel':
        return float(sum(g >= m['rel'] for g in judgments.values()))
    if m.name == 'NumRet' and 'rel' not in m.params:
        return float(n_retrieved)
    return 0.0


def native(measures, qrels, run, provider='native'):
    results = irm.calc(measures, qrels, run, provider=provider)
    return results, {(metric.query_id, metric.measure): metric.value for metric in results.iter_metrics()}


def close(a, b):
    return abs(a - b) <= TOL


def assert_matches_pytrec_eval(measures, qrels, run):
    results, values = native(measures, qrels, run)
    assert results.query_ids == list(qrels), 'the evaluated queries are exactly the qrels queries'
    judged = {q for q, docs in qrels.items() if max(docs.values()) >= 0}
    present = [q for q in qrels if q in run and q in judged]
    expected = pytrec_values(measures, {q: qrels[q] for q in judged}, {q: run[q] for q in present})
    for m in measures:
        assert set(expected[m]) == set(present)
        for q in qrels:
            if q in present:
                assert close(values[q, m], expected[m][q]), (m, q, values[q, m], expected[m][q])
            else:
                want = value_without_relevant_retrieved(m, qrels[q], len(run.get(q, ())))
                assert values[q, m] == want, (m, q, values[q, m], want)


def assert_providers_agree(measures, qrels, run):
    mine, mine_values = native(measures, qrels, run)
    theirs, their_values = native(measures, qrels, run, provider='pytrec_eval')
    assert mine.query_ids == theirs.query_ids
    assert set(mine_values) == set(their_values)
    for key, value in mine_values.items():
        assert close(value, their_values[key]), (key, value, their_values[key])
    for m, value in mine.aggregated.items():
        assert close(value, theirs.aggregated[m]), (m, value, theirs.aggregated[m])


# --- generated collections ------------------------------------------------------------------
QUERIES = ['q1', 'q2', '10', '9']
JUDGED_DOCS = [f'd{i}' for i in range(12)] + ['D', 'd01', 'é']
UNJUDGED_DOCS = ['u1', 'u10', 'u2', 'd99']
GRADES = st.sampled_from([-1, 0, 0, 1, 1, 2, 3])
#: Few distinct scores so that ties are frequent; 0.3 and 0.1 + 0.2 tie as floats but not as doubles.
SCORES = st.sampled_from([0.0, 0.3, 0.1 + 0.2, 1.0, 1.0 + 2 ** -30, 2.0, -1.5, 1e300]) \
    | st.floats(-10, 10, allow_nan=False)


@st.composite
def collections(draw):
    """(qrels, run) dicts: graded and -1 judgments, ties, queries missing from the run, run-only queries."""
    qids = draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=4, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(JUDGED_DOCS), GRADES, min_size=1, max_size=10)) for q in qids}
    retrieved = [q for q in qids if draw(st.sampled_from([True, True, True, False]))]     # most qrels queries
    run_qids = retrieved + draw(st.lists(st.sampled_from(['only_in_run', 'q0']), max_size=2, unique=True))
    run = {q: draw(st.dictionaries(st.sampled_from(JUDGED_DOCS + UNJUDGED_DOCS), SCORES, min_size=1, max_size=16))
           for q in run_qids}
    return qrels, run


@st.composite
def deep_collections(draw):
    """Up to 1500 retrieved documents per query, about a tenth of them judged, many score ties."""
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    qrels, run = {}, {}
    for q in ('q1', 'q2', 'q3'):
        n = int(rng.integers(1, 1501))
        docs = [f'd{i}' for i in rng.permutation(n + 300)]
        judged = rng.choice(len(docs), size=min(len(docs), int(rng.integers(1, 200))), replace=False)
        qrels[q] = {docs[i]: int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3])) for i in judged}
        if q != 'q3' or rng.random() < 0.5:            # q3 is sometimes missing from the run
            run[q] = {d: float(np.round(rng.normal(), 1)) for d in docs[:n]}
    run['run_only'] = {'d1': 1.0}
    return qrels, run


@given(collections())
def test_native_matches_pytrec_eval_called_directly(data):
    qrels, run = data
    assert_matches_pytrec_eval(MEASURES, qrels, run)


@given(collections())
def test_native_matches_pytrec_eval_provider(data):
    qrels, run = data
    assert_providers_agree(MEASURES, qrels, run)


@settings(max_examples=8)
@given(deep_collections())
def test_deep_rankings_match_pytrec_eval_called_directly(data):
    qrels, run = data
    assert_matches_pytrec_eval(MEASURES, qrels, run)


@settings(max_examples=8)
@given(deep_collections())
def test_deep_rankings_match_pytrec_eval_provider(data):
    qrels, run = data
    assert_providers_agree(MEASURES, qrels, run)


@pytest.mark.parametrize('qrels_file, run_file', [('qrels.test', 'results.test'), ('qrels.rel_level', 'results.test'),
                                                  ('qrels-302.test', 'results-302.test')])
def test_trec_eval_test_files_match_pytrec_eval_provider(qrels_file, run_file):
    qrels = irm.read_trec_qrels(TESTDATA / qrels_file)
    run = irm.read_trec_run(TESTDATA / run_file)
    assert_providers_agree(MEASURES + IPREC_JUDGED_ONLY, qrels, run)


# --- documented divergences -----------------------------------------------------------------
def test_divergence_float32_scores():
    """pytrec_eval stores scores as C floats, so 0.1 + 0.2 and 0.3 tie there and the docno decides.

    irmetrics compares doubles (trec_eval 10): 'a' (0.30000000000000004) ranks above 'b' (0.3).  The
    pytrec_eval provider agrees with the native engine because it feeds pytrec_eval the canonical order.
    """
    qrels = {'q': {'a': 1, 'b': 0}}
    run = {'q': {'a': 0.1 + 0.2, 'b': 0.3}}
    assert run['q']['a'] > run['q']['b'] and np.float32(run['q']['a']) == np.float32(run['q']['b'])
    raw = pytrec_eval.RelevanceEvaluator(qrels, {'P_1'}).evaluate(run)['q']['P_1']
    assert raw == 0.0                                          # float32 tie, docno descending: 'b' first
    assert irm.calc_aggregate([P@1], qrels, run)[P@1] == 1.0   # doubles: 'a' first
    assert irm.calc_aggregate([P@1], qrels, run, provider='pytrec_eval')[P@1] == 1.0


def test_divergence_iprec_judged_only_query_without_judged_documents():
    """trec_eval 9 divides 0 by 0 where a query's ranking is empty after -J: IPrec at a recall level
    whose cutoff rounds to 0 (level 0, or every level when R = 0) is NaN in pytrec_eval.  irmetrics
    gives 0, the value of an empty ranking everywhere else, and never NaN.
    """
    qrels = {'q': {'a': 1, 'b': 0, 'c': 1}, 'r': {'a': 0}}
    run = {'q': {'u1': 2.0, 'u2': 1.0}, 'r': {'u1': 1.0}}     # only unjudged documents retrieved
    measures = [IPrec(judged_only=True)@0.0, IPrec(judged_only=True)@0.5, IPrec(judged_only=True)@1.0]
    direct = pytrec_values(measures, qrels, run)
    _, values = native(measures, qrels, run)
    _, provided = native(measures, qrels, run, provider='pytrec_eval')
    # q has R = 2: level 0 -> cutoff 0 -> NaN; levels 0.5 and 1 -> cutoffs 1 and 2 > 0 relevant retrieved -> 0
    assert math.isnan(direct[measures[0]]['q'])
    assert direct[measures[1]]['q'] == 0.0 and direct[measures[2]]['q'] == 0.0
    # r has R = 0: every cutoff is 0 -> NaN at every level
    assert all(math.isnan(direct[m]['r']) for m in measures)
    # irmetrics: 0 throughout, and the pytrec_eval provider passes pytrec_eval's NaN through
    assert all(values[q, m] == 0.0 for q in qrels for m in measures)
    assert math.isnan(provided['q', measures[0]]) and all(math.isnan(provided['r', m]) for m in measures)
    assert provided['q', measures[1]] == 0.0


@settings(max_examples=30)
@given(collections())
def test_divergence_iprec_judged_only_is_limited_to_empty_judged_rankings(data):
    """Apart from that 0/0, IPrec(judged_only=True) agrees with pytrec_eval everywhere."""
    qrels, run = data
    _, values = native(IPREC_JUDGED_ONLY, qrels, run)
    judged = {q for q, docs in qrels.items() if max(docs.values()) >= 0}
    expected = pytrec_values(IPREC_JUDGED_ONLY, {q: qrels[q] for q in judged},
                             {q: docs for q, docs in run.items() if q in judged})
    for m in IPREC_JUDGED_ONLY:
        for q in qrels:
            if q not in run or q not in judged:
                assert values[q, m] == 0.0
                continue
            judged_retrieved = sum(qrels[q].get(d, -1) >= 0 for d in run[q])
            num_rel = sum(g >= 1 for g in qrels[q].values())
            cutoff = int(m['recall'] * num_rel + 0.9)
            if judged_retrieved == 0 and cutoff == 0:
                assert math.isnan(expected[m][q]) and values[q, m] == 0.0
            else:
                assert close(values[q, m], expected[m][q]), (m, q, values[q, m], expected[m][q])
