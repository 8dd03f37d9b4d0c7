"""RR: the reciprocal rank of the first relevant document (measures/rr.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import RR


@pytest.mark.parametrize('measure, expected', cases_of(RR))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
