"""AP: precision at each relevant rank over R (measures/ap.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import AP


@pytest.mark.parametrize('measure, expected', cases_of(AP))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
