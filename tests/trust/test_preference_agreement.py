"""Two sets of preference judgments (irmetrics.preference_agreement): the pairwise agreement and Cohen's kappa
over pairs against scikit-learn's cohen_kappa_score on generated preference files, per query and overall;
hand-computed cases (ties, pairs one set orders, judgment groups that contradict each other, sub-groups closed
under transitivity); the one renderer; bad input one clear error."""
import math

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import irmetrics as irm
from irmetrics.errors import InputError


def generated(seed, queries=4, docs=12, ties=True):
    """Two preference files of one judgment group of one sub-group per query, on overlapping documents, and
    each pair's label (1: the first document in byte-wise order preferred, 0 tied, -1 the second) in both."""
    rng = np.random.default_rng(seed)
    files, levels = [], []
    for _ in range(2):
        judged = {}
        for q in range(queries):
            for d in range(docs):
                if rng.random() < 0.75:
                    judged[f'q{q}', f'd{d:02}'] = float(rng.integers(0, 4)) if ties else float(rng.random())
        files.append(''.join(f'{q} g s {d} {level}\n' for (q, d), level in judged.items()))
        levels.append(judged)
    pairs = {}
    for q in range(queries):
        for i in range(docs):
            for j in range(i + 1, docs):
                x, y = (f'q{q}', f'd{i:02}'), (f'q{q}', f'd{j:02}')
                if all(x in lv and y in lv for lv in levels):
                    pairs.setdefault(f'q{q}', []).append([int(np.sign(lv[x] - lv[y])) for lv in levels])
    return files, pairs


@pytest.mark.parametrize('seed', range(12))
@pytest.mark.parametrize('ties', [True, False])
def test_agreement_and_kappa_against_scikit_learn(seed, ties):
    (a, b), pairs = generated(seed, ties=ties)
    result = irm.preference_agreement(a, b)
    every = np.array([p for q in sorted(pairs) for p in pairs[q]])
    assert result.kappa.both == len(every)
    assert result.kappa.statistic == pytest.approx(cohen_kappa_score(every[:, 0], every[:, 1]), abs=1e-12)
    assert result.agreement.statistic == pytest.approx(np.mean(every[:, 0] == every[:, 1]), abs=1e-15)
    assert len(result.labels) == (3 if ties else 2)          # no tie among real-valued levels
    frame = result.to_dataframe()
    for q, labelled in pairs.items():
        got = np.array(labelled)
        assert frame.loc[q, 'both'] == len(got)
        expected = cohen_kappa_score(got[:, 0], got[:, 1])
        value = frame.loc[q, "Cohen's kappa (3 labels)" if ties else "Cohen's kappa (2 labels)"]
        assert (math.isnan(value) and math.isnan(expected)) or value == pytest.approx(expected, abs=1e-12)


def test_a_case_by_hand():
    """Pairs (d1, d2), (d1, d3), (d2, d3): a says first, first, tied; b says second, tied, first.  None alike:
    p_o = 0; a's margins (2/3 first, 1/3 tied) and b's (1/3 each) give p_e = 1/3, so kappa = -1/3 / (2/3)."""
    a = irm.read_trec_prefs('q1 u s d1 3\nq1 u s d2 2\nq1 u s d3 2\n')
    b = irm.read_trec_prefs('q1 v s d1 1\nq1 v s d2 2\nq1 v s d3 1\n')
    result = irm.preference_agreement(a, b)
    assert (result.agreement.statistic, result.kappa.statistic) == (0.0, -0.5)
    assert result.labels == ('second preferred', 'tied', 'first preferred')
    assert result.counts.tolist() == [[0, 0, 0], [0, 0, 1], [1, 1, 0]]


def test_pairs_one_set_orders_are_counted_and_left_out():
    """a judges d1, d2, d3 (3 pairs), b judges d2, d3, d4 (3 pairs): (d2, d3) in common, 2 pairs each alone."""
    a = 'q1 u s d1 2\nq1 u s d2 1\nq1 u s d3 0\n'
    b = 'q1 u s d2 5\nq1 u s d3 1\nq1 u s d4 0\nq2 u s d1 1\n'
    result = irm.preference_agreement(a, b)
    assert (result.kappa.both, result.kappa.only_a, result.kappa.only_b) == (1, 2, 2)
    assert result.agreement.statistic == 1.0
    assert result.to_dataframe().loc['q2'].tolist()[:3] == [0, 0, 0]       # one document: no pair


def test_judgment_groups_that_contradict_each_other_leave_the_pair_out():
    """Two assessors of a: u prefers d1 to d2, v d2 to d1 (contradicted); both prefer d1 to d3 and d2 to d3
    (v ties nothing there: d3 is below both).  b: d1 > d2 > d3."""
    a = 'q1 u s d1 2\nq1 u s d2 1\nq1 u s d3 0\nq1 v s d1 1\nq1 v s d2 2\nq1 v s d3 0\n'
    b = 'q1 w s d1 3\nq1 w s d2 2\nq1 w s d3 1\n'
    result = irm.preference_agreement(a, b)
    assert (result.contradicted_a, result.contradicted_b, result.kappa.both) == (1, 0, 2)
    assert result.agreement.statistic == 1.0
    assert 'ordered both ways' in result.render()


def test_sub_groups_order_through_transitivity_and_tie_nothing():
    """Sub-group s1: d1 > d2; s2: d2 > d3, d3 = d4 in level (a tie only within a group of one sub-group, so
    not here).  The closure orders d1 > d2, d1 > d3, d2 > d3, d2 > d4, d1 > d4; (d3, d4) is not ordered."""
    a = 'q1 u s1 d1 2\nq1 u s1 d2 1\nq1 u s2 d2 3\nq1 u s2 d3 1\nq1 u s2 d4 1\n'
    b = 'q1 w s d1 4\nq1 w s d2 3\nq1 w s d3 2\nq1 w s d4 2\n'
    result = irm.preference_agreement(a, b)
    assert (result.kappa.both, result.kappa.only_b) == (5, 1)
    assert result.labels == ('first preferred',) and result.agreement.statistic == 1.0
    with pytest.warns(Warning, match='undefined'):           # one label throughout: kappa undefined
        assert math.isnan(irm.preference_agreement(a, b).kappa.statistic)


def test_rendered_through_the_one_renderer():
    result = irm.preference_agreement('examples/prefs.txt', 'examples/prefs.txt', names=('first', 'second'))
    assert result.render('csv').splitlines()[0] == 'statistic,value'
    assert '| first preferred | 0 | 0 | 12 |' in result.render('markdown')      # d1 > d2 > ... of examples/prefs.txt
    assert result.to_dict()['contradicted_a'] == 1 and result.agreement.statistic == 1.0
    assert '\\begin{tabular}' in result.render('latex')


@pytest.mark.parametrize('a, b, message', [
    ('q1 u s d1 1\nq1 u s d2 0\n', 'q2 u s d1 1\nq2 u s d2 0\n', 'no query in common'),
    ('q1 u s d1 1\nq1 u s d2 0\n', 'q1 u s d3 1\nq1 u s d4 0\n', 'order no pair of documents in common'),
])
def test_bad_input_is_one_clear_error(a, b, message):
    with pytest.raises(InputError, match=message):
        irm.preference_agreement(a, b)
