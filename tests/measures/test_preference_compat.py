"""Compatibility (Clarke, Vtyurina and Smucker 2021) from preference judgments: ``Preferences.ideal_qrels()``
evaluated with ``Compat``, on a case computed by hand, equal to ``Compat`` on graded qrels read as preferences,
and refused where the judgments are not one weak ordering."""
import numpy as np
import pytest
from reference_tools import reference

import irmetrics as irm
from irmetrics import Compat
from irmetrics.errors import InputError

ir_measures = reference('ir_measures')

#: a (3) > b, c (2, tied) > e (1); d is non-relevant (0.0) and leaves the ideal ranking; q2 has no relevant one
PREFS = 'q1 g s a 3.0\nq1 g s b 2.0\nq1 g s c 2.0\nq1 g s c 2.0\nq1 g s d 0.0\nq1 g s e 1.0\nq2 g s z 0.0\n'
#: c, x (unjudged), a, d
RUN = 'q1 Q0 c 1 4 r\nq1 Q0 x 2 3 r\nq1 Q0 a 3 2 r\nq1 Q0 d 4 1 r\nq2 Q0 z 1 1 r\n'


def test_compatibility_of_preferences_by_hand():
    """The ideal nearest the run puts c (retrieved) before b in their tie: a, c, b, e.  Prefixes of the run and
    the ideal share 0, 1, 2, 2 documents at depths 1-4 (D = max(4, 4)); the ideal shares i with itself (so, D being
    the ideal's length, the normalised and plain values coincide)."""
    p = 0.95
    run_ideal = 0 + p * 1 / 2 + p ** 2 * 2 / 3 + p ** 3 * 2 / 4
    ideal_ideal = 1 + p + p ** 2 + p ** 3
    got = irm.calc([Compat, Compat(normalize=False)], irm.read_trec_prefs(PREFS).ideal_qrels(), RUN)
    values = {(m.query_id, repr(m.measure)): m.value for m in got.iter_metrics()}
    assert values[('q1', 'Compat')] == pytest.approx(run_ideal / ideal_ideal, rel=1e-15)
    assert values[('q1', 'Compat(normalize=False)')] == pytest.approx(run_ideal / ideal_ideal, rel=1e-15)
    assert values[('q2', 'Compat')] == 0.0               # no document above 0.0: an empty ideal scores 0


def test_levels_below_one_are_in_the_ideal_ranking():
    """Levels are any positive numbers: 0.5 > 0.25 ranked in that order is the ideal itself."""
    got = irm.calc_aggregate([Compat], irm.read_trec_prefs('q g s x 0.5\nq g s y 0.25\n').ideal_qrels(),
                             'q Q0 x 1 2 r\nq Q0 y 2 1 r\n')
    assert got[Compat] == pytest.approx(1.0, rel=1e-15)


def test_qrels_read_as_preferences_give_the_compat_of_the_qrels():
    """Graded qrels are a weak ordering already (Clarke et al. 2020): read as preferences (trec_eval's
    qrels_prefs) they give the same ideal rankings, so the same values to the bit, ties of scores included."""
    rng = np.random.default_rng(7)
    for case in range(40):
        docs = [f'd{i}' for i in range(int(rng.integers(3, 25)))]
        qrels = ''.join(f'q{q} 0 {d} {int(rng.integers(0, 4))}\n' for q in range(3) for d in docs
                        if rng.random() < 0.6)
        run = ''.join(f'q{q} Q0 {d} 0 {int(rng.integers(0, 5))} r\n' for q in range(4) for d in docs
                      if rng.random() < 0.7)
        if not qrels:
            continue
        measures = [Compat, Compat(p=0.8), Compat(normalize=False)]
        from_prefs = irm.calc(measures, irm.read_trec_prefs(qrels, format='qrels_prefs').ideal_qrels(), run)
        from_qrels = irm.calc(measures, irm.read_trec_qrels(qrels), run)
        assert sorted(map(tuple, from_prefs.iter_metrics())) == sorted(map(tuple, from_qrels.iter_metrics())), case


@pytest.mark.parametrize('lines, problem', [
    ('q1 g1 s a 2\nq1 g2 s b 1\n', "query 'q1' is judged by 2 judgment groups ('g1', 'g2')"),
    ('q1 g s1 a 2\nq1 g s2 b 1\n', "query 'q1' is judged by judgment group 'g' of several sub-groups"),
])
def test_judgments_that_are_not_one_weak_ordering_are_refused(lines, problem):
    with pytest.raises(InputError, match=problem.replace('(', r'\(').replace(')', r'\)')):
        irm.read_trec_prefs(lines).ideal_qrels()


def test_real_grades_below_one_against_ir_measures():
    """ir_measures' compat provider puts every grade above 0 in the ideal ranking; so does Compat (it counted
    only grades of 1 or more in the ideal's length, gave 0 to query p and 0.6063 to q, where 0.3774 is due)."""
    qrels = [('q', 'x', 0.5), ('q', 'y', 0.25), ('q', 'z', 2), ('p', 'a', 0.5)]
    run = [('q', 'y', 3.0), ('q', 'x', 2.0), ('q', 'w', 1.0), ('p', 'b', 2.0), ('p', 'a', 1.0)]
    expected = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
        [ir_measures.Compat, ir_measures.Compat(p=0.8)], [ir_measures.Qrel(*q) for q in qrels],
        [ir_measures.ScoredDoc(*r) for r in run])}
    got = irm.calc([Compat, Compat(p=0.8)], [irm.Qrel(q, d, g) for q, d, g in qrels],
                   [irm.ScoredDoc(*r) for r in run])
    values = {(m.query_id, repr(m.measure)): m.value for m in got.iter_metrics()}
    assert values == pytest.approx(expected, rel=1e-14)          # summed in another order: an ulp apart
    assert min(values.values()) > 0.25
