"""gdeval's nDCG@k and ERR@k (nDCG(dcg='exp-log2')@k, ERR@k), and nERR, against gdeval.pl itself.

gdeval.pl (run by ir_measures' gdeval provider, perl) prints 5 decimals, so values agree to 5e-6.  It
leaves out the queries without a relevant document, which irmetrics scores 0 (asserted below).  It is
given the canonical ranking as rank-derived scores, though it breaks ties by docno descending as
irmetrics does (test_gdeval_breaks_ties_like_irmetrics).
"""
import math
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import canonical, collections, per_query, raw_reference_values
from reference_tools import reference

import irmetrics as irm
from irmetrics import ERR, nDCG, nERR

ir_measures = reference('ir_measures')
pytestmark = pytest.mark.skipif(shutil.which('perl') is None, reason='gdeval.pl needs perl')
GDEVAL_TOL = 6e-6


def gdeval(measure, qrels, run):
    return raw_reference_values(ir_measures.gdeval, measure, qrels, run)


@settings(max_examples=25)
@given(collections(), st.integers(1, 12))
def test_agrees_with_gdeval(data, k):
    qrels, run = data
    ours = irm.calc([nDCG(dcg='exp-log2') @ k, ERR @ k], qrels, run)
    for mine, theirs in ((nDCG(dcg='exp-log2') @ k, ir_measures.nDCG(dcg='exp-log2') @ k),
                         (ERR @ k, ir_measures.ERR @ k)):
        expected = gdeval(theirs, qrels, canonical(run))
        got = per_query(ours, mine)
        for q, value in got.items():
            has_relevant = any(g > 0 for g in qrels[q].values())
            if q in run and has_relevant:
                assert value == pytest.approx(expected[q], abs=GDEVAL_TOL), (mine, q)
            else:                           # gdeval leaves the query out; irmetrics scores it 0
                assert q not in expected and value == 0.0


def test_gdeval_breaks_ties_like_irmetrics():
    qrels = {'1': {'a': 0, 'b': 4, 'c': 2}}
    run = {'1': {'a': 1.0, 'b': 1.0, 'c': 1.0, 'd': 2.0}}          # ties: c, b, a (docno descending)
    raw = gdeval(ir_measures.ERR @ 3, qrels, run)['1']
    assert raw == pytest.approx(irm.calc_aggregate([ERR @ 3], qrels, run)[ERR @ 3], abs=GDEVAL_TOL)


def test_err_by_hand():
    # ranking: grade 2, unjudged, grade 0, grade 4 (max_rel 4: R = 3/16, 0, 0, 15/16)
    qrels = {'q': {'a': 2, 'c': 0, 'd': 4}}
    run = {'q': {'a': 4, 'b': 3, 'c': 2, 'd': 1}}
    expected = 3 / 16 + (13 / 16) * (15 / 16) / 4
    got = irm.calc_aggregate([ERR, ERR @ 3, ERR(max_rel=2)], qrels, run)
    assert got[ERR] == pytest.approx(expected, rel=1e-15)
    assert got[ERR @ 3] == pytest.approx(3 / 16, rel=1e-15)
    # max_rel=2: R(2) = 3/4, grade 4 counts as 2
    assert got[ERR(max_rel=2)] == pytest.approx(3 / 4 + (1 / 4) * (3 / 4) / 4, rel=1e-15)


def test_nerr_by_hand():
    # ideal ranking: grades 4, 2, 1 -> R = 15/16, 3/16, 1/16
    qrels = {'q': {'a': 1, 'b': 4, 'c': 2, 'n': 0}}
    run = {'q': {'n': 5, 'a': 4, 'c': 3}}                              # 0, 1, 2; b unretrieved
    err = (1 / 16) / 2 + (15 / 16) * (3 / 16) / 3
    ideal = 15 / 16 + (1 / 16) * (3 / 16) / 2 + (1 / 16) * (13 / 16) * (1 / 16) / 3
    ideal_at_2 = 15 / 16 + (1 / 16) * (3 / 16) / 2
    got = irm.calc_aggregate([nERR, nERR @ 2, ERR @ 2], qrels, run)
    assert got[nERR] == pytest.approx(err / ideal, rel=1e-14)
    assert got[nERR @ 2] == pytest.approx(((1 / 16) / 2) / ideal_at_2, rel=1e-14)
    assert got[ERR @ 2] == pytest.approx((1 / 16) / 2, rel=1e-14)


@settings(max_examples=40)
@given(collections(), st.integers(1, 12))
def test_nerr_bounds_and_ideal_run(data, k):
    qrels, run = data
    got = per_query(irm.calc([nERR @ k], qrels, run), nERR @ k)
    assert all(0.0 <= v <= 1.0 + 1e-12 for v in got.values())
    ideal_run = {q: {d: float(g) for d, g in docs.items() if g > 0} for q, docs in qrels.items()}
    ideal_run = {q: docs for q, docs in ideal_run.items() if docs}
    perfect = per_query(irm.calc([nERR @ k], qrels, ideal_run), nERR @ k)
    assert all(math.isclose(v, 1.0) for q, v in perfect.items() if q in ideal_run)


def test_grades_above_max_rel_are_clipped():
    qrels = {'q': {'a': 7}}
    clipped = {'q': {'a': 4}}
    run = {'q': {'a': 1.0}}
    assert irm.calc_aggregate([ERR], qrels, run) == irm.calc_aggregate([ERR], clipped, run)
    assert irm.calc_aggregate([ERR], qrels, run)[ERR] == 15 / 16


def test_exp_gains_and_custom_gains():
    qrels = {'q': {'a': 1, 'b': 3}}
    run = {'q': {'a': 2.0, 'b': 1.0}}
    dcg = 1 + 7 / math.log2(3)
    ideal = 7 + 1 / math.log2(3)
    got = irm.calc_aggregate([nDCG(dcg='exp-log2'), irm.DCG(dcg='exp-log2'),
                              nDCG(dcg='exp-log2', gains={3: 1, 1: 2})], qrels, run)
    assert got[irm.DCG(dcg='exp-log2')] == pytest.approx(dcg, abs=1e-12)
    assert got[nDCG(dcg='exp-log2')] == pytest.approx(dcg / ideal, abs=1e-12)
    assert got[nDCG(dcg='exp-log2', gains={3: 1, 1: 2})] == pytest.approx(1.0, abs=1e-12)   # mapped gains 2 > 1


def test_bad_parameters_fail_at_construction():
    for bad in (lambda: ERR(max_rel=0), lambda: nDCG(dcg='exp'), lambda: ERR @ 0,
                lambda: irm.parse_measure('nERR(max_rel=1.5)')):
        with pytest.raises(irm.MeasureError):
            bad()
