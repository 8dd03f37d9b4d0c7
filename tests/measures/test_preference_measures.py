"""The preference and judgment-group measures on cases computed by hand, among them the examples in the
comments of trec_eval's get_prefs.c (the six documents that make 13 preferences), through ``irmetrics.calc``."""
import pytest

import irmetrics as irm
from irmetrics.errors import MeasureError, OptionError
from irmetrics.measures.prefs import APAvgJG, NumPrefs, PAvgJG, PrefsAvgJG, PrefsAvgJGRnonrel, PrefsPair, PrefsSimp

SIX = 'q1 u s d1 3.0\nq1 u s d2 2.0\nq1 u s d3 0.0\nq1 u s d4 6.0\nq1 u s d5 0.0\nq1 u s d6 2.0\n'
#: d4, d2, d3, d1 retrieved (docid ranks 0-3), d9 unjudged; d5 and d6 not retrieved (ranks 4 and 5)
RUN = 'q1 Q0 d4 1 9 r\nq1 Q0 d2 2 8 r\nq1 Q0 d3 3 7 r\nq1 Q0 d1 4 6 r\nq1 Q0 d9 5 5 r\n'


def values(measures, judgments, run=RUN):
    return dict(irm.calc(measures, judgments, run).aggregated)


def test_the_six_documents_of_get_prefs_c_make_13_preferences():
    """d4 > the 5 others, d1 > d2, d3, d5, d6, d2 and d6 > d3, d5: 13.  Fulfilled: d4's 5, d1 > d5, d6 (implied),
    d2 > d3, d2 > d5 (implied): 9, of which 4 with both retrieved (d4 > d1, d2, d3; d2 > d3); 6 preferences
    have both retrieved, 12 at least one."""
    prefs = irm.read_trec_prefs(SIX)
    got = values([NumPrefs, NumPrefs(what='fulfilled'), NumPrefs(what='fulfilled_ret'), PrefsSimp,
                  PrefsSimp(pairs='ret'), PrefsSimp(pairs='imp'), PrefsPair, PrefsAvgJG], prefs)
    assert list(got.values()) == [13, 9, 4, 9 / 13, 4 / 6, 9 / 12, 9 / 13, 9 / 13]


def test_rnonrel_adds_preferences_when_fewer_nonrelevant_than_relevant():
    """R = 4 relevant (d1, d2, d4, d6), N = 2 non-relevant: R - N = 2 more non-relevant documents, so 3
    relevant retrieved x 2 fulfilled and 4 x 2 possible preferences more: (9 + 6) / (13 + 8)."""
    assert values([PrefsAvgJGRnonrel], irm.read_trec_prefs(SIX))['PrefsAvgJGRnonrel'] == 15 / 21


@pytest.mark.parametrize('lines, expected', [
    # two sub-groups: 1 > 2 > 3 and 4 > 1 > 2, closed under transitivity (4 > 3 too; the comment lists 5)
    ('u sub1 d1 3.0|u sub1 d2 2.0|u sub1 d3 1.0|u sub2 d1 2.0|u sub2 d2 1.0|u sub2 d4 3.0', 6),
    # transitivity across sub-groups: 1 > 2 > 3, 2 > 4, so 1 > 4, and nothing between 3 and 4
    ('u sub1 d1 3.0|u sub1 d2 2.0|u sub1 d3 1.0|u sub2 d2 5.0|u sub2 d4 4.0', 5),
    # two judgment groups that disagree: 1 > 2; 3 > 1, 4 > 1, 3 > 4, 2 > 1
    ('u1 sub1 d1 3.0|u1 sub1 d2 2.0|u2 sub1 d1 0.0|u2 sub1 d3 6.0|u2 sub1 d4 2.0|u2 sub2 d1 0.0|u2 sub2 d2 8.0', 5),
])
def test_the_other_examples_of_get_prefs_c(lines, expected):
    text = ''.join(f'q1 {line}\n' for line in lines.split('|'))
    assert values([NumPrefs], irm.read_trec_prefs(text))['NumPrefs'] == expected


def test_disagreeing_groups_make_the_pair_measure_differ_from_the_simple_ratio():
    """Group u1: d1 > d2; group u2: d2 > d1 and d3 > d1.  Ranking d1, d2, d3: d1 > d2 fulfilled once and
    failed once (pair value 1/2), d3 > d1 failed (0): PrefsPair = 1/4, PrefsSimp = 1/3, PrefsAvgJG = (1 + 0) / 2."""
    prefs = irm.read_trec_prefs('q u1 s d1 2\nq u1 s d2 1\nq u2 s d2 2\nq u2 s d3 2\nq u2 s d1 1\n')
    got = values([PrefsPair, PrefsSimp, PrefsAvgJG], prefs, 'q Q0 d1 1 3 r\nq Q0 d2 2 2 r\nq Q0 d3 3 1 r\n')
    assert list(got.values()) == [1 / 4, 1 / 3, 1 / 2]


def test_ties_in_a_run_rank_by_document_id_ascending_for_preferences():
    prefs = irm.read_trec_prefs('q u s a 1\nq u s b 2\n')
    assert values([PrefsSimp], prefs, 'q Q0 a 1 1.0 r\nq Q0 b 2 1.0 r\n')['PrefsSimp'] == 0.0   # a first
    assert values([PrefsSimp], prefs, 'q Q0 a 1 0.5 r\nq Q0 b 2 1.0 r\n')['PrefsSimp'] == 1.0


def test_qrels_read_as_preferences_one_group_per_iteration():
    prefs = irm.read_trec_prefs('q 0 d1 2\nq 0 d2 0\nq 0 d3 1\nq A d1 0\nq A d2 1\n', format='qrels_prefs')
    assert values([NumPrefs, NumPrefs(what='fulfilled')], prefs, 'q Q0 d2 1 2 r\nq Q0 d1 2 1 r\n') == \
        {'NumPrefs': 4, "NumPrefs(what='fulfilled')": 2}      # d1 > d3 > d2, d1 > d2: 1 of 3; group A: d2 > d1


def test_judgment_groups_average_each_groups_value():
    """q1: alice judges d4 (2) and d1 (1) relevant, bob d3: AP 0.75 and 1/3; q2: AP 5/6 (the example files)."""
    groups = irm.read_trec_qrels_jg('examples/qrels_jg.txt')
    result = irm.calc(['map_avgjg', 'P_avgjg.5', 'qrels_jg'], groups, 'examples/prefs_run.txt')
    assert result.query_ids == ['q1', 'q2']
    ap = result.values[:, result.measures.index(APAvgJG)].tolist()
    assert ap == [(0.75 + 1 / 3) / 2, (1 + 2 / 3) / 2]
    assert result.values[:, result.measures.index(PAvgJG(cutoff=5))].tolist() == [(2 / 5 + 1 / 5) / 2, 2 / 5]


def test_a_query_missing_from_the_run_is_evaluated_on_an_empty_ranking():
    prefs = irm.read_trec_prefs(SIX.replace('q1', 'q0') + SIX)
    result = irm.calc([NumPrefs, PrefsSimp], prefs, RUN)
    assert result.query_ids == ['q0', 'q1'] and result.values[0].tolist() == [13, 0.0]


@pytest.mark.parametrize('measures, judgments, message', [
    (['prefs_simp'], 'examples/qrels.txt', 'PrefsSimp is computed from preference judgments'),
    (['AP'], irm.read_trec_prefs(SIX), 'AP is not computed from preference judgments'),
    (['Compat'], irm.read_trec_prefs(SIX), r'Compat is not computed .* prefs\.ideal_qrels\(\), run\)'),
    (['map_avgjg'], irm.read_trec_prefs(SIX), 'AP_avgjg is not computed from preference judgments'),
    (['prefs_simp'], irm.read_trec_qrels_jg('examples/qrels_jg.txt'), 'not computed from judgment groups'),
])
def test_measures_of_other_judgments_are_refused(measures, judgments, message):
    with pytest.raises(MeasureError, match=message):
        irm.calc(measures, judgments, 'examples/run_bm25.txt')


def test_options_that_do_not_apply_are_refused():
    with pytest.raises(OptionError, match='provider: not an option'):
        irm.calc(['prefs_simp'], irm.read_trec_prefs(SIX), RUN, provider='native')


def test_an_evaluator_of_qrels_refuses_preferences_with_the_way_to_evaluate_them():
    with pytest.raises(irm.InputError, match='Preferences are not qrels: irmetrics.calc'):
        irm.evaluator(['prefs_simp'], irm.read_trec_prefs(SIX))
