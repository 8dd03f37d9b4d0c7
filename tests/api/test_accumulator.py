"""Evaluator.accumulator(): a run given in batches of users (score matrices on torch or numpy, top-k arrays, pairs,
named queries) gives the numbers of the whole run, run-level measures too; users given twice are one error; under
torch.distributed (two gloo processes on the CPU) every process computes the same results as the whole run."""
import warnings
from unittest.mock import patch

import numpy as np
import pytest
import torch
from accumulator_support import MEASURE_SET, MEASURES, SLICES, batches, data, two_processes

import irmetrics as irm
from irmetrics.api import array_runs


@pytest.mark.parametrize('form', ['numpy', 'torch', 'top-k', 'pair', 'named'])
@pytest.mark.parametrize('measures', [MEASURES, MEASURES[:3] + ['AP', 'NumRet']])
def test_batches_give_the_numbers_of_the_whole_run(form, measures):
    qrels, scores = data()
    ev = irm.evaluator(measures, qrels)
    top = np.argsort(-scores, axis=1, kind='stable')[:, :25]
    whole_run = {'numpy': scores, 'torch': torch.from_numpy(scores), 'top-k': irm.TopK(top),
                 'pair': (top, np.take_along_axis(scores, top, axis=1)), 'named': None}[form]
    if form == 'named':
        whole_run = {str(u): {str(i): float(scores[u, i]) for i in range(60) if scores[u, i] > -np.inf}
                     for u in range(97)}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        whole = ev.calc(whole_run)
        acc = ev.accumulator()
        for lo, hi in batches(97, 20)[::-1]:                              # any order
            if form == 'named':
                acc.update({u: v for u, v in whole_run.items() if lo <= int(u) < hi})
            elif form == 'pair':
                acc.update(tuple(a[lo:hi] for a in whole_run), offset=lo)
            elif form == 'top-k':
                acc.update(irm.TopK(top[lo:hi]), offset=lo)
            else:
                acc.update(whole_run[lo:hi], offset=lo)
        got = acc.compute()
    assert got.query_ids == whole.query_ids
    np.testing.assert_allclose(got.values, whole.values, rtol=0, atol=1e-12)
    assert got.aggregated == pytest.approx(whole.aggregated, abs=1e-12)


def test_users_never_given_score_as_missing_and_reset_starts_again():
    qrels, scores = data()
    ev = irm.evaluator(['P@5', 'nDCG@10'], qrels)
    acc = ev.accumulator()
    with pytest.warns(irm.IrmetricsWarning, match=r'qrels queries are not in the run'):
        acc.update(scores[:50])
        half = acc.compute()
    expected = ev.calc(np.where(np.arange(97)[:, None] < 50, scores, -np.inf))
    np.testing.assert_array_equal(half.values, expected.values)
    acc.reset()
    acc.update(scores[50:], offset=50)
    acc.update(scores[:50])
    np.testing.assert_array_equal(acc.compute().values, ev.calc(scores).values)


def test_bad_batches_are_one_error():
    qrels, scores = data()
    acc = irm.evaluator(['P@5'], qrels).accumulator()
    acc.update(scores[:30])
    with pytest.raises(irm.InputError, match=r"accumulator: user '10' is in batch 2 and in an earlier one \(20 such"):
        acc.update(scores[10:40], offset=10)
    with pytest.raises(irm.InputError, match=r'the batch holds users 90 to 119 .* the qrels array has 97 users'):
        acc.update(scores[:30], offset=90)
    with pytest.raises(irm.InputError, match=r'offset: the first user of the batch, an integer >= 0'):
        acc.update(scores[:3], offset=-1)
    with pytest.raises(irm.InputError, match=r'a run of named queries names its own users: give it without offset'):
        acc.update({'1': {'2': 1.0}}, offset=3)


@pytest.mark.slow
def test_two_processes_of_torch_distributed_compute_the_whole_runs_results():
    qrels, scores = data()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        whole = irm.evaluator(MEASURES, qrels).calc(scores)
    for result in (out['accumulator'] for out in two_processes('whole')):
        np.testing.assert_allclose(np.array(result['values']), whole.values, rtol=0, atol=1e-12)
        assert result['aggregated'] == pytest.approx({str(m): v for m, v in whole.aggregated.items()}, abs=1e-12)


@pytest.mark.slow
def test_a_user_on_two_processes_is_one_error_on_each():
    for result in (out['accumulator'] for out in two_processes('whole', ({}, {'TWICE': '1'}))):
        assert result['error'].startswith("accumulator: user '90' is given on process 0 and on process 1 (2 such")
        assert 'DistributedSampler' in result['error']


def test_a_user_without_judgments_on_two_processes_is_one_error_on_each():
    """User 4 has no judgments; its top ranking is kept for Coverage and Gini, so giving it on both processes is
    the same error as for a judged user (it failed in the merge of the rankings, advising duplicates=)."""
    for result in (out['accumulator'] for out in two_processes('whole', ({}, {'UNJUDGED_TWICE': '1'}))):
        assert result['error'].startswith("accumulator: user '4' is given on process 0 and on process 1:")


def test_a_refused_batch_changes_nothing():
    """AP reads whole rankings, ranked in blocks of users: a batch whose second block repeats an earlier user is
    refused before its first block is added, a corrected retry is accepted, and the refusals count no batch."""
    qrels, scores = data()
    ev = irm.evaluator(['AP', 'nDCG@10'], qrels)
    acc = ev.accumulator()
    acc.update(scores[50:60], offset=50)
    with patch.object(array_runs, 'WHOLE_BLOCK_CELLS', 10 * 60):                # blocks of 10 users
        with pytest.raises(irm.InputError, match=r"user '50' is in batch 2 and in an earlier one \(5 such"):
            acc.update(scores[35:55], offset=35)                              # users 35-44 first, then 45-54
        assert repr(acc) == '<Accumulator: 10 users in 1 batch(es), 2 measures>'
        acc.update(scores[35:50], offset=35)
        acc.update(scores[:35])
        acc.update(scores[60:], offset=60)
    assert repr(acc) == '<Accumulator: 95 users in 4 batch(es), 2 measures>'    # 4: no judgments, 7: no ranking
    np.testing.assert_array_equal(acc.compute().values, ev.calc(scores).values)


def test_a_user_without_judgments_given_twice_is_refused_by_update():
    """With a measure of the whole run (Coverage), each batch's top ranking is kept: a user without judgments in
    two batches is refused when the second is given (it failed only in compute(), advising duplicates=)."""
    qrels = {'1': {'a': 1}}
    ev = irm.evaluator(['P@1', 'Coverage(catalogue=3)@1'], qrels)
    acc = ev.accumulator()
    acc.update({'1': {'a': 1.0}, 'stranger': {'b': 1.0}})
    with pytest.raises(irm.InputError, match=r"user 'stranger' is in batch 2 and in an earlier one \(1 such"):
        acc.update({'stranger': {'c': 1.0}})
    acc.update({'other': {'c': 1.0}})
    whole = ev.calc({'1': {'a': 1.0}, 'stranger': {'b': 1.0}, 'other': {'c': 1.0}})
    assert acc.compute().aggregated == whole.aggregated


def test_measures_given_as_a_set_are_in_one_order():
    qrels, scores = data()
    results = irm.evaluator(MEASURE_SET, qrels).accumulator()
    assert [str(m) for m in results.measures] == sorted(MEASURE_SET)
    assert irm.evaluator(set(MEASURE_SET), qrels).all_measures == results.measures
    assert irm.evaluator(sorted(MEASURE_SET, reverse=True), qrels).all_measures == results.measures[::-1]


def _whole(measures, scores=None):
    qrels, given = data()
    scores = given if scores is None else scores
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        return irm.evaluator(measures, qrels).calc(scores)


def _assert_the_whole_runs(result, whole):
    assert result['measures'] == [str(m) for m in whole.measures]
    np.testing.assert_allclose(np.array(result['values']), whole.values, rtol=0, atol=1e-12)
    assert result['aggregated'] == pytest.approx({str(m): v for m, v in whole.aggregated.items()}, abs=1e-12)


@pytest.mark.slow
def test_measures_given_as_a_set_under_two_hash_seeds_give_the_whole_runs_numbers():
    outs = two_processes('set', ({'PYTHONHASHSEED': '1'}, {'PYTHONHASHSEED': '2'}))
    assert outs[0]['given'] != outs[1]['given']                # the two processes iterate the set differently
    whole = _whole(MEASURE_SET)
    for out in outs:
        _assert_the_whole_runs(out['accumulator'], whole)
        _assert_the_whole_runs(out['metric'], whole)


@pytest.mark.slow
def test_processes_with_different_measures_are_one_error_on_each():
    for out in two_processes('measures differ'):
        assert out['accumulator']['error'] == (
            'accumulator: measures differ: process 0 has [AP, nDCG@10], process 1 has [AP, nDCG@10, R@20]: build the '
            'evaluator with the same measures, in the same order, on every process')


@pytest.mark.slow
def test_processes_with_their_own_shards_of_the_judgments_are_one_error_on_each():
    qrels, _ = data()
    counts = [qrels[:50].nnz, qrels[50:].nnz]
    for out in two_processes('sharded judgments'):
        error = out['accumulator']['error']
        assert error.startswith(f'accumulator: judgments differ: process 0 has {counts[0]} judgments of 49 users, '
                                f'process 1 has {counts[1]} of 47: build the evaluator from the same, whole '
                                f'judgments on every process'), error
        assert 'give each process its own users by offset' in error


def _own_users(whole, slices):
    """The rows of ``whole`` (results over every user) of the users in ``slices``, and those users' ids."""
    ids = [q for q in whole.query_ids if any(lo <= int(q) < hi for lo, hi in slices)]
    rows = [whole.query_ids.index(q) for q in ids]
    return ids, whole.values[rows]


@pytest.mark.slow
def test_sync_false_keeps_each_process_to_its_own_users():
    """Each process's results hold its own users only (their values those of the whole run), averaged over them:
    the other process's users are neither in them nor scored 0, and no warning names them (it averaged over all
    users, the other process's as 0, with a warning)."""
    whole = _whole(MEASURES)
    for rank, out in enumerate(two_processes('own')):
        result = out['accumulator']
        ids, values = _own_users(whole, SLICES[rank])
        assert result['query_ids'] == ids
        np.testing.assert_allclose(np.array(result['values']), values, rtol=0, atol=1e-12)
        qrels, scores = data()
        mine = np.zeros(len(scores), dtype=bool)
        for lo, hi in SLICES[rank]:
            mine[lo:hi] = True
        alone = _whole(MEASURES, np.where(mine[:, None], scores, -np.inf))  # Coverage, Gini: of its users' top 10
        expected = {**{str(m): values[:, j].mean() for j, m in enumerate(whole.measures)},
                    **{str(m): v for m, v in alone.run_values.items()}}
        assert result['aggregated'] == pytest.approx(expected, abs=1e-12)
        assert len(expected) == len(MEASURES)
        # user 7 (process 0's) ranks nothing: it scores as a query missing from the run, the one warning
        assert out['warnings'] == ([] if rank else ["the batches: 1 of the 56 qrels queries are not in the run "
                                                    "('7'); they score 0 (trec_eval -c)"])


def test_sync_false_on_one_process_gives_the_users_of_the_batches():
    qrels, scores = data()
    ev = irm.evaluator(['nDCG@10', 'AP', 'NumRet'], qrels)
    acc = ev.accumulator(sync=False)
    acc.update(scores[40:60], offset=40)
    acc.update(torch.from_numpy(scores[10:20]), offset=10)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        got = acc.compute()
    ids, values = _own_users(_whole(['nDCG@10', 'AP', 'NumRet']), [(10, 20), (40, 60)])
    assert got.query_ids == ids and len(ids) == 30
    np.testing.assert_array_equal(got.values, values)
    assert got.aggregated['NumRet'] == values[:, 2].sum()


def test_compute_before_any_batch_is_an_error_naming_update():
    qrels, scores = data()
    for sync in (None, False):
        acc = irm.evaluator(['nDCG@10'], qrels).accumulator(sync=sync)
        with pytest.raises(irm.InputError, match=r'accumulator: compute\(\) before any update\(\): no batch was '
                                                 r'given since the accumulator was built or reset\(\)'):
            acc.compute()
        acc.update(scores[:5])
        acc.reset()
        with pytest.raises(irm.InputError, match=r'compute\(\) before any update\(\)'):
            acc.compute()


def test_a_user_given_again_without_reset_names_reset():
    qrels, scores = data()
    acc = irm.evaluator(['nDCG@10'], qrels).accumulator()
    acc.update(scores)
    with pytest.raises(irm.InputError, match=r"user '0' is in batch 2 .* call reset\(\) before giving the users again"):
        acc.update(scores)
