"""the set measures of the whole ranking (measures/set_measures.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import SetAP, SetF, SetP, SetR


@pytest.mark.parametrize('measure, expected', cases_of(SetAP, SetF, SetP, SetR))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
