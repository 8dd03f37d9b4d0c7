"""Success@k: a relevant document in the top k (measures/success.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import Success


@pytest.mark.parametrize('measure, expected', cases_of(Success))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
