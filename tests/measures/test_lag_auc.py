"""LAG, AUC and roc_curve: hand-computed cases from the definitions, an independent pairwise count
(scipy's Mann-Whitney U for AUC), and the identities that tie them together."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rankdata import collections, per_query, ranked
from reference_tools import reference

import irmetrics as irm
from irmetrics import AUC, LAG

scipy_stats = reference('scipy.stats')

# q1: ranking a(2) b(0) u(unjudged) c(1); e(1) relevant and d(0) non-relevant are not retrieved.
# q2: absent from the run.  q3: no relevant document (LAG and AUC undefined, left out).
QRELS = {'q1': {'a': 2, 'b': 0, 'c': 1, 'd': 0, 'e': 1}, 'q2': {'x': 1, 'y': 0}, 'q3': {'z': 0}}
RUN = {'q1': {'a': 5, 'b': 4, 'u': 3, 'c': 2}, 'q3': {'z': 1.0}}


def test_lag_by_hand():
    res = irm.calc([LAG, LAG(judged_only=True), LAG @ 2, LAG(rel=2)], QRELS, RUN)
    # a: 0; c: b, u above -> 2; e unretrieved: b, u (retrieved non-relevant) + d / 2
    assert per_query(res, LAG) == {'q1': pytest.approx((0 + 2 + 2.5) / 3, abs=1e-12), 'q2': 0.5}
    # judged only: ranking a b c -> a 0, c 1, e 1 + 1/2
    assert per_query(res, LAG(judged_only=True))['q1'] == pytest.approx((0 + 1 + 1.5) / 3, abs=1e-12)
    # top 2 (a b): c and e are outside: 1 non-relevant inside + d / 2
    assert per_query(res, LAG @ 2)['q1'] == pytest.approx((0 + 1.5 + 1.5) / 3, abs=1e-12)
    # rel=2: only a is relevant, at rank 1
    assert per_query(res, LAG(rel=2)) == {'q1': 0.0}        # q2 has no grade-2 document: undefined
    assert res.aggregated[LAG] == pytest.approx(((0 + 2 + 2.5) / 3 + 0.5) / 2, abs=1e-12)


def test_auc_by_hand():
    res = irm.calc([AUC, AUC @ 1, AUC(rel=2)], QRELS, RUN)
    # judged order a, b, c, then {d, e} tied: pairs (a,b) (a,d) (c,d) right, (c,b) (e,b) wrong, (e,d) half
    assert per_query(res, AUC) == {'q1': pytest.approx(3.5 / 6, abs=1e-12), 'q2': 0.5}
    # top 1 is a: then b, c, d, e tied: a beats b, d; c, e tie with b, d
    assert per_query(res, AUC @ 1)['q1'] == pytest.approx((2 + 4 * 0.5) / 6, abs=1e-12)
    # rel=2: a against b, c, d, z... only q1 has a grade-2 document; q2 has none (undefined)
    assert per_query(res, AUC(rel=2)) == {'q1': 1.0}


def brute_force_lag(qrels, docs, rel, k, judged_only):
    order = [d for d in ranked(docs) if not judged_only or qrels.get(d, -1) >= 0][:k]
    relevant = [d for d, g in qrels.items() if g >= rel]
    if not relevant:
        return None
    lags, nonrel_seen = {}, 0
    for d in order:
        if qrels.get(d, -1) >= rel:
            lags[d] = nonrel_seen
        else:
            nonrel_seen += 1
    outside = sum(1 for d, g in qrels.items() if 0 <= g < rel and d not in order)
    return sum(lags.get(d, nonrel_seen + outside / 2) for d in relevant) / len(relevant)


@settings(max_examples=60)
@given(collections(), st.sampled_from([1, 2]), st.sampled_from([None, 1, 3, 6]), st.booleans())
def test_lag_matches_its_definition(data, rel, k, judged_only):
    qrels, run = data
    m = LAG(rel=rel, judged_only=judged_only)
    m = m if k is None else m @ k
    got = per_query(irm.calc([m], qrels, run), m)
    for q, judgments in qrels.items():
        expected = brute_force_lag(judgments, run.get(q, {}), rel, k or 10 ** 9, judged_only)
        if expected is None:
            assert q not in got
        else:
            assert got[q] == pytest.approx(expected, abs=1e-12)


def reference_auc(judgments, docs, rel, k):
    """Mann-Whitney U / (R N) over judged documents scored by rank; the unretrieved ones tied last."""
    top = ranked(docs)[:k]
    score = {d: -i for i, d in enumerate(top)}
    pos = [score.get(d, -math.inf) for d, g in judgments.items() if g >= rel]
    neg = [score.get(d, -math.inf) for d, g in judgments.items() if 0 <= g < rel]
    if not pos or not neg:
        return None
    pos = np.nan_to_num(pos, neginf=-1e9)
    neg = np.nan_to_num(neg, neginf=-1e9)
    return scipy_stats.mannwhitneyu(pos, neg).statistic / (len(pos) * len(neg))


@settings(max_examples=60)
@given(collections(), st.sampled_from([1, 2, 3]), st.sampled_from([None, 1, 4]))
def test_auc_is_the_mann_whitney_statistic(data, rel, k):
    qrels, run = data
    m = AUC(rel=rel) if k is None else AUC(rel=rel) @ k
    got = per_query(irm.calc([m], qrels, run), m)
    for q, judgments in qrels.items():
        expected = reference_auc(judgments, run.get(q, {}), rel, k or 10 ** 9)
        if expected is None:
            assert q not in got
        else:
            assert got[q] == pytest.approx(expected, abs=1e-12)


@settings(max_examples=60)
@given(collections(), st.sampled_from([1, 2]), st.sampled_from([None, 2, 5]))
def test_auc_lag_identity_and_roc_area(data, rel, k):
    qrels, run = data
    auc, lag = AUC(rel=rel), LAG(rel=rel, judged_only=True)
    if k is not None:
        auc, lag = auc @ k, lag @ k
    res = irm.calc([auc, lag], qrels, run)
    curves = irm.roc_curve(qrels, run, rel=rel, cutoff=k)
    got_auc, got_lag = per_query(res, auc), per_query(res, lag)
    assert set(curves) == set(got_auc)
    for q, value in got_auc.items():
        nonrel = sum(1 for g in qrels[q].values() if 0 <= g < rel)
        if k is None:           # with a cutoff, AUC cuts the full ranking, LAG(judged_only) the judged one
            assert value == pytest.approx(1 - got_lag[q] / nonrel, abs=1e-12)
        fpr, tpr = curves[q]
        assert (fpr[0], tpr[0], fpr[-1], tpr[-1]) == (0, 0, 1, 1)
        assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)
        assert np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2) == pytest.approx(value, abs=1e-12)


def test_roc_curve_points():
    fpr, tpr = irm.roc_curve(QRELS, RUN)['q1']
    # a (up), b (right), c (up), then the tail {d, e} as one diagonal segment
    assert fpr.tolist() == [0, 0, 0.5, 0.5, 1]
    assert tpr.tolist() == pytest.approx([0, 1 / 3, 1 / 3, 2 / 3, 1], abs=1e-12)
    assert set(irm.roc_curve(QRELS, RUN)) == {'q1', 'q2'}


def test_definitions_say_the_direction():
    assert LAG.definition.higher_is_better is False and LAG.definition.bounds is None
    assert AUC.definition.bounds == (0.0, 1.0)
    with pytest.raises(irm.MeasureError):
        irm.parse_measure('LAG(rel=-1)')
