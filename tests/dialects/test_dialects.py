"""irmetrics.dialects: one parse function with a dialect, and the default rule that reads a word the
same way in Python and on the command line (docs/conventions.md, "Measure names")."""
import os
import re
import subprocess
import sys

import pytest
from cli_support import irmetrics, write_inputs

import irmetrics as irm
from irmetrics import AP, DCG, ERR, RBP, RR, P, R, SetP, SetR, Success, nDCG
from irmetrics.algebra.measure import Measure
from irmetrics.dialects import DIALECTS, parse_measures
from irmetrics.dialects.trec_eval import _BY_TREC, _no_repeats
from irmetrics.errors import AmbiguousMeasureError, MeasureError, MeasureSyntaxError, UnknownMeasureError
from irmetrics.providers.base import ANY, Pattern

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: word -> what the default rule reads it as: one dialect reads it, or those that do agree.
AGREED = {
    'nDCG@10': [nDCG @ 10],                       # irmetrics only
    'ndcg_cut.10': [nDCG @ 10],                   # trec_eval only
    'ndcg@10': [nDCG @ 10],                       # ranx only
    'precision@5': [P @ 5],                       # ranx only
    'precision': [SetP],                          # ranx's whole-ranking precision
    'map': [AP],                                  # trec_eval and ranx agree
    'ndcg': [nDCG],                               # trec_eval and ranx agree
    'dcg': [DCG],
    'P': [P @ k for k in CUTOFFS],                # irmetrics' P lacks a cutoff: trec_eval's reading
    'success': [Success @ k for k in (1, 5, 10)],
    'RR': [RR],
    'P.5,10': [P @ 5, P @ 10],
}

#: word -> {dialect: reading} for the words two dialects read differently.
COLLIDING = {
    'recall': {'trec_eval': [R @ k for k in CUTOFFS], 'ranx': [SetR]},
    'rbp': {'trec_eval': [RBP(max_rel='query', p=0.9)], 'ranx': [RBP]},
}


@pytest.mark.parametrize('word', sorted(AGREED))
def test_the_default_rule_reads_what_the_dialects_agree_on(word):
    assert parse_measures(word) == AGREED[word]


@pytest.mark.parametrize('word', sorted(COLLIDING))
def test_a_word_two_dialects_read_differently_is_an_error_naming_both_readings(word):
    with pytest.raises(AmbiguousMeasureError) as info:
        parse_measures(word)
    message = str(info.value)
    for dialect, reading in COLLIDING[word].items():
        assert f'{dialect}: {", ".join(map(repr, reading))}' in message
    assert "dialect='trec_eval' or 'ranx'" in message and info.value.readings == COLLIDING[word]
    for dialect, reading in COLLIDING[word].items():          # naming the dialect chooses its reading
        assert parse_measures(word, dialect=dialect) == reading


def test_each_dialect_reads_only_its_own_names():
    assert irm.parse_measure('nDCG@10', dialect='irmetrics') == nDCG @ 10
    assert irm.parse_measure('ndcg_cut.10', dialect='trec_eval') == nDCG @ 10
    assert irm.parse_measure('ndcg@10', dialect='ranx') == nDCG @ 10
    with pytest.raises(UnknownMeasureError):
        irm.parse_measure('ndcg_cut.10', dialect='irmetrics')
    with pytest.raises(UnknownMeasureError):
        irm.parse_measure('nDCG@10', dialect='trec_eval')
    with pytest.raises(MeasureError):
        irm.parse_measure('nDCG@10', dialect='ranx')
    with pytest.raises(MeasureError, match='unknown measure dialect'):
        irm.parse_measure('AP', dialect='trec')
    assert set(DIALECTS) == {'irmetrics', 'trec_eval', 'ranx'}


def test_parse_measure_refuses_a_word_that_names_several_measures():
    with pytest.raises(MeasureError, match=r"names 9 measures .*parse_measures.*e\.g\. P@10"):
        irm.parse_measure('P')
    assert irm.parse_measure('P_5') == P @ 5


def test_the_error_shown_is_the_one_of_the_dialect_that_knew_the_name():
    with pytest.raises(MeasureError, match="trec_eval measure 'P' takes no|invalid parameter 'x' in trec_eval"):
        parse_measures('P.x')                                 # trec_eval knew P, not its parameters
    with pytest.raises(UnknownMeasureError, match='did you mean'):
        parse_measures('nDGC@10')                              # nobody knew it: irmetrics' suggestions
    with pytest.raises(MeasureSyntaxError, match='cannot parse measure'):
        parse_measures('P(rel=2@5')
    with pytest.raises(MeasureError, match='cutoff'):
        parse_measures('nDCG@0')                               # irmetrics knew nDCG: its parameter error


def test_words_read_the_same_in_python_and_on_the_command_line(tmp_path):
    write_inputs(tmp_path)
    for word, expected in AGREED.items():
        if word in ('P', 'success'):
            continue                                           # many lines; checked by the P.5,10 case
        shown = irmetrics('qrels', 'a.run', word, '-f', 'tsv', cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert [line.split('\t')[0] for line in shown.stdout.splitlines()] == [repr(m) for m in expected]
    for word, readings in COLLIDING.items():
        refused = irmetrics('qrels', 'a.run', word, cwd=tmp_path)
        assert refused.returncode == 2 and 'different measures in different dialects' in refused.stderr
        assert 'choose with --dialect' in refused.stderr and 'dialect=' not in refused.stderr
        for dialect, reading in readings.items():
            chosen = irmetrics('qrels', 'a.run', word, '--dialect', dialect, '-f', 'tsv', cwd=tmp_path)
            assert [line.split('\t')[0] for line in chosen.stdout.splitlines()] == [repr(m) for m in reading]


def test_patterns_are_keyed_by_the_definition_and_checked_when_built():
    assert Pattern(nDCG, cutoff=ANY).matches(nDCG @ 10)
    assert not Pattern(nDCG, cutoff=ANY).matches(DCG @ 10)
    with pytest.raises(MeasureError, match="no parameter 'cutof'"):
        Pattern(nDCG, cutof=ANY)
    with pytest.raises(MeasureError):
        Pattern(nDCG, cutoff=(0,))                            # a value the parameter refuses


def test_the_name_tables_are_checked_against_the_definitions_they_name():
    from irmetrics.dialects import trec_eval
    with pytest.raises(TypeError, match="trec_eval name 'map': AP has no parameter 'cutof'"):
        trec_eval._check_table([trec_eval.TrecName('map', AP, preset={'cutof': 5})])
    with pytest.raises(MeasureError):
        trec_eval._check_table([trec_eval.TrecName('map', AP, preset={'rel': -1})])    # a value AP refuses
    trec_eval._check_table(trec_eval.TREC_NAMES)                                         # the shipped table


def test_measures_given_as_a_set_come_in_one_order_whatever_the_hash_seed():
    """A set iterates in an order that follows the process's hash seed: the processes of a distributed evaluation
    would number their columns differently.  Its measures are sorted by name; a dict's keys keep the dict's order."""
    words = {'nDCG@10', 'R@20', 'AP', 'ERR@10', 'P.5,10'}
    expected = [AP, ERR @ 10, P @ 10, P @ 5, R @ 20, nDCG @ 10]
    assert parse_measures(words) == expected
    assert parse_measures(frozenset(words)) == parse_measures({*expected}) == expected
    assert parse_measures(dict.fromkeys(['R@20', 'AP']).keys()) == [R @ 20, AP]
    code = 'import irmetrics; print(irmetrics.parse_measures({"nDCG@10", "R@20", "AP", "ERR@10", "RR", "P@5"}))'
    printed = {subprocess.run([sys.executable, '-c', code], env={**os.environ, 'PYTHONHASHSEED': seed},
                              capture_output=True, text=True, check=True).stdout for seed in ('1', '2', '3')}
    assert printed == {'[AP, ERR@10, P@5, R@20, RR, nDCG@10]\n'}


def test_a_long_list_is_deduplicated_in_linear_time_keeping_the_first_of_each(monkeypatch):
    # the measures are compared by hash (a dict), not each with every one kept before: counting the
    # comparisons asserts the complexity without timing anything
    comparisons = 0
    equal = Measure.__eq__

    def counted(self, other):
        nonlocal comparisons
        comparisons += 1
        return equal(self, other)

    monkeypatch.setattr(Measure, '__eq__', counted)
    n = 3000
    words = [f'P@{k}' for k in range(1, n + 1)]
    text = ' '.join(words + ['ndcg_cut.7', 'nDCG@7'] + words[::-1])       # each twice, and a spelling of one
    assert parse_measures(text) == [P @ k for k in range(1, n + 1)] + [nDCG @ 7]
    assert comparisons <= 4 * n                                 # one per duplicate, not n * n / 2


def test_a_long_trec_eval_list_is_checked_for_repeats_in_linear_time():
    class Cutoff(int):                                           # an int that counts its comparisons
        comparisons = 0

        def __eq__(self, other):
            Cutoff.comparisons += 1
            return int(self) == int(other)

        __hash__ = int.__hash__

    n = 3000
    _no_repeats(_BY_TREC['P'], [Cutoff(k) for k in range(n)])
    assert Cutoff.comparisons <= n
    with pytest.raises(MeasureError, match="parameter 7 given twice"):
        _no_repeats(_BY_TREC['P'], [Cutoff(k) for k in range(n)] + [Cutoff(7)])
    assert parse_measures('P.' + ','.join(map(str, range(n, 0, -1)))) == [P @ k for k in range(1, n + 1)]


@pytest.mark.parametrize('word, measure', [('HitRate@10', 'Success@10'), ('HR@10', 'Success@10'),
                                           ('hit_rate@10', 'Success@10'), ('MRR', 'RR'), ('MRR@10', 'RR@10'),
                                           ('MAP', 'AP'), ('MAP@100', 'AP@100')])
def test_the_names_recommender_people_use(word, measure):
    """The hit rate (RecBole's Hit, ranx's hit_rate, torchmetrics' RetrievalHitRate: the share of users with a
    relevant item in the top k) is Success@k, not Hits@k (a count); MRR is RR and MAP is AP."""
    assert irm.parse_measure(word) == irm.parse_measure(measure)


@pytest.mark.parametrize('word, spelling', [('Coverage@10', 'Coverage(catalogue=N)@10'),
                                            ('Gini', 'Gini(catalogue=N)@10'), ('HitRate', 'Success@10'),
                                            ("NERR8", 'NERR8(max_rel=N)@10')])
def test_a_missing_parameter_is_answered_with_the_exact_spelling(word, spelling):
    with pytest.raises(irm.MeasureError, match=rf'needs parameter\(s\) .* \(e\.g\. {re.escape(spelling)}\)$'):
        irm.parse_measure(word)
