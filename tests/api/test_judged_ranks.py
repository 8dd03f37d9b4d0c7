"""The judged items' ranks of a score matrix, counted without ranking the rows (irmetrics/data/judged_ranks.py),
property: on random matrices of few distinct scores (ties everywhere, -0.0 beside 0.0, -inf masked cells, cells
excluded, rows ranking nothing, users without judgments, rows of more judged items than are counted), each rank
is the brute-force rank of trec_eval's order, in numpy and in torch, and every measure computed from the ranks
gives the numbers of the same data written as TREC files; NaN and +inf are the errors of the top ranking."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import torch
from array_cases import ON_POSITIONS, trec_files
from hypothesis import given, settings
from hypothesis import strategies as st

import irmetrics as irm
from irmetrics.data import array_library, judged_ranks
from irmetrics.data.array_library import NUMPY, Torch
from irmetrics.data.top_ranking import tie_ranks

SCORES = np.array([-np.inf, -1.5, -0.0, 0.0, 0.5, 2.0])


@st.composite
def cases(draw):
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    users, items = draw(st.integers(1, 12)), draw(st.integers(1, 40))
    scores = rng.choice(SCORES[:draw(st.integers(2, len(SCORES)))], size=(users, items), p=None)
    scores = scores.astype(draw(st.sampled_from([np.float32, np.float64])))
    grades = rng.choice([0, 0, 0, -1, 1, 2], size=(users, items))
    grades[rng.random(users) < 0.2] = 0                             # users without judgments
    grades[-1, 0] = grades[-1, 0] or 1                              # some judgment (else no query at all)
    exclude = (rng.random((users, items)) < 0.1).astype(np.int8)
    return grades, scores, exclude


def brute_ranks(scores, rows, items):
    """Each pair's 0-based rank in its row's full ranking (score descending, tie rank descending), -1 for -inf."""
    ties = tie_ranks(scores.shape[1])
    out = []
    for r, i in zip(rows, items, strict=True):
        line = scores[r].astype(np.float64) + 0.0
        if line[i] == -np.inf:
            out.append(-1)
            continue
        out.append(int(((line > line[i]) | ((line == line[i]) & (ties > ties[i]))).sum()))
    return np.array(out, dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(['numpy', 'torch']), st.integers(0, 3))
def test_every_rank_is_the_brute_force_rank(case, library, counted):
    grades, scores, _ = case
    rows, items = np.nonzero(grades != 0)
    given_scores = torch.from_numpy(scores) if library == 'torch' else scores
    lib = Torch(torch.device('cpu')) if library == 'torch' else NUMPY
    old = judged_ranks.COUNTED
    judged_ranks.COUNTED = counted                 # rows of more judged items sorted whole
    try:
        found = judged_ranks.judged_ranks(given_scores, rows.astype(np.int64), items.astype(np.int64), lib)
    finally:
        judged_ranks.COUNTED = old
    np.testing.assert_array_equal(found.ranks, brute_ranks(scores, rows, items))
    np.testing.assert_array_equal(found.lengths, (scores > -np.inf).sum(axis=1))


@settings(max_examples=40, deadline=None)
@given(cases(), st.booleans(), st.booleans())
def test_every_measure_from_the_ranks_is_the_trec_files(case, on_torch, excluded):
    grades, scores, exclude = case
    masked = np.where(exclude > 0, -np.inf, scores) if excluded else scores
    qrels, run = trec_files(grades, masked)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        array_library.TORCH_ON_CPU = on_torch
        try:
            ev = irm.evaluator(ON_POSITIONS, sp.csr_matrix(grades), exclude=exclude if excluded else None)
            got = ev.calc(torch.from_numpy(scores) if on_torch else scores)
        finally:
            array_library.TORCH_ON_CPU = False
        want = irm.calc(ON_POSITIONS, qrels, run)
    assert got.query_ids == want.query_ids
    np.testing.assert_array_equal(got.values, want.values)


@pytest.mark.parametrize('bad', [np.nan, np.inf])
@pytest.mark.parametrize('library', ['numpy', 'torch'])
def test_nan_and_plus_infinity_are_errors_naming_the_cell(monkeypatch, bad, library):
    scores = np.zeros((3, 5))
    scores[2, 4] = bad
    if library == 'torch':
        monkeypatch.setattr(array_library, 'TORCH_ON_CPU', True)
    given_scores = torch.from_numpy(scores) if library == 'torch' else scores
    with pytest.raises(irm.InputError, match='at row 2, column 4 is not a number a ranking can use'):
        irm.calc(['RR', 'AP'], np.eye(3, 5, dtype=int), given_scores)


def test_a_custom_measure_keeps_the_whole_ranking():
    """A custom measure's function may read every ranked row: it is computed from the ranking, not the ranks."""
    from irmetrics.api import custom
    grades, scores = np.eye(3, dtype=int), np.array([[0.1, 0.2, -np.inf], [1.0, 1.0, 1.0], [0.0, -0.0, 2.0]])
    irm.define(lambda qrels, run: float(len(run)), name='RankingLength')
    try:
        ev = irm.evaluator(['RankingLength', 'RR'], grades)
        assert [str(m) for m in ev.arrays.on_positions] == ['RR']
        qrels, run = trec_files(grades, scores)
        np.testing.assert_array_equal(ev.calc(scores).values, irm.calc(['RankingLength', 'RR'], qrels, run).values)
        assert ev.calc(scores).values[:, 0].tolist() == [2.0, 3.0, 3.0]
    finally:
        custom.undefine('RankingLength')
