"""Top-k arrays against RecBole's metric functions (recbole.evaluator.metrics), where their conventions
coincide: binary relevance, every user with a relevant item, item popularity without ties (RecBole
breaks ties of its long tail by item id ascending, irmetrics by id descending as text), every
recommended item with a popularity (RecBole counts an item without one outside the tail, irmetrics
inside it).

The documented difference: RecBole's MAP@k divides by min(relevant items, k), trec_eval's AP@k by all
relevant items; they agree for users with at most k relevant items.

RecBole 1.2.1 still writes ``np.float`` (removed in numpy 1.24) in NDCG, MAP and MRR: the tests give
numpy that alias back while they call RecBole.
"""
import numpy as np
import pytest
from recbole.evaluator import metrics as rb

import irmetrics as irm

K = 10
CONFIG = {'topk': [K], 'metric_decimal_place': 15, 'tail_ratio': 0.8}


@pytest.fixture(autouse=True)
def numpy_float_alias(monkeypatch):
    monkeypatch.setattr(np, 'float', float, raising=False)


@pytest.fixture(params=range(3))
def case(request):
    rng = np.random.default_rng(request.param)
    users, catalogue = 80, 40
    top = np.stack([rng.permutation(catalogue)[:K] for _ in range(users)])
    grades = (rng.random((users, catalogue)) < 0.15).astype(int)
    grades[np.arange(users), rng.integers(0, catalogue, users)] = 1          # every user has a relevant item
    popularity = rng.permutation(catalogue) + 1                               # no ties
    return top, grades, popularity


def per_user(name, top, grades, items=None):
    results = irm.calc([name], grades, top, items=items)
    return np.array([results.values[results.query_ids.index(str(u)), 0] for u in range(len(top))])


@pytest.mark.parametrize('ours, theirs', [('nDCG@10', rb.NDCG), ('R@10', rb.Recall), ('RR@10', rb.MRR),
                                          ('P@10', rb.Precision)])
def test_accuracy_agrees_with_recbole(case, ours, theirs):
    top, grades, _ = case
    hits = np.take_along_axis(grades, top, axis=1).astype(bool)
    expected = theirs(CONFIG).metric_info(*((hits, grades.sum(axis=1)) if theirs in (rb.NDCG, rb.Recall) else (hits,)))
    np.testing.assert_allclose(per_user(ours, top, grades), expected[:, K - 1], rtol=0, atol=1e-12)


def test_map_agrees_where_a_user_has_at_most_k_relevant_items(case):
    top, grades, _ = case
    hits = np.take_along_axis(grades, top, axis=1).astype(bool)
    relevant = grades.sum(axis=1)
    theirs = rb.MAP(CONFIG).metric_info(hits, relevant)[:, K - 1]
    ours = per_user('AP@10', top, grades)
    np.testing.assert_allclose(ours, theirs * np.minimum(relevant, K) / relevant, rtol=0, atol=1e-12)
    assert (relevant > K).any() == (not np.allclose(ours, theirs))


def test_popularity_coverage_and_gini_agree_with_recbole(case):
    top, grades, popularity = case
    counts = dict(enumerate(popularity.tolist()))
    items = irm.Items(popularity, users=100)
    arp = rb.AveragePopularity(CONFIG)
    np.testing.assert_allclose(per_user('ARP@10', top, grades, items), arp.get_pop(top, counts).mean(axis=1),
                               rtol=0, atol=1e-12)
    tail = rb.TailPercentage(CONFIG)
    np.testing.assert_allclose(per_user('TailShare(head=0.2)@10', top, grades, items),
                               tail.get_tail(top, counts).mean(axis=1), rtol=0, atol=1e-12)
    catalogue = len(popularity)
    run_values = irm.calc([f'Gini(catalogue={catalogue})@10', f'Coverage(catalogue={catalogue})@10'], grades,
                          top).run_values
    assert dict(run_values)[irm.parse_measure(f'Gini(catalogue={catalogue})@10')] == \
        pytest.approx(rb.GiniIndex(CONFIG).get_gini(top, catalogue), abs=1e-12)
    assert dict(run_values)[irm.parse_measure(f'Coverage(catalogue={catalogue})@10')] == \
        pytest.approx(rb.ItemCoverage(CONFIG).get_coverage(top, catalogue), abs=1e-12)
