"""irmetrics.bridges.torchmetrics.RankingMetric: an Evaluator's accumulator as a torchmetrics Metric.  update,
compute, forward and reset give the accumulator's numbers, the measures of a whole run (Coverage, Gini) too; a
refused batch adds nothing; under torch.distributed (two gloo processes on the CPU) a process given no batch gets
the numbers of every user, as the others do, with no collective of torchmetrics' own."""
import warnings

import numpy as np
import pytest
import torch
from accumulator_support import MEASURES, batches, data, two_processes

import irmetrics as irm
from irmetrics.bridges.torchmetrics import RankingMetric


def _whole(measures, scores):
    qrels, _ = data()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        return irm.evaluator(measures, qrels).calc(scores)


def _only(scores, lo, hi):
    """The scores of the users lo .. hi - 1, the others ranking nothing."""
    users = np.arange(len(scores))[:, None]
    return np.where((users >= lo) & (users < hi), scores, -np.inf)


def test_the_metric_gives_the_accumulators_numbers():
    qrels, scores = data()
    metric = RankingMetric(MEASURES, qrels)
    for lo, hi in batches(97, 30):
        metric.update(torch.from_numpy(scores[lo:hi]), offset=lo)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = metric.compute()
    whole = _whole(MEASURES, scores)
    np.testing.assert_allclose(metric.results.values, whole.values, rtol=0, atol=1e-12)
    assert got == pytest.approx(dict(whole.aggregated), abs=1e-12)
    assert {'Coverage(catalogue=60)@10', 'Gini(catalogue=60)@10'} <= set(got)


def test_a_refused_batch_adds_nothing_and_reset_starts_again():
    qrels, scores = data()
    metric = RankingMetric(['AP', 'P@5'], qrels)
    metric.update(torch.from_numpy(scores[:10]))
    with pytest.raises(irm.InputError, match=r"user '5' is in batch 2 and in an earlier one \(4 such .* not added"):
        metric.update(torch.from_numpy(scores[5:15]), offset=5)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        assert metric.compute() == dict(_whole(['AP', 'P@5'], _only(scores, 0, 10)).aggregated)
        metric.reset()
        metric.update(torch.from_numpy(scores[5:15]), offset=5)       # accepted once the metric is reset
        assert metric.compute() == dict(_whole(['AP', 'P@5'], _only(scores, 5, 15)).aggregated)


def test_forward_gives_the_batch_alone_and_keeps_every_batch():
    """forward is torchmetrics' convention: the value of this batch's users alone (the mean of their values in the
    whole run; Coverage and Gini of their top 10 alone), while adding the batch; no warning but for a batch with a
    user whose every item is masked (user 7), as the whole run gets for it."""
    qrels, scores = data()
    measures = ['nDCG@10', 'R@20', 'AP', 'Coverage(catalogue=60)@10', 'Gini(catalogue=60)@10']
    metric = RankingMetric(measures, qrels)
    whole = _whole(measures, scores)
    for lo, hi in batches(97, 40):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            alone = metric(torch.from_numpy(scores[lo:hi]), offset=lo)
        assert [str(w.message) for w in caught] == (
            ["the batches: 1 of the 39 qrels queries are not in the run ('7'); they score 0 (trec_eval -c)"]
            if lo == 0 else [])
        rows = [j for j, q in enumerate(whole.query_ids) if lo <= int(q) < hi]
        expected = {str(m): whole.values[rows, j].mean() for j, m in enumerate(whole.measures)}
        expected.update({str(m): v for m, v in _whole(measures, _only(scores, lo, hi)).run_values.items()})
        assert alone == pytest.approx(expected, abs=1e-12) and len(alone) == 5
        assert metric._forward_cache == alone
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        assert metric.compute() == pytest.approx(dict(whole.aggregated), abs=1e-12)


def test_a_new_epoch_without_reset_and_compute_before_update_are_errors_naming_them():
    qrels, scores = data()
    metric = RankingMetric(['nDCG@10'], qrels)
    with pytest.raises(irm.InputError, match=r'compute\(\) before any update\(\)'), warnings.catch_warnings():
        warnings.simplefilter('ignore', UserWarning)         # torchmetrics' own: compute called before update
        metric.compute()
    metric(torch.from_numpy(scores[20:40]), offset=20)
    with pytest.raises(irm.InputError, match=r"user '20' is in batch 2 .* call reset\(\) before giving the users "
                                             r'again \(each epoch\)'):
        metric(torch.from_numpy(scores[20:40]), offset=20)
    metric.reset()
    metric(torch.from_numpy(scores[20:40]), offset=20)


def test_higher_is_better_follows_the_measures_and_torch_options_that_gather_states_are_refused():
    qrels, _ = data()
    assert RankingMetric(['nDCG@10', 'AP'], qrels).higher_is_better is True
    assert RankingMetric(['Gini(catalogue=60)@10'], qrels).higher_is_better is False
    assert RankingMetric(['nDCG@10', 'Gini(catalogue=60)@10'], qrels).higher_is_better is None
    with pytest.raises(irm.InputError, match=r'dist_sync_fn: RankingMetric gathers .* leave it out'):
        RankingMetric(['AP'], qrels, dist_sync_fn=lambda x: x)


@pytest.mark.slow
def test_a_process_given_no_batch_gets_every_users_numbers():
    _, scores = data()
    whole = _whole(MEASURES, scores)
    for out in two_processes('idle'):
        for result in (out['accumulator'], out['metric']):
            np.testing.assert_allclose(np.array(result['values']), whole.values, rtol=0, atol=1e-12)
            assert result['aggregated'] == pytest.approx({str(m): v for m, v in whole.aggregated.items()}, abs=1e-12)
