"""R@k: relevant documents in the top k over R (measures/recall.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import R


@pytest.mark.parametrize('measure, expected', cases_of(R))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
