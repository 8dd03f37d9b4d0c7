"""Rprec: precision at rank R (measures/rprec.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import Rprec


@pytest.mark.parametrize('measure, expected', cases_of(Rprec))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)


def test_a_depth_beyond_any_ranking_is_no_overflow():
    """Rprec(mult=1e300): c = int(mult * R + 0.9) passes what int64 holds; it is held at 2**62 (no run reaches
    it), so the value is its precision there, about 0, with no numpy overflow warning."""
    import warnings

    import irmetrics as irm
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)
        got = irm.calc_aggregate([Rprec(mult=1e300)], {'q': {'a': 1}}, {'q': {'a': 1.0}})
    assert got[Rprec(mult=1e300)] == 1 / 2 ** 62
