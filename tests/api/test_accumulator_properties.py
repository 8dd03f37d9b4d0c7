"""Evaluator.accumulator(), property: whatever sequence of batches is given, some refused for repeating users of
earlier ones, compute() gives the results of the accepted batches alone: a refused batch adds nothing, not even
the blocks of users measured before the repeated one was found (AP reads its judged items' ranks, counted in blocks
of users: here blocks of 4 users, so that a batch spans several)."""
import warnings
from unittest.mock import patch

import numpy as np
from accumulator_support import data
from hypothesis import given
from hypothesis import strategies as st

import irmetrics as irm
from irmetrics.api import array_runs

QRELS, SCORES = data()
EVALUATOR = irm.evaluator(['AP', 'R@20'], QRELS)
#: the users a batch gives values for: judged, and with an item ranked
COUNTED = (QRELS.getnnz(axis=1) > 0) & np.isfinite(SCORES).any(axis=1)

slices = st.tuples(st.integers(0, 96), st.integers(1, 30)).map(lambda t: (t[0], min(t[0] + t[1], 97)))


@given(st.lists(slices, min_size=1, max_size=5))
def test_refused_batches_change_nothing(batches):
    accepted, taken = [], np.zeros(97, dtype=bool)
    with patch.object(array_runs, 'POSITION_BLOCK_CELLS', 4 * 60), warnings.catch_warnings():
        warnings.simplefilter('ignore', irm.IrmetricsWarning)
        acc = EVALUATOR.accumulator()
        for lo, hi in batches:
            overlaps = bool((taken[lo:hi] & COUNTED[lo:hi]).any())
            try:
                acc.update(SCORES[lo:hi], offset=lo)
            except irm.InputError as ex:
                assert overlaps, ex
                continue
            assert not overlaps
            accepted.append((lo, hi))
            taken[lo:hi] = True
        users = int((taken & COUNTED).sum())
        assert repr(acc) == f'<Accumulator: {users} users in {len(accepted)} batch(es), 2 measures>'
        alone = EVALUATOR.accumulator()
        for lo, hi in accepted:
            alone.update(SCORES[lo:hi], offset=lo)
        got = acc.compute()
        expected = EVALUATOR.calc(np.where(taken[:, None], SCORES, -np.inf))
    np.testing.assert_array_equal(got.values, alone.compute().values)
    np.testing.assert_array_equal(got.values, expected.values)
