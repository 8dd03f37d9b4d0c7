"""Catalogue coverage and the Gini index of exposure (irmetrics/measures/beyond_accuracy.py,
providers/native/beyond_accuracy.py): one value per run, hand-computed from the formulas."""
import numpy as np
import pytest
from cli_support import irmetrics

import irmetrics as irm
from irmetrics import Coverage, Gini
from irmetrics.errors import MeasureError

QRELS = {'u1': {'a': 1}, 'u2': {'b': 1}, 'u3': {'c': 1}}
# u3 is missing from the run, u4 is not in the qrels (its items do not count)
RUN = {'u1': {'a': 3.0, 'b': 2.0, 'c': 1.0}, 'u2': {'a': 3.0, 'd': 2.0}, 'u4': {'z': 1.0}}


def gini(slots, n):
    x = np.sort(np.concatenate((np.zeros(n - len(slots)), slots)))
    return sum((2 * i - n - 1) * v for i, v in enumerate(x, 1)) / (n * x.sum())


def test_hand_computed_values():
    got = irm.calc_aggregate([Coverage(catalogue=5) @ 2, Gini(catalogue=5) @ 2, Coverage(catalogue=4) @ 1], QRELS, RUN)
    # top 2: u1 a, b; u2 a, d -> a: 2 slots, b: 1, d: 1 of 5 items
    assert got[Coverage(catalogue=5) @ 2] == 3 / 5
    assert got[Gini(catalogue=5) @ 2] == pytest.approx(gini(np.array([2.0, 1.0, 1.0]), 5))
    assert got[Gini(catalogue=5) @ 2] == pytest.approx((-4 * 0 - 2 * 0 + 0 * 1 + 2 * 1 + 4 * 2) / (5 * 4))
    assert got[Coverage(catalogue=4) @ 1] == 1 / 4                       # top 1: a for both users


def test_equal_exposure_is_zero_and_nothing_recommended_is_zero():
    run = {'u1': {'a': 1.0}, 'u2': {'b': 1.0}}
    assert irm.calc_aggregate([Gini(catalogue=2) @ 1], QRELS, run)[Gini(catalogue=2) @ 1] == 0.0
    assert irm.calc_aggregate([Gini(catalogue=2) @ 1], QRELS, {'u4': {'a': 1.0}})[Gini(catalogue=2) @ 1] == 0.0


def test_the_order_of_the_run_lines_changes_nothing():
    shuffled = {q: dict(reversed(list(docs.items()))) for q, docs in reversed(list(RUN.items()))}
    measures = [Coverage(catalogue=6) @ 2, Gini(catalogue=6) @ 3]
    assert irm.calc_aggregate(measures, QRELS, shuffled) == irm.calc_aggregate(measures, QRELS, RUN)


def test_parameters_and_the_catalogue_are_checked():
    with pytest.raises(MeasureError, match='cutoff'):
        irm.parse_measure('Coverage(catalogue=5)')
    with pytest.raises(MeasureError, match='catalogue'):
        irm.parse_measure('Coverage@5')
    with pytest.raises(MeasureError, match='recommends 3 distinct items, more than the catalogue of 2'):
        irm.calc_aggregate([Coverage(catalogue=2) @ 2], QRELS, RUN)
    with pytest.raises(MeasureError, match='whole run'):
        irm.compare({'a': RUN, 'b': RUN}, QRELS, [Coverage(catalogue=5) @ 2])


def test_the_command_line_prints_the_run_value(tmp_path):
    (tmp_path / 'qrels').write_text('u1 0 a 1\nu2 0 b 1\nu3 0 c 1\n')
    (tmp_path / 'run').write_text('u1 Q0 a 1 3 r\nu1 Q0 b 2 2 r\nu1 Q0 c 3 1 r\nu2 Q0 a 1 3 r\nu2 Q0 d 2 2 r\n')
    shown = irmetrics('qrels', 'run', 'AP', 'Coverage(catalogue=5)@2', '-f', 'tsv', cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[-1] == 'Coverage(catalogue=5)@2\t0.6000'
