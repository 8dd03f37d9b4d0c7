"""RBP (binary, raw graded, scaled graded) and RBPResidual against cwl_eval, trectools and trec_eval 10.

References: binary RBP(rel=r) is cwl_eval's (through ir_measures; cwl_eval normalises its weights over
1000 ranks, so p stays <= 0.9, where p^1000 < 1e-45); graded RBP without rel is trectools' (raw
grades, through ir_measures, fed globally distinct scores: trectools averages the weights of equal
scores even across queries); RBP(max_rel=m) and RBPResidual are trec_eval 10's rbp and rbp_resid
(golden outputs of the conformance case 'graded', 4 decimals).  The residual is also checked by its
meaning: judging every unjudged retrieved document relevant raises binary RBP by residual - p^d.
"""
import math
import os
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import canonical, collections, per_query, reference_values
from reference_tools import reference
from repo_paths import FIXTURES

import irmetrics as irm
from irmetrics import RBP, RBPResidual

ir_measures = reference('ir_measures')
pytestmark = pytest.mark.filterwarnings('ignore:The inplace keyword')     # inside trectools, under pandas 3
TOL = 1e-9
GRADED = os.path.join(FIXTURES, 'conformance', 'graded')


@settings(max_examples=30)
@given(collections(), st.sampled_from([1, 2, 3]), st.sampled_from([0.5, 0.8, 0.9]))
def test_binary_rbp_agrees_with_cwl_eval(data, rel, p):
    qrels, run = data
    got = per_query(irm.calc([RBP(rel=rel, p=p)], qrels, run), RBP(rel=rel, p=p))
    expected = reference_values(ir_measures.cwl_eval, ir_measures.RBP(rel=rel, p=p), qrels, canonical(run))
    for q, value in got.items():
        assert value == pytest.approx(expected[q], abs=TOL), q


@settings(max_examples=30)
@given(collections(), st.sampled_from([0.5, 0.8, 0.95]), st.sampled_from([None, 1, 3, 10]))
def test_graded_rbp_agrees_with_trectools(data, p, k):
    qrels, run = data
    mine = RBP(p=p) if k is None else RBP(p=p) @ k
    theirs = ir_measures.RBP(p=p) if k is None else ir_measures.RBP(p=p) @ k
    got = per_query(irm.calc([mine], qrels, run), mine)
    expected = reference_values(ir_measures.trectools, theirs, qrels, canonical(run, globally=True))
    for q, value in got.items():
        reference = expected.get(q, 0.0)
        assert (0.0 if math.isnan(reference) else reference) == pytest.approx(value, abs=TOL), q


def test_graded_rbp_by_hand():
    qrels = {'q': {'a': 3, 'b': -1, 'c': 1, 'd': 6}}
    run = {'q': {'a': 4, 'b': 3, 'x': 2, 'c': 1, 'd': 0}}
    w = [0.2 * 0.8 ** i for i in range(5)]
    got = irm.calc_aggregate([RBP, RBP(max_rel=4), RBP(rel=2), RBP @ 3, RBPResidual, RBPResidual @ 2],
                             qrels, run)
    assert got[RBP] == pytest.approx(3 * w[0] + 1 * w[3] + 6 * w[4], abs=1e-12)
    assert got[RBP(max_rel=4)] == pytest.approx(0.75 * w[0] + 0.25 * w[3] + 1.0 * w[4], abs=1e-12)
    assert got[RBP(rel=2)] == pytest.approx(w[0] + w[4], abs=1e-12)
    assert got[RBP @ 3] == pytest.approx(3 * w[0], abs=1e-12)
    # unjudged: b (negative grade) and x; tail beyond rank 5 (or 2)
    assert got[RBPResidual] == pytest.approx(w[1] + w[2] + 0.8 ** 5, abs=1e-12)
    assert got[RBPResidual @ 2] == pytest.approx(w[1] + 0.8 ** 2, abs=1e-12)


def test_missing_query_residual_is_one():
    qrels = {'q': {'a': 1}, 'r': {'b': 1}}
    run = {'q': {'a': 1.0}}
    got = irm.calc([RBP, RBPResidual], qrels, run)
    assert per_query(got, RBPResidual) == {'q': pytest.approx(0.8, abs=1e-12), 'r': 1.0}
    assert per_query(got, RBP) == {'q': pytest.approx(0.2, abs=1e-12), 'r': 0.0}


@settings(max_examples=40)
@given(collections(grades=(-1, 0, 1)), st.sampled_from([0.5, 0.8]), st.sampled_from([None, 2, 5]))
def test_residual_is_the_gain_unjudged_documents_could_add(data, p, k):
    qrels, run = data
    at = (lambda m: m) if k is None else (lambda m: m @ k)
    rbp, resid = at(RBP(rel=1, p=p)), at(RBPResidual(p=p))
    completed = {q: dict(docs) for q, docs in qrels.items()}
    for q in run:
        if q in completed:
            for d in canonical(run)[q] if k is None else list(canonical(run)[q])[:k]:
                if completed[q].get(d, -1) < 0:
                    completed[q][d] = 1
    before = irm.calc([rbp, resid], qrels, run)
    after = per_query(irm.calc([rbp], completed, run), rbp)
    for q, value in per_query(before, rbp).items():
        depth = min(len(run.get(q, {})), k or math.inf)
        assert after[q] == pytest.approx(value + per_query(before, resid)[q] - p ** depth, abs=1e-12)


def _trec_eval_out(path):
    values = {}
    for line in pathlib.Path(path).read_text().splitlines():
        name, qid, value = line.split()
        if name in ('rbp', 'rbp_resid'):
            values[(name, qid)] = float(value)
    return values


@pytest.mark.skipif(not os.path.isdir(GRADED), reason='conformance case "graded" not found')
@pytest.mark.parametrize('run_name', ['run_a', 'run_b'])
def test_trec_eval_10_rbp_and_residual(run_name):
    qrels = irm.read_trec_qrels(os.path.join(GRADED, 'qrels'))
    out = _trec_eval_out(os.path.join(GRADED, f'trec_eval.{run_name}.out'))
    res = irm.calc([RBP(p=0.9, max_rel=4), RBPResidual(p=0.9)], qrels, os.path.join(GRADED, run_name))
    highest = {}
    for qrel in qrels:
        highest[qrel.query_id] = max(highest.get(qrel.query_id, 0), qrel.relevance)
    for m in res.iter_metrics():
        assert highest[m.query_id] == 4                  # trec_eval rescales each query by its own top grade
        name = 'rbp' if m.measure.name == 'RBP' else 'rbp_resid'
        assert m.value == pytest.approx(out[(name, m.query_id)], abs=5e-5), (name, m.query_id)


def test_parameters_fail_at_construction():
    for bad in ('RBP(p=0)', 'RBP(p=1)', 'RBP(p=1.5)', 'RBP(rel=-1)', 'RBP(max_rel=0)', 'RBP(rel=1,max_rel=4)',
                'RBPResidual(p=0)', 'RBP@0'):
        with pytest.raises(irm.MeasureError):
            irm.parse_measure(bad)
    with pytest.raises(irm.MeasureError):
        RBP(rel=2)(max_rel=3)
    assert irm.parse_measure('RBP(p=0.8)') == RBP and repr(RBP(rel=2, p=0.9) @ 10) == 'RBP(p=0.9,rel=2)@10'


def test_trec_eval_resid_quirk_is_not_followed():
    # no unjudged document: trec_eval 10 reports rbp_resid 0; the tail beyond the ranking is still unknown
    got = irm.calc_aggregate([RBPResidual(p=0.9)], {'q': {'a': 1, 'b': 0}}, {'q': {'a': 2.0, 'b': 1.0}})
    assert got[RBPResidual(p=0.9)] == pytest.approx(0.9 ** 2, abs=1e-12)
    assert np.isfinite(got[RBPResidual(p=0.9)])


def m_rbp_c(gains, p):
    """m_rbp.c's loop, step for step in doubles: sum += gain * cur_p; cur_p = cur_p * p; then (1 - p) * sum."""
    total, cur_p = 0.0, 1.0
    for gain in gains:
        if gain != 0:
            total += gain * cur_p
        cur_p = cur_p * p
    return (1.0 - p) * total


@pytest.mark.parametrize('seed', range(5))
def test_rbp_is_computed_in_the_order_of_m_rbp_c_to_the_last_bit(seed):
    """A power computed directly ((1 - p) * p**i per term) differs from the running product in the last
    bit often enough to print differently at a 4-decimal midpoint (0.04725)."""
    rng = np.random.default_rng(seed)
    run, qrels, expected = {}, {}, {}
    for q in range(60):
        depth = int(rng.integers(1, 120))
        relevant = rng.random(depth) < 0.3
        run[f'q{q}'] = {f'd{i}': float(depth - i) for i in range(depth)}
        qrels[f'q{q}'] = {f'd{i}': int(r) for i, r in enumerate(relevant)}
        expected[f'q{q}'] = relevant.astype(float)
    for p in (0.5, 0.8, 0.9, 0.95, 0.99):
        results = irm.calc([RBP(rel=1, p=p)], qrels, run)
        got = dict(zip(results.query_ids, results.values[:, 0].tolist(), strict=True))
        assert got == {q: m_rbp_c(g, p) for q, g in expected.items()}


def m_rbp_resid_c(unjudged, p):
    """m_rbp_resid.c's loop, step for step in doubles: over the ranks, sum += cur_p where the document is
    unjudged, cur_p = cur_p * p; then cur_p + (1 - p) * sum (printed only where some document is unjudged)."""
    total, cur_p = 0.0, 1.0
    for flag in unjudged:
        if flag:
            total += cur_p
        cur_p = cur_p * p
    return cur_p + (1 - p) * total


@pytest.mark.parametrize('seed', range(4))
def test_residual_is_computed_in_the_order_of_m_rbp_resid_c_to_the_last_bit(seed):
    """The residual as p^d plus the unjudged ranks' weights, not 1 minus the judged ranks' (equal in exact
    arithmetic, not always in doubles): 4-query means printed at a midpoint differ otherwise
    (tests/cli/test_trec_eval_digits.py)."""
    rng = np.random.default_rng(seed)
    run, qrels, unjudged = {}, {}, {}
    for q in range(60):
        depth = int(rng.integers(1, 60))
        kind = rng.choice([-1, 0, 1, 2], size=depth, p=[0.1, 0.3, 0.3, 0.3])   # -1: not in the qrels
        run[f'q{q}'] = {f'd{i}': float(depth - i) for i in range(depth)}
        qrels[f'q{q}'] = {f'd{i}': int(g) - 1 for i, g in enumerate(kind) if g >= 0} | {'judged': 1}
        unjudged[f'q{q}'] = kind <= 0                                       # absent, or a negative grade
    for p in (0.5, 0.8, 0.9, 0.95, 0.99):
        for k in (None, 5):
            always, if_unjudged = (RBPResidual(p=p, tail=t) if k is None else RBPResidual(p=p, tail=t) @ k
                                   for t in ('always', 'if_unjudged'))
            results = irm.calc([always, if_unjudged], qrels, run)
            cut = {q: u[:k] for q, u in unjudged.items()}
            assert per_query(results, always) == {q: m_rbp_resid_c(u, p) for q, u in cut.items()}
            assert per_query(results, if_unjudged) == {q: m_rbp_resid_c(u, p) if u.any() else 0.0
                                                       for q, u in cut.items()}


def test_residual_of_four_queries_at_a_midpoint():
    """Means 0, 0, 0.9^3 + 0.1 and 0.9 + 0.1 (trec_eval's rbp_resid on the four queries of
    tests/cli/test_trec_eval_digits.py): the per-query doubles are m_rbp_resid.c's, and their sum over 4
    is 0.45725000000000005, above the midpoint 0.45725 (printed 0.4573, as trec_eval prints it)."""
    qrels = {'q1': {'a': 1}, 'q2': {'a': 1}, 'q3': {'b': 1, 'c': 0}, 'q4': {'d': 1}}
    run = {'q1': {'a': 1.0}, 'q2': {'a': 1.0}, 'q3': {'x': 3.0, 'b': 2.0, 'c': 1.0}, 'q4': {'y': 1.0}}
    resid = RBPResidual(p=0.9, tail='if_unjudged')
    values = per_query(irm.calc([resid], qrels, run), resid)
    assert values == {'q1': 0.0, 'q2': 0.0, 'q3': 0.9 * 0.9 * 0.9 + (1 - 0.9) * 1.0, 'q4': 0.9 + (1 - 0.9) * 1.0}
    assert (values['q1'] + values['q2'] + values['q3'] + values['q4']) / 4 == 0.45725000000000005
