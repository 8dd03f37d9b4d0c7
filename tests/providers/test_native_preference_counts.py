"""The preference counts taken without an n x n matrix against their definitions.

A judgment group of one sub-group is counted from its rows' levels and docid ranks, and the closure of
several sub-groups is taken over (sub-group, level) classes; here each is compared with the definition
written out pair by pair: every pair of rows of different levels one preference of the higher level, and
the closure as Warshall's algorithm over the documents' direct preferences.
"""
import itertools

import numpy as np
import pytest

from irmetrics.data.prefs import Preferences, preferred
from irmetrics.errors import InputError
from irmetrics.providers.native.preferences import _areas, _class_areas, _class_pairs, _higher_ahead, _pairs

SEEDS = range(8)


def _rows(rng):
    """A group of one sub-group: rows of documents 0..n-1 (some twice, at their one level), and njr."""
    n = int(rng.integers(1, 25))
    level_of = rng.choice([0.0, 0.5, 1.0, 2.0, 7.25], size=n)
    rows = rng.integers(0, n, size=int(rng.integers(0, 35)))
    return n, rows, level_of[rows], int(rng.integers(0, n + 1))


@pytest.mark.parametrize('seed', SEEDS)
def test_pairs_ahead_and_higher_counted_pair_by_pair(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        values = rng.integers(0, int(rng.integers(1, 6)), size=int(rng.integers(0, 40))).astype(np.float64)
        expected = sum(values[i] > values[j] for i, j in itertools.combinations(range(len(values)), 2))
        assert _higher_ahead(values) == expected


@pytest.mark.parametrize('seed', SEEDS)
def test_areas_of_one_sub_group_by_hand(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        n, rows, levels, njr = _rows(rng)
        areas = [0] * 5                       # ful ret, unful ret, ful imp, unful imp, neither retrieved
        for (a, la), (b, lb) in itertools.product(zip(rows, levels, strict=True), repeat=2):
            if la > lb:
                if a < njr and b < njr:
                    areas[0 if a < b else 1] += 1
                elif a < njr or b < njr:
                    areas[2 if a < njr else 3] += 1
                else:
                    areas[4] += 1
        assert list(_class_areas(rows, levels, njr)) == areas
        assert _areas(preferred(rows, levels, n), njr) == tuple(map(float, areas))


@pytest.mark.parametrize('seed', SEEDS)
def test_pairs_of_one_group_equal_the_matrix_sums(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        n, rows, levels, njr = _rows(rng)
        assert _class_pairs(rows, levels, njr) == _pairs(preferred(rows, levels, n), njr)


@pytest.mark.parametrize('seed', SEEDS)
def test_closure_of_sub_groups_by_warshall(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        size = int(rng.integers(2, 30))
        docs = [f'd{i}' for i in rng.integers(0, 10, size=size)]
        grade = dict(zip([f'd{i}' for i in range(10)], rng.choice([0.0, 1.0, 2.0, 3.0], size=10), strict=True))
        subs = rng.integers(0, 4, size=size).astype(str).tolist()
        levels = [grade[d] + (rng.random() < 0.1) for d in docs]       # some levels reversed: cycles
        try:
            prefs = Preferences.from_columns(['q'] * size, ['g'] * size, subs, docs, np.array(levels))
        except InputError as error:
            assert 'each preferred to the other' in str(error) or 'non-relevant (0.0) and relevant' in str(error)
            continue
        (group,) = prefs.groups(0)
        if group.classes:
            continue
        judged = [prefs.doc_ids[c] for c in prefs.judged(0)]
        place = {d: i for i, d in enumerate(judged)}
        reach = np.zeros((len(judged), len(judged)), dtype=bool)
        for (da, sa, la), (db, sb, lb) in itertools.product(zip(docs, subs, levels, strict=True), repeat=2):
            reach[place[da], place[db]] |= sa == sb and la > lb
        for k, i, j in itertools.product(range(len(judged)), repeat=3):      # k outermost: Warshall
            reach[i, j] |= reach[i, k] and reach[k, j]
        np.fill_diagonal(reach, False)
        assert (group.closure == reach).all()
        checked += 1
    assert checked >= 5
