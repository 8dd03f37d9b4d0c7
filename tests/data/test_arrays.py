"""irmetrics/data/arrays.py: runs and judgments as arrays (top-k item indices, score matrices,
(items, scores) pairs; dense and scipy.sparse grade matrices) give exactly the numbers of the same data
written as TREC files, ties included, and every shape or value problem is one error naming the array."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import torch

import irmetrics as irm
from irmetrics.errors import DuplicateError, InputError

MEASURES = ['AP', 'nDCG@10', 'P@5', 'RR', 'R@20', 'Bpref', 'Rprec', 'NumRet', 'NumRel', 'Success@3']


def trec_qrels(grades: np.ndarray) -> str:
    users, items = np.nonzero(grades)
    return ''.join(f'{u} 0 {i} {grades[u, i]}\n' for u, i in zip(users, items, strict=True))


def trec_run(items: np.ndarray, scores: np.ndarray) -> str:
    return ''.join(f'{u} Q0 {items[u, r]} {r + 1} {float(scores[u, r])!r} t\n'
                   for u in range(items.shape[0]) for r in range(items.shape[1]))


def same_numbers(qrels_a, run_a, qrels_b, run_b, measures=MEASURES):
    a, b = irm.calc(measures, qrels_a, run_a), irm.calc(measures, qrels_b, run_b)
    assert a.query_ids == b.query_ids
    np.testing.assert_array_equal(a.values, b.values)


@pytest.fixture(params=range(4))
def data(request):
    rng = np.random.default_rng(request.param)
    users, catalogue = 30, 25
    grades = rng.choice([0, 0, 0, 1, 2], size=(users, catalogue))
    grades[0] = 0                                                   # a user without judgments
    scores = rng.integers(0, 4, size=(users, catalogue)) / 2        # many ties
    return grades, scores


def test_a_score_matrix_gives_the_numbers_of_its_trec_file(data):
    grades, scores = data
    items = np.broadcast_to(np.arange(scores.shape[1]), scores.shape)
    same_numbers(grades, scores, trec_qrels(grades), trec_run(items, scores))


@pytest.mark.parametrize('catalogue, measures', [
    (25, ['nDCG@10', 'P@5', 'RR@10', 'R@20', 'AP@15', 'Success@3']),        # ranked 20 deep of 25
    (130, ['nDCG@3', 'P@5', 'RR@2', 'ERR@5']),                              # 5 of 130: ties across '1', '10', '100'
])
@pytest.mark.parametrize('seed', range(3))
def test_a_score_matrix_ranked_only_as_deep_as_the_measures_read_gives_the_same_numbers(catalogue, measures, seed):
    rng = np.random.default_rng(seed)
    grades = rng.choice([0, 0, 0, 1, 2], size=(40, catalogue))
    scores = rng.integers(0, 3, size=(40, catalogue)) / 2            # ties at every boundary
    scores[3] = 0.5                                                  # a row of one score
    depth = max(irm.parse_measure(m).depth for m in measures)
    assert irm.evaluator(measures, grades).depth == depth < catalogue
    assert len(irm.to_run(scores, depth=depth)) == 40 * depth
    items = np.broadcast_to(np.arange(catalogue), scores.shape)
    same_numbers(grades, scores, trec_qrels(grades), trec_run(items, scores), measures)
    top = irm.to_run(scores, depth=depth)
    whole = [(d.query_id, d.doc_id) for d in irm.to_run(trec_run(items, scores))]
    cut = [(d.query_id, d.doc_id) for d in top]
    assert cut == [pair for u in range(40) for pair in whole[u * catalogue:u * catalogue + depth]]


def test_a_top_k_array_is_ranked_in_the_given_order(data):
    grades, scores = data
    rng = np.random.default_rng(7)
    top = np.stack([rng.permutation(scores.shape[1])[:12] for _ in range(scores.shape[0])])
    k = top.shape[1]
    given = np.broadcast_to(np.arange(k, 0, -1, dtype=np.float64), top.shape)
    same_numbers(grades, top, trec_qrels(grades), trec_run(top, given))
    same_numbers(grades, (top, scores[:, :k]), trec_qrels(grades), trec_run(top, scores[:, :k]))


def test_sparse_judgments_keep_explicit_zeros_as_judged(data):
    grades, scores = data
    rows, cols = np.nonzero(grades)
    zero = int(np.flatnonzero(grades[1] == 0)[0])                  # stored below: judged non-relevant
    judged = sp.csr_matrix((np.append(grades[rows, cols], 0), (np.append(rows, 1), np.append(cols, zero))),
                           shape=grades.shape)
    coo = judged.tocoo()
    assert (coo.data == 0).sum() == 1
    text = ''.join(f'{u} 0 {i} {g}\n' for u, i, g in zip(coo.row, coo.col, coo.data, strict=True))
    items = np.broadcast_to(np.arange(scores.shape[1]), scores.shape)
    same_numbers(judged, scores, text, trec_run(items, scores))
    assert ('1', str(zero), 0) in {(q.query_id, q.doc_id, q.relevance) for q in irm.to_qrels(judged)}


def test_ids_are_the_text_of_the_indices():
    results = irm.calc(['P@1'], np.array([[0, 1], [1, 0]]), irm.TopK(np.array([[1, 0], [0, 1]])))
    assert results.query_ids == ['0', '1'] and results.aggregated[irm.P @ 1] == 1.0


class Tensor:
    """A stand-in for a torch tensor: an array exposed through DLPack only."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_arrays_exposing_dlpack_are_read_without_numpy(data):
    grades, scores = data
    same_numbers(Tensor(grades), Tensor(scores), grades, scores)


NOT_A_MATRIX = r'expected a dense 2-D array \(users x items\) of integers, booleans or floats, got '


@pytest.mark.parametrize('run, message', [
    (np.zeros((2, 3, 4)), NOT_A_MATRIX + r'3 dimension\(s\) of shape \(2, 3, 4\)'),
    (np.array([[0.5, np.nan]]), 'the score nan at row 0, column 1 is not a number a ranking can use'),
    (irm.TopK(np.array([[1, -1]])), 'item index -1 at row 0, column 1'),
    ((np.array([[1, 2]]), np.array([[1.0]])), 'different shapes'),
    (sp.csr_matrix(np.eye(2)), NOT_A_MATRIX + r'a scipy.sparse matrix: .*convert it with .toarray\(\)'),
    (np.array([['a', 'b']]), NOT_A_MATRIX + 'an array of <U1'),
    (np.array([[1.0, None]], dtype=object), NOT_A_MATRIX + 'an array of object'),
    (np.array([[1, None]], dtype=object), NOT_A_MATRIX + 'an array of object'),
    (irm.Scores(np.array([[1 + 2j]])), NOT_A_MATRIX + 'an array of complex128'),
    (np.zeros((0, 3)), r'the array holds no value \(shape \(0, 3\)\)'),
    (np.zeros((2, 0)), r'the array holds no value \(shape \(2, 0\)\)'),
    (np.zeros((2, 0), dtype=np.int64), r'the array holds no value \(shape \(2, 0\)\)'),
    (irm.TopK(np.zeros((0, 2), dtype=np.int64)), r'the array holds no value \(shape \(0, 2\)\)'),
    (irm.Scores(np.zeros((0, 0))), r'the array holds no value \(shape \(0, 0\)\)'),
    ((np.zeros((2, 0), dtype=np.int64), np.zeros((2, 0))), r'the array holds no value \(shape \(2, 0\)\)'),
])
def test_a_bad_array_is_one_error_naming_it(run, message):
    with pytest.raises(InputError, match=message) as info:
        irm.to_run(run)
    assert str(info.value).startswith(('run array', 'run items'))


def not_dense_matrices():
    """What is not a dense 2-D array of numbers, each with what its error says (before: raw torch errors)."""
    dense = torch.tensor([[0.5, 0.25, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', UserWarning)                   # torch: nested and CSR tensors are a prototype
        nested = torch.nested.nested_tensor([torch.tensor([0.5, 0.25]), torch.tensor([1.0])])
        csr = dense.to_sparse_csr()
    return [(dense.to_sparse(), r'a sparse tensor \(torch.sparse_coo\): convert it with .to_dense\(\)'),
            (csr, r'a sparse tensor \(torch.sparse_csr\): convert it with .to_dense\(\)'),
            (nested, r'a nested tensor \(rows of different lengths\): pad it to one dense tensor, '
                     r"torch.nested.to_padded_tensor\(x, float\('-inf'\)\)"),
            (torch.tensor(1.0), r'0 dimension\(s\) of shape \(\)'),
            (np.array(1.0), r'0 dimension\(s\) of shape \(\)'),
            (torch.ones(1, 4, dtype=torch.uint8).view(torch.float4_e2m1fn_x2), 'an array of torch.float4_e2m1fn_x2'),
            (torch.ones(1, 4, dtype=torch.complex64), r'an array of (torch\.)?complex64')]


def test_what_is_not_a_dense_matrix_is_one_error_saying_what_is_accepted():
    grades = np.array([[1, 0, 1]])
    for array, got in not_dense_matrices():
        for read in (lambda a: irm.to_run(a), lambda a: irm.to_run(irm.Scores(a)), lambda a: irm.to_qrels(a),
                     lambda a: irm.calc(['P@1'], grades, np.ones((1, 3)), exclude=a)):
            with pytest.raises(InputError, match=r'(run array|qrels array|exclude): ' + NOT_A_MATRIX + got):
                read(array)


def test_float8_scores_are_ranked_as_the_float32_values_they_hold():
    """torch ranks no float8 type (before: a raw NotImplementedError): each value is a float32 exactly."""
    grades = np.array([[1, 0, 1, 0], [0, 1, 0, 1]])
    scores = np.array([[0.5, 0.25, 0.5, 1.0], [-2.0, 2.0, 0.0, 2.0]], dtype=np.float32)      # exact in float8
    for dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
        same_numbers(grades, torch.from_numpy(scores).to(dtype), grades, scores, ['AP', 'P@2', 'nDCG@3', 'RR'])


@pytest.mark.parametrize('shape', [(0, 3), (2, 0)])
def test_an_array_without_values_is_one_error_as_judgments_and_as_a_batch(shape):
    """A dimension of size 0 (no user, or no item): refused wherever an array is read, as a tensor on
    torch's 'meta' device is (before: a top-k array of no column scored 0 with a warning that no query
    was in the run, and a batch of no user was taken as nothing)."""
    with pytest.raises(InputError, match=r'qrels array: the array holds no value'):
        irm.to_qrels(np.zeros(shape, dtype=np.int64))
    accumulator = irm.evaluator(['P@1'], np.eye(2, 3, dtype=np.int64)).accumulator()
    with pytest.raises(InputError, match=r'run array: the array holds no value'):
        accumulator.update(np.zeros(shape))


def test_bad_judgments_and_duplicates_are_errors_naming_the_array():
    with pytest.raises(InputError, match=r'qrels array: the grade 0.5 at row 0, column 1 is not a whole number'):
        irm.to_qrels(np.array([[0.0, 0.5]]))
    with pytest.raises(DuplicateError, match=r'run array: item 1 appears twice in row 0 \(columns 0 and 1\)'):
        irm.to_run(np.array([[1, 1]]))
    with pytest.raises(DuplicateError, match=r'run array: item 7 appears twice in row 1 \(columns 1 and 3\)'):
        irm.to_run(np.array([[1, 2, 3, 4], [5, 7, 9, 7], [7, 7, 7, 7]]))
    with pytest.raises(DuplicateError, match=r'run arrays: item 2 appears twice in row 0 \(columns 1 and 2\)'):
        irm.to_run((np.array([[1, 2, 2]]), np.array([[0.5, 0.5, 0.1]])))
    with pytest.raises(InputError, match=r'qrels array: the grade 1e\+20 at row 1, column 0 is too large'):
        irm.to_qrels(np.array([[0.0, 1.0], [1e20, 0.0]]))
    twice = sp.coo_matrix((np.array([1, 2, 1]), (np.array([0, 1, 0]), np.array([3, 0, 3]))))    # cell (0, 3) twice
    with pytest.raises(DuplicateError, match=r'qrels array: the cell at row 0, column 3 is stored more than once'):
        irm.to_qrels(twice)
    assert [(q.query_id, q.doc_id, q.relevance) for q in irm.to_qrels(twice, duplicates='max')] == [
        ('0', '3', 1), ('1', '0', 2)]
    assert len(irm.to_run(np.array([[1, 1]]), duplicates='first')) == 1
    kept = irm.to_run((np.array([[1, 2, 2]]), np.array([[0.5, 0.1, 0.7]])), duplicates='max', depth=1)
    assert [(d.doc_id, d.score) for d in kept] == [('2', 0.7)]


class DeviceTensor(Tensor):
    """An array on a GPU (DLPack device type 2): it copies itself to the CPU when DLPack asks for
    ``dl_device=(1, 0)``, unless ``copies`` is false (a producer that cannot)."""

    def __init__(self, array, copies=True):
        super().__init__(array)
        self.copies = copies
        self.asked = []

    def __dlpack__(self, **kwargs):
        self.asked.append(kwargs.get('dl_device'))
        if kwargs.get('dl_device') != (1, 0) or not self.copies:
            raise BufferError('the array is on device cuda:0')
        return self._array.copy().__dlpack__(**{k: v for k, v in kwargs.items() if k != 'dl_device'})

    def __dlpack_device__(self):
        return (2, 0)


def test_an_array_on_a_device_is_copied_to_the_cpu_or_refused_with_a_hint(data):
    grades, scores = data
    device = DeviceTensor(scores)
    same_numbers(grades, device, grades, scores)
    assert device.asked and set(device.asked) == {(1, 0)}
    with pytest.raises(InputError, match=r'run array: cannot copy the array from its device \(DLPack type 2\) to '
                                         r'the CPU \(the array is on device cuda:0\); .*\.cpu\(\)'):
        irm.to_run(DeviceTensor(scores, copies=False))


@pytest.mark.parametrize('kind', ['scores', 'top-k', 'pair', 'top-k with repeats'])
def test_a_large_array_run_evaluated_in_blocks_of_users_gives_the_numbers_of_the_whole(monkeypatch, data, kind):
    grades, scores = data
    rng = np.random.default_rng(3)
    top = np.stack([rng.permutation(scores.shape[1])[:12] for _ in range(scores.shape[0])])
    run = {'scores': scores, 'top-k': top, 'pair': (top, scores[:, :12]),
           'top-k with repeats': np.where(rng.random(top.shape) < 0.1, top[:, :1], top)}[kind]
    measures = ['nDCG@10', 'P@5', 'RR', 'NumRet', 'R@3']                  # RR, NumRet: whole rankings
    for chosen in (measures, measures[:2]):                                # ... and ranked 10 deep
        whole = irm.calc(chosen, grades, run, duplicates='first')
        in_blocks_of_seven(monkeypatch, irm.evaluator(chosen, grades).depth or run_width(run))
        blocks = irm.calc(chosen, grades, run, duplicates='first')
        monkeypatch.undo()
        assert blocks.query_ids == whole.query_ids
        np.testing.assert_array_equal(blocks.values, whole.values)
    if kind == 'top-k with repeats':
        in_blocks_of_seven(monkeypatch, run_width(run))
        with pytest.raises(DuplicateError, match=r'run array: item \d+ appears twice in row (\d+)') as info:
            irm.calc(measures, grades, run)
        first_row = int(np.flatnonzero([len(set(r)) < len(r) for r in run.tolist()])[0])
        assert f'row {first_row} ' in str(info.value)                      # the row of the whole array


def in_blocks_of_seven(monkeypatch, width):
    """Arrays ranked and evaluated in blocks of 7 users (rows of ``width`` cells)."""
    from irmetrics.api import array_runs
    monkeypatch.setattr(array_runs, 'TOP_BLOCK_CELLS', 7 * width)
    monkeypatch.setattr(array_runs, 'WHOLE_BLOCK_CELLS', 7 * width)


def run_width(run):
    return (run[0] if isinstance(run, tuple) else run).shape[1]


def test_a_run_array_that_does_not_fit_the_qrels_array_is_refused(data):
    grades, scores = data
    with pytest.raises(InputError, match=r'run array: the run has 29 users \(rows\) and the qrels array 30'):
        irm.calc(['P@5'], grades, scores[:29])
    with pytest.raises(InputError, match=r'run array: the run scores 24 items \(columns\) and the qrels array has 25'):
        irm.calc(['P@5'], sp.csr_matrix(grades), scores[:, :24])
    top = np.tile(np.arange(5), (30, 1))
    top[4, 2] = 25
    with pytest.raises(InputError, match=r'run array: item index 25 at row 4, column 2 is out of range: the qrels '
                                         r'array has 25 items'):
        irm.calc(['P@5'], grades, top)
    with pytest.raises(InputError, match=r'run arrays: .*has 29 users'):
        irm.calc(['P@5'], grades, (top[:29], scores[:29, :5]))
    assert irm.calc(['P@5'], trec_qrels(grades), scores[:29]).query_ids        # TREC qrels: no shape to fit
