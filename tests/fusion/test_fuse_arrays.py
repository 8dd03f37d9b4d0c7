"""Fusing arrays (score matrices, top-k arrays; numpy and torch): the fused score matrix holds, cell by cell, the
scores of the fusion of the same data given as runs, and evaluates as that run does."""
import numpy as np
import pytest
import torch

import irmetrics as irm
from irmetrics.errors import InputError


def matrices(seed=0, users=6, items=9):
    rng = np.random.default_rng(seed)
    a, b = rng.random((users, items)), rng.normal(size=(users, items))
    a[0, 3] = b[1, :4] = -np.inf                                   # masked items: not ranked by that run
    return a, b


def as_runs(*arrays):
    return [{str(u): {str(i): float(x[u, i]) for i in range(x.shape[1]) if x[u, i] > -np.inf}
             for u in range(x.shape[0])} for x in arrays]


def as_cells(run, users, items):
    out = np.full((users, items), -np.inf)
    for doc in run:
        out[int(doc.query_id), int(doc.doc_id)] = doc.score
    return out


@pytest.mark.parametrize('method, options', [('rrf', {}), ('wsum', {'weights': [0.3, 0.7]}), ('comb_mnz', {}),
                                             ('bordafuse', {}), ('comb_sum', {'norm': 'zmuv'})])
@pytest.mark.parametrize('depth', [None, 4])
def test_a_fused_score_matrix_is_the_fusion_of_its_runs(method, options, depth):
    a, b = matrices()
    fused = irm.fuse([a, b], method=method, depth=depth, **options)
    runs = as_runs(a, b)
    if depth is not None:
        runs = [irm.to_run(r).top(depth) for r in runs]
    expected = as_cells(irm.fuse(runs, method=method, depth=depth, **options), *a.shape)
    np.testing.assert_array_equal(fused, expected)


def test_torch_tensors_give_a_tensor_of_the_same_numbers():
    a, b = matrices(1)
    fused = irm.fuse([torch.from_numpy(a).float(), torch.from_numpy(b).float()], method='rrf', depth=5)
    assert isinstance(fused, torch.Tensor) and fused.device == torch.device('cpu')
    expected = irm.fuse([a.astype(np.float32), b.astype(np.float32)], method='rrf', depth=5)
    np.testing.assert_array_equal(fused.numpy(), expected)


def test_top_k_arrays_are_fused_into_a_matrix_as_wide_as_their_largest_item():
    dense = irm.TopK(np.array([[4, 1, 0], [2, 3, 1]]))
    sparse = irm.TopK(np.array([[1, 6, 4], [3, 2, 0]]))
    fused = irm.fuse([dense, sparse], method='rrf', k=0)
    assert fused.shape == (2, 7)
    np.testing.assert_array_equal(fused[0], [1 / 3, 1 / 2 + 1, -np.inf, -np.inf, 1 + 1 / 3, -np.inf, 1 / 2])


def test_the_fused_matrix_evaluates_as_the_fused_run():
    a, b = matrices(2)
    qrels = (np.random.default_rng(3).random(a.shape) < 0.3).astype(int)
    fused = irm.fuse([a, b], method='wsum', depth=5)
    run = irm.fuse([irm.to_run(r).top(5) for r in as_runs(a, b)], method='wsum', depth=5)
    measures = ['nDCG@5', 'AP', 'RR']
    assert irm.calc_aggregate(measures, qrels, fused) == irm.calc_aggregate(measures, qrels, run)


@pytest.mark.parametrize('runs, message', [
    ([np.zeros((2, 3)), np.zeros((3, 3))], 'fusing arrays of different numbers of users (rows: [2, 3])'),
    ([np.zeros((2, 3)), np.zeros((2, 4))], 'fusing score matrices of different widths ([3, 4])'),
    ([np.zeros((2, 3)), {'0': {'1': 1.0}}], 'fuse arrays with arrays'),
])
def test_arrays_that_do_not_fit_are_one_clear_error(runs, message):
    with pytest.raises(InputError) as caught:
        irm.fuse(runs)
    assert message in str(caught.value)
