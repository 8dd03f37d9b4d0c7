"""the counts summed over queries (measures/counts.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import NumQ, NumRel, NumRet


@pytest.mark.parametrize('measure, expected', cases_of(NumQ, NumRel, NumRet))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
