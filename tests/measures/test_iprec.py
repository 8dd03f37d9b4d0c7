"""IPrec: interpolated precision at a recall level, trec_eval 9's rounding (measures/iprec.py),
hand-computed on the shared case (tests/hand_case.py) against the formula."""
import pytest
from hand_case import approx, cases_of, value

from irmetrics import IPrec


@pytest.mark.parametrize('measure, expected', cases_of(IPrec))
def test_hand_computed_values(measure, expected):
    assert value(measure) == approx(expected)


def test_iprec_on_the_main_case():
    # relevant at ranks 2, 5, 7 (precisions 1/2, 2/5, 3/7); R = 4
    assert value(IPrec@0.0) == approx(1 / 2)                 # level 0 behaves as the first relevant document
    assert value(IPrec@0.25) == approx(1 / 2)               # int(0.25 * 4 + 0.9) = 1
    assert value(IPrec@0.3) == approx(3 / 7)                # int(1.2 + 0.9) = 2 (trec_eval 10: lround(1.2) = 1)
    assert value(IPrec@0.5) == approx(3 / 7)
    assert value(IPrec@0.75) == approx(3 / 7)
    assert value(IPrec@1.0) == 0.0                          # the 4th relevant document is never retrieved


def test_iprec_uses_trec_eval_9_rounding_with_three_relevant():
    # ranking n r n n r n n n r: precisions 1/2, 2/5, 3/9 at the relevant ranks
    docs = ['n1', 'r1', 'n2', 'n3', 'r2', 'n4', 'n5', 'n6', 'r3']
    qrels = {'q': {d: int(d.startswith('r')) for d in docs}}
    run = {'q': {d: float(len(docs) - i) for i, d in enumerate(docs)}}
    # cutoff = int(level * 3 + 0.9) in doubles: [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3] for levels 0.0 .. 1.0
    expected = [1 / 2, 1 / 2, 1 / 2, 1 / 2, 2 / 5, 2 / 5, 2 / 5, 2 / 5, 3 / 9, 3 / 9, 3 / 9]
    for i, want in enumerate(expected):
        assert value(IPrec@(i / 10), qrels, run) == approx(want), i / 10
    # 0.7 * 3 + 0.9 is 2.9999999999999996 in doubles: the 2nd relevant document, as trec_eval 9 computes
    assert 0.7 * 3 + 0.9 < 3
    assert value(IPrec@0.7, qrels, run) == approx(2 / 5)
    # trec_eval 10 would give 1/2 at 0.4 (lround(1.2) = 1) and 2/5 at 0.8 (lround(2.4) = 2)
    assert value(IPrec@0.4, qrels, run) == approx(2 / 5) and value(IPrec@0.8, qrels, run) == approx(3 / 9)


def test_iprec_is_the_best_precision_at_or_below_the_level():
    # r n r r: precision rises again at rank 4, and interpolation takes it
    qrels = {'q': {'r1': 1, 'r2': 1, 'r3': 1, 'n': 0}}
    run = {'q': {'r1': 4.0, 'n': 3.0, 'r2': 2.0, 'r3': 1.0}}
    assert value(IPrec@0.5, qrels, run) == approx(3 / 4)    # level reached at rank 3 (2/3), rank 4 gives 3/4
