"""torch tensors in, against torchmetrics' retrieval metrics on the same tensors, where their conventions
coincide: scores without ties (torchmetrics orders tied scores as torch.topk happens to), every item of
the catalogue scored, and only the users with a relevant item (``empty_target_action='skip'``: irmetrics
evaluates the users of the judgments, and in a dense grade matrix a judged item is a relevant one).

The documented differences: torchmetrics' ``RetrievalMAP(top_k=k)`` divides by the relevant items found
in the top k, trec_eval's AP@k (``map_cut``) by all relevant items (without a cutoff they agree); and
its AP counts an item scored 0 or below as not relevant, so the scores here are positive.
"""
import numpy as np
import pytest
import torch
from torchmetrics import retrieval as tm

import irmetrics as irm


@pytest.fixture(params=range(3))
def data(request):
    rng = np.random.default_rng(request.param)
    grades = rng.choice([0, 0, 0, 0, 1, 2, 3], size=(60, 45))
    scores = (rng.permutation(60 * 45).reshape(60, 45) + 1) / 11.0      # no ties, all positive
    return torch.from_numpy(grades), torch.from_numpy(scores)


def torchmetrics_mean(metric, grades, scores) -> float:
    users = torch.arange(grades.shape[0]).repeat_interleave(grades.shape[1])
    return float(metric(scores.flatten(), grades.flatten(), indexes=users))


CASES = [
    ('nDCG@10', lambda: tm.RetrievalNormalizedDCG(top_k=10, empty_target_action='skip'), False),
    ('nDCG', lambda: tm.RetrievalNormalizedDCG(empty_target_action='skip'), False),
    ('P@5', lambda: tm.RetrievalPrecision(top_k=5, empty_target_action='skip'), True),
    ('R@20', lambda: tm.RetrievalRecall(top_k=20, empty_target_action='skip'), True),
    ('RR@10', lambda: tm.RetrievalMRR(top_k=10, empty_target_action='skip'), True),
    ('RR', lambda: tm.RetrievalMRR(empty_target_action='skip'), True),
    ('AP', lambda: tm.RetrievalMAP(empty_target_action='skip'), True),
    ('Success@3', lambda: tm.RetrievalHitRate(top_k=3, empty_target_action='skip'), True),
    ('HitRate@3', lambda: tm.RetrievalHitRate(top_k=3, empty_target_action='skip'), True),     # recommenders' names
    ('HR@10', lambda: tm.RetrievalHitRate(top_k=10, empty_target_action='skip'), True),
    ('MRR', lambda: tm.RetrievalMRR(empty_target_action='skip'), True),
    ('MAP', lambda: tm.RetrievalMAP(empty_target_action='skip'), True),
    ('Rprec', lambda: tm.RetrievalRPrecision(empty_target_action='skip'), True),
]


@pytest.mark.parametrize('name, metric, binary', CASES, ids=[c[0] for c in CASES])
def test_tensors_agree_with_torchmetrics(data, name, metric, binary):
    grades, scores = data
    expected = torchmetrics_mean(metric(), grades > 0 if binary else grades, scores)
    assert irm.calc_aggregate([name], grades, scores)[irm.parse_measure(name)] == pytest.approx(expected, abs=1e-6)


def test_map_at_k_differs_as_documented(data):
    grades, scores = data
    ours = irm.calc([irm.AP @ 5], grades, scores)
    theirs = torchmetrics_mean(tm.RetrievalMAP(top_k=5, empty_target_action='skip'), grades > 0, scores)
    assert ours.aggregated[irm.AP @ 5] < theirs                          # fewer in the denominator: larger
    users = [int(q) for q in ours.query_ids]
    ranked = torch.argsort(scores, dim=1, descending=True)[:, :5]
    in_top = torch.gather(grades > 0, 1, ranked).sum(dim=1).double()
    total = (grades > 0).sum(dim=1).double()
    found = np.array([ours.values[i][0] * total[u] / in_top[u] if in_top[u] else 0.0 for i, u in enumerate(users)])
    assert found.mean() == pytest.approx(theirs, abs=1e-6)              # rescaled to their denominator


def test_a_tensor_in_a_training_loop_is_read_as_it_is():
    """A tensor that requires gradients is read detached, int32 and float32 tensors as they are: the
    numbers of the same numpy arrays."""
    rng = np.random.default_rng(5)
    grades = rng.choice([0, 0, 1, 2], size=(20, 30)).astype(np.int32)
    scores = rng.random((20, 30)).astype(np.float32)
    weights = torch.from_numpy(scores).clone().requires_grad_(True)
    model_scores = weights * 1.0                                        # part of a graph
    measures = ['nDCG@10', 'R@5', 'AP']
    assert irm.calc_aggregate(measures, torch.from_numpy(grades), model_scores) == \
        irm.calc_aggregate(measures, grades, scores)
    top = torch.topk(model_scores, 10, dim=1).indices
    assert irm.calc_aggregate(['nDCG@10'], torch.from_numpy(grades), top) == \
        irm.calc_aggregate(['nDCG@10'], grades, top.numpy())


def test_ndcg_averages_over_tied_scores_as_ties_expected_does():
    """torchmetrics' nDCG gives tied items the mean of their discounts (the expectation over their orders), not
    torch.topk's order: user by user it equals nDCG(ties='expected'), and differs from trec_eval's order."""
    from torchmetrics.functional.retrieval import retrieval_normalized_dcg
    rng = np.random.default_rng(7)
    grades = torch.from_numpy(rng.choice([0, 0, 0, 1, 2, 3], size=(40, 30)))
    scores = torch.from_numpy(rng.integers(0, 4, size=(40, 30)) / 2.0)        # four scores: ties everywhere
    for name, averaged, top_k in (('nDCG', "nDCG(ties='expected')", None), ('nDCG@5', "nDCG(ties='expected')@5", 5)):
        expected = irm.calc([averaged], grades, scores)
        trec = irm.calc([name], grades, scores)
        theirs = [float(retrieval_normalized_dcg(scores[int(u)], grades[int(u)], top_k=top_k))
                  for u in expected.query_ids]
        np.testing.assert_allclose(expected.values[:, 0], theirs, rtol=0, atol=1e-6)
        assert np.abs(trec.values[:, 0] - np.array(theirs)).max() > 1e-3
