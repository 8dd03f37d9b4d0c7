"""nDCG: linear gains and trec_eval's ideal ranking (measures/ndcg.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import nDCG


@pytest.mark.parametrize('measure, expected', cases_of(nDCG))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)
