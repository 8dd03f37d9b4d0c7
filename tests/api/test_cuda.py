"""Runs given as tensors on a CUDA GPU, ranked and measured there (the hit matrix and its kernels in torch on the
device): every value is the TREC files' (the same data written as text) to within the last bits a GPU's parallel
sums may change, and the measures read from the hit matrix are computed on the GPU, not after a copy to the host.

Marked ``cuda`` and skipped where no CUDA device is there (CI has none): ``benchmarks/gpu_tests.sh`` runs them,
with the GPU benchmark, on a GPU machine.  tests/api/test_array_runs.py runs the same torch path on the CPU."""
import warnings

import numpy as np
import pytest
import torch
from array_cases import ON_HITS, ON_HOST, ON_POSITIONS, integer_case, random_case, trec_files

import irmetrics as irm
from irmetrics.providers.native import hit_kernels

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not torch.cuda.is_available(),
                                 reason='needs a CUDA device: run benchmarks/gpu_tests.sh on a GPU machine')]

#: ulps a value computed on a GPU may differ from the host's by: its sums of a row run in parallel (a scan), in
#: another order than rank 1 down
GPU_ULPS = 4


@pytest.fixture
def devices(monkeypatch):
    """The devices the hit kernels ran on, recorded as they run."""
    seen = set()
    evaluate = hit_kernels.evaluate

    def spy(measure, hits):
        seen.add(str(hits.library.device).split(':')[0])
        return evaluate(measure, hits)
    monkeypatch.setattr(hit_kernels, 'evaluate', spy)
    return seen


def calc(measures, qrels, run):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        return irm.calc(measures, qrels, run)


@pytest.mark.parametrize('seed', range(8))
def test_every_value_on_the_gpu_is_the_trec_files(devices, seed):
    grades, scores = random_case(seed)
    qrels, run = trec_files(grades, scores)
    measures = ON_HITS + ON_HOST[:-1] + ON_POSITIONS    # not Coverage: a whole run's measure
    got = calc(measures, grades, torch.from_numpy(scores).to('cuda'))
    want = calc(measures, qrels, run)
    assert devices == {'cuda'}
    assert got.query_ids == want.query_ids
    np.testing.assert_array_max_ulp(got.values, want.values, maxulp=GPU_ULPS)
    counts = [i for i, m in enumerate(measures) if m.split('@')[0].split('(')[0] in ('P', 'R', 'Hits', 'Success')]
    np.testing.assert_array_equal(got.values[:, counts], want.values[:, counts])      # counts: no sum to reorder


@pytest.mark.parametrize('dtype', [np.int64, np.uint64])
def test_integer_scores_on_the_gpu_are_compared_as_doubles(devices, dtype):
    grades, scores = integer_case(dtype)
    got = calc(ON_HITS, grades, irm.Scores(torch.from_numpy(scores).to('cuda')))
    want = calc(ON_HITS, grades, irm.Scores(scores))                       # numpy on the host
    assert devices == {'cuda'}
    np.testing.assert_array_max_ulp(got.values, want.values, maxulp=GPU_ULPS)
    assert got.values[:2, ON_HITS.index('RR@10')].tolist() == [1.0, 1.0]


@pytest.mark.parametrize('dtype', [torch.bfloat16, torch.float16])
def test_half_scores_on_the_gpu_give_the_numbers_of_their_float32_values(devices, dtype):
    grades, scores = random_case(4)
    measures = ON_HITS + ON_HOST[:-1] + ['AP', 'ERR', 'RBP']
    got = calc(measures, grades, torch.from_numpy(scores).to(dtype).to('cuda'))
    want = calc(measures, grades, scores.astype(np.float32))
    assert devices == {'cuda'}
    np.testing.assert_array_max_ulp(got.values, want.values, maxulp=GPU_ULPS)


def test_batches_of_users_on_the_gpu_give_the_whole_matrix(devices):
    """The accumulator fed batches of users of a GPU matrix (a training loop's evaluation) gives the values of
    the whole matrix on the host."""
    grades, scores = random_case(7)
    want = calc(ON_HITS, grades, scores)
    accumulator = irm.evaluator(ON_HITS, grades).accumulator()
    on_gpu = torch.from_numpy(scores).to('cuda')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        for first in range(0, len(scores), 16):
            accumulator.update(on_gpu[first:first + 16], offset=first)
        got = accumulator.compute()
    assert devices == {'cuda'}
    assert got.query_ids == want.query_ids
    np.testing.assert_array_max_ulp(got.values, want.values, maxulp=GPU_ULPS)
