"""The trust room on real-valued grades (0.5, 2.7: an LLM judge's): agreement between judgments, qrels
statistics, unjudged documents and tie orders read each grade as it is, never its integer part.  References:
the krippendorff package and scikit-learn's cohen_kappa_score on the same values, and cases by hand."""
import math

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import irmetrics as irm

GRADES_A = [0.5, 2.7, 0, 1, 2.7, 0.5, 3, 0, 1.5, 2]
GRADES_B = [0.5, 2, 0, 1.5, 2.7, 1, 3, 0.5, 1.5, 2.7]


def _qrels(grades):
    """Pair i is document d<i> of query q<i % 3>, judged ``grades[i]``."""
    out: dict[str, dict[str, float]] = {}
    for i, grade in enumerate(grades):
        out.setdefault(f'q{i % 3}', {})[f'd{i}'] = grade
    return out


@pytest.mark.parametrize('level', ['nominal', 'ordinal', 'interval'])
def test_alpha_of_real_grades_is_the_krippendorff_packages(level):
    expected = krippendorff.alpha(reliability_data=np.array([GRADES_A, GRADES_B], dtype=float),
                                  level_of_measurement=level)
    found = irm.krippendorff_alpha(_qrels(GRADES_A), _qrels(GRADES_B), level=level)
    assert found.statistic == pytest.approx(expected, abs=1e-12)
    assert found.grades == (0.0, 0.5, 1.0, 1.5, 2.0, 2.7, 3.0)         # every value its own grade: none truncated


@pytest.mark.parametrize('rel', [0.5, 1.5, 2.7])
def test_kappa_at_a_real_threshold_is_scikit_learns_on_the_binary_labels(rel):
    expected = cohen_kappa_score(np.array(GRADES_A) >= rel, np.array(GRADES_B) >= rel)
    found = irm.cohen_kappa(_qrels(GRADES_A), _qrels(GRADES_B), rel=rel)
    assert found.statistic == pytest.approx(expected, abs=1e-12)
    assert found.method == f"Cohen's kappa (relevant: grade >= {rel})"


def test_weighted_kappa_weighs_the_real_differences():
    """Pairs (0, 0), (0.5, 0.5), (2.7, 2.7), (0, 0.5), (2.7, 0): rows (a) 0: 2, 0.5: 1, 2.7: 2; columns (b)
    0: 2, 0.5: 2, 2.7: 1; five pairs.  Linear weights |g - h|: observed 0.5 + 2.7 = 3.2, expected
    (2 (2 * 0.5 + 1 * 2.7) + 1 (2 * 0.5 + 1 * 2.2) + 2 (2 * 2.7 + 2 * 2.2)) / 5 = 30.2 / 5; quadratic:
    observed 0.25 + 7.29, expected (2 (2 * 0.25 + 7.29) + (2 * 0.25 + 4.84) + 2 (2 * 7.29 + 2 * 4.84)) / 5.
    Truncated grades (0, 0, 2) would give other values."""
    a, b = _qrels([0, 0.5, 2.7, 0, 2.7]), _qrels([0, 0.5, 2.7, 0.5, 0])
    linear = irm.cohen_kappa(a, b, weights='linear').statistic
    assert linear == pytest.approx(1 - 3.2 / (30.2 / 5), rel=1e-13)
    quadratic = irm.cohen_kappa(a, b, weights='quadratic').statistic
    expected = (2 * (2 * 0.25 + 7.29) + (2 * 0.25 + 4.84) + 2 * (2 * 7.29 + 2 * 4.84)) / 5
    assert quadratic == pytest.approx(1 - 7.54 / expected, rel=1e-13)


def test_qrels_stats_count_each_real_grade():
    stats = irm.qrels_stats('q 0 a 0.5\nq 0 b 2.7\nq 0 c 0\nq 0 d 1e-3\n', rel=0.5).to_dict()
    assert stats['grades'] == {0.0: 1, 0.001: 1, 0.5: 1, 2.7: 1}
    assert stats['relevant'] == 2 and stats['share_relevant'] == 0.5 and stats['rel'] == 0.5


def test_unjudged_documents_take_the_highest_real_grade():
    """Judged a (0.5) and b (2.7); the run ranks a, then x, unjudged: assumed relevant, x is judged 2.7, the
    highest grade (its integer part, 2, would leave x below rel=2.7)."""
    bounds = irm.unjudged_bounds(['P(rel=2.7)@2', 'nDCG@2'], {'q': {'a': 0.5, 'b': 2.7}}, {'q': {'a': 2.0, 'x': 1.0}})
    assert bounds.grade == 2.7
    assert bounds.nonrelevant[0].tolist() == pytest.approx([0.0, 0.5 / (2.7 + 0.5 / math.log2(3))], rel=1e-15)
    ideal = 2.7 + 2.7 / math.log2(3)                                   # b and x, 2.7 each
    assert bounds.relevant[0].tolist() == pytest.approx([0.5, (0.5 + 2.7 / math.log2(3)) / ideal], rel=1e-15)


def test_tie_orders_read_a_gain_map_with_real_grades_as_it_is():
    """gains={2: 2.5}: grade 2 gains 2.5 and grade 2.7 keeps its value, 2.7, so the gain rises with the grade and
    the best and worst tie orders are nDCG's extremes (its integer part, 2, gains 2.5 and would look like a fall:
    no extremes).  a (2) and b (2.7) tied: worst order a, b; best b, a."""
    found = irm.tie_dependence(['nDCG(gains={2:2.5})'], {'q': {'a': 2, 'b': 2.7}}, {'q': {'a': 1.0, 'b': 1.0}})
    ideal = 2.7 + 2.5 / math.log2(3)
    assert found.lowest[0, 0] == pytest.approx((2.5 + 2.7 / math.log2(3)) / ideal, rel=1e-15)
    assert found.highest[0, 0] == pytest.approx(1.0, rel=1e-15)
