"""irmetrics/data/top_ranking.py: the exact top k of a score matrix, in numpy (threads) and in torch, is trec_eval's
ranking of the matrix written as a TREC file, whatever the ties (-0.0 and 0.0, ties across the k-th rank, item ids
'9' before '10'), masked items (-inf) and element types; NaN and +inf are errors naming the cell."""
import numpy as np
import pytest
import torch

from irmetrics.data.array_library import NUMPY, Torch, in_own_library
from irmetrics.data.top_ranking import rank_top, tie_ranks
from irmetrics.errors import InputError


def reference_top(scores: np.ndarray, k: int) -> list[list[int]]:
    """Each row's first k items by trec_eval's rule, by Python's sort of (score as a double, item id as text)."""
    out = []
    for row in scores.tolist():
        ranked = sorted((i for i, s in enumerate(row) if s != -np.inf), key=lambda i: (float(row[i]), str(i)),
                        reverse=True)
        out.append(ranked[:k])
    return out


def got_top(scores, k, library):
    top = rank_top(scores, k, library)
    items, lengths = library.to_host(top.items), library.to_host(top.lengths)
    return [items[r, :lengths[r]].tolist() for r in range(len(items))]


def libraries():
    return [('numpy', lambda a: a, NUMPY), ('torch', torch.from_numpy, Torch(torch.device('cpu')))]


def random_scores(seed: int, users: int, items: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    kind = seed % 4
    if kind == 0:                                        # a few levels: ties everywhere, across every rank
        scores = rng.integers(0, 4, size=(users, items)) / 2
    elif kind == 1:                                      # continuous, with -0.0 and 0.0 tied
        scores = rng.standard_normal((users, items))
        scores[rng.random(scores.shape) < 0.2] = 0.0
        scores[rng.random(scores.shape) < 0.2] = -0.0
    elif kind == 2:                                      # masked items, rows with fewer ranked than k
        scores = rng.integers(0, 3, size=(users, items)).astype(np.float64)
        scores[rng.random(scores.shape) < 0.6] = -np.inf
        scores[0] = -np.inf
    else:                                                # one value per row
        scores = np.repeat(rng.integers(0, 2, size=(users, 1)), items, axis=1).astype(np.float64)
    return scores.astype(dtype)


@pytest.mark.parametrize('seed', range(16))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_the_top_k_is_trec_evals_ranking_in_numpy_and_torch(seed, dtype):
    rng = np.random.default_rng(100 + seed)
    users, items = int(rng.integers(1, 40)), int(rng.integers(1, 300))
    scores = random_scores(seed, users, items, dtype)
    for k in sorted({1, int(rng.integers(1, items + 1)), items, items + 3}):
        expected = reference_top(scores, k)
        for name, wrap, library in libraries():
            assert got_top(wrap(scores), k, library) == expected, (name, k)


def test_large_blocks_in_threads_and_ties_at_the_boundary(monkeypatch):
    from irmetrics.data import top_ranking
    monkeypatch.setattr(top_ranking, 'BLOCK_CELLS', 2_000)                # many blocks, in threads
    monkeypatch.setattr(top_ranking, '_THREADED_CELLS', 0)
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 5, size=(300, 130)).astype(np.float32)      # ids 1, 10, 100 ... tie at every rank
    for k in (1, 9, 20):
        expected = reference_top(scores, k)
        for _, wrap, library in libraries():
            assert got_top(wrap(scores), k, library) == expected


def test_integer_and_boolean_scores():
    rng = np.random.default_rng(1)
    for dtype in (np.int8, np.int64, np.uint8, np.uint32, bool):
        scores = rng.integers(0, 3, size=(20, 50)).astype(dtype)
        if dtype in (np.int8, np.int64):
            scores[0, :3] = np.iinfo(dtype).min                            # the smallest integer ranks last
        expected = reference_top(scores.astype(np.float64), 7)
        for _, wrap, library in libraries():
            assert got_top(wrap(scores), 7, library) == expected


@pytest.mark.parametrize('dtype', [np.int64, np.uint64])
def test_integers_beyond_2_53_are_compared_as_their_doubles(dtype):
    """trec_eval compares scores as doubles: 2^53 + 1 and 2^53 are one double, tied, so the higher item id (as
    text) ranks first, and 2^63 and more (uint64) rank above every int64 (before: exact integer comparison in
    numpy, and torch's cast of uint64 to int64 made 2^63 negative)."""
    if dtype == np.int64:
        pool = [2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 2, 2 ** 53 + 3, -2 ** 53 - 1, -2 ** 53, -2 ** 63,
                2 ** 63 - 1, 2 ** 63 - 512, 0]
    else:
        pool = [2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 63 + 1, 2 ** 64 - 1, 2 ** 64 - 1024, 0]
    scores = np.random.default_rng(3).choice(np.array(pool, dtype=dtype), size=(30, 40))
    scores[0, :2] = pool[2], pool[1]                          # item 0 the larger integer, item 1 its tie as a double
    for k in (1, 5, 40):
        expected = reference_top(scores, k)
        assert expected[0][0] != 0
        for name, wrap, library in libraries():
            assert got_top(wrap(scores), k, library) == expected, (name, k)


def test_long_doubles_are_compared_as_their_doubles():
    """1 + 2^-60 is above 1 as a long double (x86's 64-bit mantissa), and 1 as a double: tied, by item id."""
    scores = np.array([[1 + np.longdouble(2) ** -60, 1.0, 0.5]], dtype=np.longdouble)
    assert got_top(scores, 3, NUMPY) == reference_top(scores, 3) == [[1, 0, 2]]


def test_bfloat16_float16_and_float8_tensors_rank_as_their_values():
    rng = np.random.default_rng(4)
    values = (rng.integers(-8, 9, size=(20, 60)) / 4).astype(np.float32)           # exact in every type below
    values[rng.random(values.shape) < 0.1] = -np.inf
    expected = reference_top(values, 7)
    for dtype in (torch.bfloat16, torch.float16, torch.float8_e5m2):           # float8 (no kernel) ranked as float32
        tensor = torch.from_numpy(values).to(dtype)
        for array, library in (in_own_library(tensor, 'run array'), (tensor, Torch(torch.device('cpu')))):
            top = rank_top(array, 7, library)
            assert got_top(array, 7, library) == expected, dtype
            np.testing.assert_array_equal(library.to_host(top.scores), np.sort(values, axis=1)[:, ::-1][:, :7])


def test_masked_cells_rank_as_minus_infinity_without_changing_the_array():
    rng = np.random.default_rng(2)
    scores = rng.integers(0, 4, size=(10, 40)).astype(np.float32)
    before = scores.copy()
    rows, items = np.nonzero(rng.random(scores.shape) < 0.3)
    masked_scores = scores.copy()
    masked_scores[rows, items] = -np.inf
    expected = reference_top(masked_scores, 12)
    for _, wrap, library in libraries():
        array = wrap(scores)

        def masked(lo, hi):
            keep = (rows >= lo) & (rows < hi)
            return rows[keep] - lo, items[keep]
        top = rank_top(array, 12, library, masked=masked)
        items_got, lengths = library.to_host(top.items), library.to_host(top.lengths)
        assert [items_got[r, :lengths[r]].tolist() for r in range(10)] == expected
    np.testing.assert_array_equal(scores, before)


@pytest.mark.parametrize('bad, shown', [(np.nan, 'nan'), (np.inf, 'inf')])
def test_nan_and_plus_infinity_are_errors_naming_the_cell(bad, shown):
    scores = np.zeros((5, 70), dtype=np.float32)
    scores[3, 41] = bad
    for _, wrap, library in libraries():
        with pytest.raises(InputError, match=rf'run array: the score {shown} at row 13, column 41 is not a number a '
                                             r'ranking can use: scores are finite, or -inf'):
            rank_top(wrap(scores), 4, library, first=10, name='run array')


def test_tie_ranks_are_the_text_order_of_the_ids():
    ranks = tie_ranks(12)
    assert sorted(range(12), key=lambda i: ranks[i]) == sorted(range(12), key=str)


def test_a_tensor_without_data_is_one_error():
    with pytest.raises(InputError, match=r"the tensor is on torch's 'meta' device: it has a shape but no values"):
        in_own_library(torch.empty((3, 4), device='meta'), 'run array')
