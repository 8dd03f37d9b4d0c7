"""Runs given as arrays, evaluated where the scores are (irmetrics/api/array_runs.py, the hit matrix and its kernels):
every value equals the same data written as TREC files, per query, ties and masked items included, in numpy and in
torch (the torch path of a GPU, run here on the CPU); exclude= masks cells; inputs that read two ways are refused."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import torch
from array_cases import ON_HITS, ON_HOST, ON_POSITIONS, integer_case, random_case, trec_files

import irmetrics as irm
from irmetrics.api.array_runs import ArrayEvaluation
from irmetrics.data import array_library
from irmetrics.providers.native import hit_kernels


def test_the_split_of_the_measures():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        split = ArrayEvaluation(irm.evaluator(ON_HITS + ON_HOST + ON_POSITIONS, np.eye(3, dtype=int)))
    assert [str(m) for m in split.on_hits] == [str(irm.parse_measure(m)) for m in ON_HITS]
    assert [str(m) for m in split.on_positions] == [str(irm.parse_measure(m)) for m in ON_POSITIONS]
    assert [str(m) for m in split.on_host] == [str(irm.parse_measure(m)) for m in ON_HOST[:-1]]
    assert all(not hit_kernels.supports(irm.parse_measure(m)) for m in ON_HOST)


@pytest.mark.parametrize('seed', range(12))
@pytest.mark.parametrize('library', ['numpy', 'torch'])
def test_every_value_is_the_trec_files(monkeypatch, seed, library):
    from irmetrics.providers.native import hit_matrix
    grades, scores = random_case(seed)
    qrels, run = trec_files(grades, scores)
    if library == 'torch':
        monkeypatch.setattr(array_library, 'TORCH_ON_CPU', True)
    if seed % 3 == 0:                                # the qrels' quantities computed in blocks of a few queries
        monkeypatch.setattr(hit_matrix, '_BLOCK_JUDGMENTS', 17)
    given = torch.from_numpy(scores) if library == 'torch' else scores
    for measures in (ON_POSITIONS, ON_HITS + ON_POSITIONS + ['Coverage(catalogue=200)@10'],   # not ranked; 20 deep
                     ON_HITS + ON_HOST + ON_POSITIONS):                                     # whole (ties='expected')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', irm.IrmetricsWarning)
            got = irm.calc(measures, sp.csr_matrix(grades) if seed % 2 else grades, given)
            want = irm.calc(measures, qrels, run)
        assert got.query_ids == want.query_ids
        np.testing.assert_array_equal(got.values, want.values)
        assert got.run_values == dict(want.run_values)


def test_exclude_masks_cells_as_minus_infinity():
    grades, scores = random_case(3)
    rng = np.random.default_rng(0)
    train = (rng.random(scores.shape) < 0.2).astype(np.int8)
    masked = np.where(train > 0, -np.inf, scores)
    for given in (scores, torch.from_numpy(scores)):
        for exclude in (train, sp.csr_matrix(train)):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', irm.IrmetricsWarning)
                got = irm.evaluator(ON_HITS, grades, exclude=exclude).calc(given)
                want = irm.calc(ON_HITS, grades, masked)
            np.testing.assert_array_equal(got.values, want.values)
    top = np.argsort(-scores, axis=1, kind='stable')[:, :30]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = irm.evaluator(['P@5', 'nDCG@10'], grades, exclude=train).calc(irm.TopK(top))
        kept = [[i for i in row if not train[u, i]] for u, row in enumerate(top.tolist())]
        want = irm.calc(['P@5', 'nDCG@10'], grades, {str(u): {str(i): float(30 - r) for r, i in enumerate(row)}
                                                     for u, row in enumerate(kept)})
    np.testing.assert_array_equal(got.values, want.values)
    with pytest.raises(irm.InputError, match=r'the run scores \d+ items \(columns\) and exclude= has 3'):
        irm.evaluator(['P@5'], grades, exclude=np.ones((grades.shape[0], 3))).calc(scores)


def test_an_integer_array_as_wide_as_the_catalogue_is_refused_unless_wrapped():
    grades = np.eye(4, dtype=int)
    ranks = np.array([[3, 2, 1, 0]] * 4)
    with pytest.raises(irm.InputError, match=r'a 2-D integer array as wide as the catalogue \(4 columns\) reads two '
                                             r"ways: as each user's top 4 item indices in rank order, or as a score "
                                             r'for each of the 4 items; say which: irmetrics.TopK\(array\) or '
                                             r'irmetrics.Scores\(array\)'):
        irm.calc(['P@1'], grades, ranks)
    for negative in (-ranks, -ranks[:, :2]):         # as wide or not, a negative integer cannot be an item index
        with pytest.raises(irm.InputError, match=r'a 2-D integer array with a negative value \(-3 at row 0, column 0; '
                                                 r"item indices are >= 0\) reads two ways: as each user's top item "
                                                 r'indices in rank order, or as a score for each item; say which: '
                                                 r'irmetrics.TopK\(array\) or irmetrics.Scores\(array\)'):
            irm.calc(['P@1'], grades, negative)
    assert irm.calc(['P@1'], grades, irm.Scores(-ranks)).values[:, 0].tolist() == [0, 0, 0, 1]
    as_items = irm.calc(['P@1'], grades, irm.TopK(ranks)).values[:, 0]
    as_scores = irm.calc(['P@1'], grades, irm.Scores(ranks)).values[:, 0]
    assert as_items.tolist() == [0, 0, 0, 1] and as_scores.tolist() == [1, 0, 0, 0]
    assert irm.calc(['P@1'], grades, ranks[:, :2]).values[:, 0].tolist() == [0, 0, 0, 1]   # narrower: item indices
    assert repr(irm.TopK(ranks)) == 'TopK(4x4)' and repr(irm.Scores(ranks)) == 'Scores(4x4)'


def test_pairs_with_masked_items():
    grades, scores = random_case(5)
    top = np.argsort(-np.nan_to_num(scores, neginf=-9), axis=1, kind='stable')[:, :15]
    given = np.take_along_axis(scores, top, axis=1)
    rows = {str(u): {str(i): float(s) for i, s in zip(top[u], given[u], strict=True) if s > -np.inf}
            for u in range(len(top))}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = irm.calc(ON_HITS, grades, irm.TopK(top, given))
        want = irm.calc(ON_HITS, grades, {u: r for u, r in rows.items() if r})
    np.testing.assert_array_equal(got.values, want.values)
    with pytest.raises(irm.InputError, match=r'run scores: the score inf at row 0, column 2 is not a number'):
        irm.calc(['P@1'], grades, (top, np.where(np.arange(15) == 2, np.inf, given)))


@pytest.mark.parametrize('seed', range(4))
def test_judgments_in_any_order_with_ids_no_array_can_name(seed):
    """Qrels as TREC text in a random order, with documents ('07', 'd3') and a query ('x') that no row or column
    names: they count where only the qrels are read (R, the ideal DCG), and the arrays give the files' numbers."""
    grades, scores = random_case(seed)
    qrels, run = trec_files(grades, scores)
    lines = qrels.splitlines() + ['3 0 07 2', '3 0 d3 1', 'x 0 1 1']
    np.random.default_rng(seed).shuffle(lines)
    shuffled = '\n'.join(lines) + '\n'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = irm.calc(ON_HITS, shuffled, scores)
        want = irm.calc(ON_HITS, shuffled, run)
    assert got.query_ids == want.query_ids
    np.testing.assert_array_equal(got.values, want.values)


@pytest.mark.parametrize('dtype', [np.int64, np.uint64])
@pytest.mark.parametrize('library', ['numpy', 'torch'])
@pytest.mark.parametrize('masked', [False, True])
def test_integer_scores_are_compared_as_doubles_as_in_their_trec_file(monkeypatch, dtype, library, masked):
    """trec_eval reads a score as a double: 2^53 + 1 ties with 2^53 (the tie going to the item id), and a uint64 of
    2^63 or more ranks first (before: exact integer comparison, P@1 1.0 for the matrix and 0.0 for the file; torch
    cast uint64 to int64, ranking 2^63 last)."""
    grades, scores = integer_case(dtype)
    exclude = (np.random.default_rng(1).random(scores.shape) < 0.2) if masked else None
    if masked:
        exclude[0, :2] = False
    users, items = np.nonzero(grades)
    qrels = ''.join(f'{u} 0 {i} {grades[u, i]}\n' for u, i in zip(users, items, strict=True))
    kept = np.ones(scores.shape, dtype=bool) if exclude is None else ~exclude
    rows, columns = np.nonzero(kept)
    run = ''.join(f'{u} Q0 {i} 0 {int(scores[u, i])} t\n' for u, i in zip(rows, columns, strict=True))
    from_columns = irm.Run.from_columns(rows, columns, scores[rows, columns])
    if library == 'torch':
        monkeypatch.setattr(array_library, 'TORCH_ON_CPU', True)
    given = irm.Scores(torch.from_numpy(scores) if library == 'torch' else scores)
    measures = ON_HITS + ON_HOST[:-1] + ON_POSITIONS
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        got = irm.calc(measures, grades, given, exclude=exclude)
        for want in (irm.calc(measures, qrels, run), irm.calc(measures, qrels, from_columns)):
            assert got.query_ids == want.query_ids
            np.testing.assert_array_equal(got.values, want.values)
    assert got.query_ids[:2] == ['0', '1'] and got.values[:2, ON_HITS.index('RR@10')].tolist() == [1.0, 1.0]


@pytest.mark.parametrize('library', ['numpy', 'torch'])
def test_bfloat16_and_float16_scores_give_the_numbers_of_their_float32_values(monkeypatch, library):
    """Measures computed on the host from the top (nDCG with ties='expected', Coverage) read the scores with numpy,
    which has no bfloat16 (before: TypeError: Got unsupported ScalarType BFloat16); those of the judged items'
    ranks (AP, ERR, RBP without cutoff) count them in torch."""
    grades, scores = random_case(4)
    if library == 'torch':
        monkeypatch.setattr(array_library, 'TORCH_ON_CPU', True)
    measures = ON_HITS + ON_HOST + ON_POSITIONS
    top = np.argsort(-np.nan_to_num(scores, neginf=-9), axis=1, kind='stable')[:, :15]
    given = np.take_along_axis(scores, top, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        want = irm.calc(measures, grades, scores.astype(np.float32))
        want_pair = irm.calc(measures, grades, (top, given.astype(np.float32)))
        for dtype in (torch.bfloat16, torch.float16):                # scores of halves: exact in both
            np.testing.assert_array_equal(irm.calc(measures, grades, torch.from_numpy(scores).to(dtype)).values,
                                          want.values)
            pair = (torch.from_numpy(top), torch.from_numpy(given).to(dtype))
            np.testing.assert_array_equal(irm.calc(measures, grades, pair).values, want_pair.values)


def test_exclude_given_as_lists_is_refused_naming_both_readings():
    grades, scores = random_case(0)
    with pytest.raises(irm.InputError, match=r"exclude: expected a users x items matrix .*got a list, which reads two "
                                             r"ways \(the rows of a mask, or each user's item indices\): give "
                                             r'numpy.array\(mask\), or .*scipy.sparse.csr_matrix'):
        irm.calc(['P@1'], grades, scores, exclude=[[1, 2]] * grades.shape[0])
