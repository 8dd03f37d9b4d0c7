"""Evaluator.accumulator(): a run given in batches of users (score matrices on torch or numpy, top-k arrays, pairs,
named queries) gives the numbers of the whole run, run-level measures too; users given twice are one error; under
torch.distributed (two gloo processes on the CPU) every process computes the same results as the whole run."""
import json
import os
import socket
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import torch

import irmetrics as irm

MEASURES = ['nDCG@10', 'R@20', 'P@10', 'RR@10', 'AP@15', 'ERR@5', "nDCG(dcg='exp-log2')@5", 'Coverage(catalogue=60)@10',
            'Gini(catalogue=60)@10']


def data(seed=0, users=97, items=60):
    rng = np.random.default_rng(seed)
    grades = rng.choice([0] * 12 + [1, 2, 3], size=(users, items))
    grades[4] = 0                                                        # a user without judgments
    scores = (rng.integers(0, 5, size=(users, items)) / 2).astype(np.float32)     # ties at every rank
    scores[7] = -np.inf                                                  # a user whose every item is masked
    scores[rng.random(scores.shape) < 0.1] = -np.inf
    return sp.csr_matrix(grades), scores


def batches(n, size):
    return [(lo, min(lo + size, n)) for lo in range(0, n, size)]


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


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


WORKER = textwrap.dedent('''
    import json, os, sys, warnings
    import numpy as np, scipy.sparse as sp, torch, torch.distributed as dist
    import irmetrics as irm
    sys.path.insert(0, os.environ['TESTS'])
    from test_accumulator import data, MEASURES
    warnings.simplefilter('ignore')
    dist.init_process_group('gloo')
    rank = dist.get_rank()
    qrels, scores = data()
    acc = irm.evaluator(MEASURES, qrels).accumulator()
    mine = [(0, 20), (40, 60), (80, 97)] if rank == 0 else [(20, 40), (60, 80)]
    if os.environ.get('TWICE') and rank == 1:
        mine.append((90, 92))
    for lo, hi in mine:
        acc.update(torch.from_numpy(scores[lo:hi]), offset=lo)
    try:
        got = acc.compute()
        print(json.dumps({'values': got.values.tolist(), 'aggregated': {str(m): v for m, v in got.aggregated.items()}}))
    except irm.InputError as ex:
        print(json.dumps({'error': str(ex)}))
    dist.destroy_process_group()
''')


def _two_processes(extra=None):
    port = str(_free_port())
    procs = []
    for rank in range(2):
        env = {**os.environ, 'MASTER_ADDR': '127.0.0.1', 'MASTER_PORT': port, 'RANK': str(rank), 'WORLD_SIZE': '2',
               'TESTS': os.path.dirname(__file__), **(extra or {})}
        procs.append(subprocess.Popen([sys.executable, '-c', WORKER], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    outs = [p.communicate(timeout=300) for p in procs]
    for proc, (_, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]


@pytest.mark.slow
def test_two_processes_of_torch_distributed_compute_the_whole_runs_results():
    qrels, scores = data()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        whole = irm.evaluator(MEASURES, qrels).calc(scores)
    for result in _two_processes():
        np.testing.assert_allclose(np.array(result['values']), whole.values, rtol=0, atol=1e-12)
        assert result['aggregated'] == pytest.approx({str(m): v for m, v in whole.aggregated.items()}, abs=1e-12)


@pytest.mark.slow
def test_a_user_on_two_processes_is_one_error_on_each():
    for result in _two_processes({'TWICE': '1'}):
        assert result['error'].startswith("accumulator: user '90' is given on process 0 and on process 1 (2 such")
        assert 'DistributedSampler' in result['error']


def test_the_torchmetrics_metric_gives_the_accumulators_numbers():
    from irmetrics.bridges.torchmetrics import RankingMetric
    qrels, scores = data()
    measures = MEASURES[:7]
    metric = RankingMetric(measures, qrels)
    for lo, hi in batches(97, 30):
        metric.update(torch.from_numpy(scores[lo:hi]), offset=lo)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = metric.compute()
        whole = irm.evaluator(measures, qrels).calc(scores)
    np.testing.assert_allclose(metric.results.values, whole.values, rtol=0, atol=1e-12)
    assert got == pytest.approx(dict(whole.aggregated), abs=1e-12)
    metric.reset()
    metric.update(torch.from_numpy(scores[:10]))
    metric.update(torch.from_numpy(scores[5:15]), offset=5)
    with pytest.raises(irm.InputError, match=r"query '5' is in more than one part"):
        metric.compute()
    with pytest.raises(irm.MeasureError, match=r'is a measure of a whole run: use Evaluator.accumulator\(\)'):
        RankingMetric(MEASURES, qrels)
