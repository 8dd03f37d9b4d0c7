"""irmetrics.tie_dependence's result: its summary, DataFrame and refusals (the values themselves are checked
against the enumeration of tie orders in tests/providers/test_native_ties.py)."""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics import AP, MeasureError, P, nDCG

QRELS = {'q1': {'a': 1, 'b': 0, 'c': 1}, 'q2': {'a': 2, 'd': 0}}
RUN = {'q1': {'a': 1.0, 'b': 1.0, 'c': 0.5}, 'q2': {'d': 2.0, 'a': 1.0}}


def test_summary_and_frame_of_a_hand_computed_case():
    found = irm.tie_dependence([P @ 1, AP], QRELS, RUN)
    assert found.query_ids == ['q1', 'q2']
    # q1: {a, b} tie on top; a relevant. P@1: 0 (b first), expected 1/2, range [0, 1]. AP over R = 2:
    # a first: (1 + 2/3)/2 = 5/6; b first: (1/2 + 2/3)/2 = 7/12; expected their mean 17/24.
    np.testing.assert_allclose(found.value[0], [0.0, 7 / 12])
    np.testing.assert_allclose(found.expected[0], [0.5, 17 / 24])
    np.testing.assert_allclose(found.lowest[0], [0.0, 7 / 12])
    np.testing.assert_allclose(found.highest[0], [1.0, 5 / 6])
    assert found.depends.tolist() == [[True, True], [False, False]]
    summary = found.summary()[P @ 1]
    assert summary == pytest.approx({'value': 0.0, 'expected': 0.25, 'lowest': 0.0, 'highest': 0.5, 'spread': 0.5,
                                     'queries_tied': 0.5})
    frame = found.to_dataframe()
    assert list(frame.columns) == ['query_id', 'measure', 'value', 'expected', 'lowest', 'highest']
    assert frame.shape == (4, 6) and frame.iloc[0].tolist()[:2] == ['q1', 'P@1']
    assert 'queries_tied' in str(found) and repr(found).startswith('TieDependence(2 queries, 2 measures)')


def test_a_measure_asked_with_the_expectation_is_read_in_trec_eval_s_order():
    found = irm.tie_dependence([nDCG(ties='expected') @ 2], QRELS, RUN)
    assert found.measures == [nDCG @ 2]


def test_measures_of_a_whole_run_are_refused():
    with pytest.raises(MeasureError, match='one query at a time'):
        irm.tie_dependence(['Coverage(catalogue=10)@10'], QRELS, RUN)
