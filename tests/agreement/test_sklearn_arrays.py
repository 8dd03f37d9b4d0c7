"""Score matrices (irmetrics/data/arrays.py) against scikit-learn's ndcg_score and
average_precision_score, where their conventions coincide: scores without ties (scikit-learn averages
over tied orders, irmetrics breaks ties by trec_eval's rule), users with a relevant item (irmetrics
evaluates the users of the judgments), every item of the catalogue scored (scikit-learn ranks them all)."""
import numpy as np
import pytest
from sklearn.metrics import average_precision_score, ndcg_score

import irmetrics as irm


@pytest.fixture(params=range(3))
def data(request):
    rng = np.random.default_rng(request.param)
    grades = rng.choice([0, 0, 0, 0, 1, 2, 3], size=(40, 30))
    scores = rng.permutation(40 * 30).reshape(40, 30) / 7.0            # no ties
    return grades, scores


def per_user(results, measure):
    return {int(m.query_id): m.value for m in results.iter_metrics() if m.measure == measure}


@pytest.mark.parametrize('k', [3, 10, None])
def test_ndcg_agrees_with_scikit_learn(data, k):
    grades, scores = data
    measure = irm.nDCG if k is None else irm.nDCG @ k
    got = per_user(irm.calc([measure], grades, scores), measure)
    users = np.flatnonzero(grades.max(axis=1) > 0)
    assert set(got) == set(users.tolist())
    for u in users:
        assert got[u] == pytest.approx(ndcg_score(grades[u:u + 1], scores[u:u + 1], k=k), abs=1e-12)


def test_ap_agrees_with_scikit_learn(data):
    grades, scores = data
    got = per_user(irm.calc([irm.AP], grades, scores), irm.AP)
    for u in np.flatnonzero(grades.max(axis=1) > 0):
        assert got[u] == pytest.approx(average_precision_score(grades[u] >= 1, scores[u]), abs=1e-12)
