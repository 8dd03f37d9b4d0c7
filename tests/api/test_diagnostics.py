"""Warnings instead of silent zeros (docs/conventions.md, "Warnings"): each mistake users make gives one
IrmetricsWarning naming the source and the likely cause, strict=True makes it an error, and input
without those mistakes gives none."""
import warnings

import pytest

import irmetrics as irm
from irmetrics import InputError, IrmetricsWarning

QRELS = {'1': {'a': 1, 'b': 0}, '2': {'c': 2}, '3': {'d': 1}}


def warned(function, *args, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        function(*args, **kwargs)
    return [str(w.message) for w in caught if issubclass(w.category, IrmetricsWarning)]


def test_clean_input_gives_no_warning():
    run = {'1': {'a': 1.0}, '2': {'c': 1.0}, '3': {'x': 1.0}}
    assert warned(irm.calc_aggregate, ['AP', 'P@5'], QRELS, run) == []


@pytest.mark.parametrize('run_ids, cause', [
    (['001', '002'], 'the ids differ only by leading zeros'),
    (['Q1'], None),
    (['A', 'B'], "the run's query ids are document ids of the qrels: were qrels and run swapped?"),
])
def test_no_run_query_in_the_qrels(run_ids, cause):
    qrels = {'q1': {'a': 1}, 'q2': {'b': 1}} if run_ids == ['Q1'] else {'1': {'A': 1}, '2': {'B': 1}}
    if run_ids == ['Q1']:
        cause = 'the ids differ only by upper and lower case'
    run = {q: {'a': 1.0} for q in run_ids}
    [message] = warned(irm.calc_aggregate, ['AP'], qrels, run)
    assert message.startswith(f"run dict: none of the run's {len(run_ids)} query ids is a query of the qrels")
    assert 'every query scores 0' in message and message.endswith(cause)


def test_queries_missing_from_the_run_are_counted_and_named():
    [message] = warned(irm.calc_aggregate, ['AP'], QRELS, {'1': {'a': 1.0}})
    assert message == "run dict: 2 of the 3 qrels queries are not in the run ('2', '3'); they score 0 (trec_eval -c)"


def test_an_empty_run_and_an_empty_query():
    assert warned(irm.calc_aggregate, ['AP'], QRELS, {}) == ['run dict: the run retrieves no document: every '
                                                             'query scores 0']
    messages = warned(irm.calc_aggregate, ['AP'], QRELS, {'1': {'a': 1.0}, '2': {}, '3': {'d': 1.0}})
    assert messages[0] == "1 query of the run dict ('2') retrieves no document: it scores 0"


def test_blank_lines_are_counted_with_the_first(tmp_path, layout):
    path = tmp_path / 'run'
    path.write_text('1 Q0 a 1 1 r\n\n \t \n2 Q0 c 1 1 r\n3 Q0 d 1 1 r\n\n\n')   # trailing blank lines: fine
    assert warned(irm.read_trec_run, path) == [f'{path}: 2 blank lines skipped (the first is line 2)']
    assert warned(irm.read_trec_run, '1 Q0 a 1 1 r\n2 Q0 c 1 1 r\n\n') == []


def test_a_blank_line_in_a_large_single_spaced_file(tmp_path):
    path = tmp_path / 'run'
    lines = [f'q{i % 97} Q0 d{i} 1 {i} r' for i in range(120_000)]
    path.write_text('\n'.join(lines[:70_000]) + '\n\n' + '\n'.join(lines[70_000:]) + '\n')
    assert path.stat().st_size > 2 << 20
    assert warned(irm.read_trec_run, path) == [f'{path}: 1 blank line skipped (the first is line 70001)']


def test_a_relevance_level_no_grade_reaches():
    messages = warned(irm.calc_aggregate, ['P(rel=3)@5', 'AP(rel=3)', 'P@5'], QRELS, {'1': {'a': 1.0},
                                                                                 '2': {'c': 1.0}, '3': {'d': 1.0}})
    assert messages == ['qrels dict: no judgment has grade >= 3 (the highest is 2), so P(rel=3)@5, AP(rel=3) '
                        'count no document as relevant']


def test_rbp_reading_grades_above_1_as_gains():
    """Plain RBP on graded qrels reads grade 2 as a gain of 2, so its value can exceed 1; each way to mean
    something else is named, and they warn nothing."""
    run = {'1': {'a': 1.0}, '2': {'c': 1.0}, '3': {'d': 1.0}}
    messages = warned(irm.calc_aggregate, ['RBP', 'RBP(p=0.5)@5'], QRELS, run)
    assert messages == ["qrels dict: RBP reads the grades as its gains (the highest is 2), so its values may exceed "
                        "1: RBP(rel=1) counts grades >= 1 as relevant, RBP(max_rel=2) scales the gains to [0, 1], "
                        "RBP(max_rel='query') is trec_eval's rbp"]
    for meant in ('RBP(rel=1)', 'RBP(max_rel=2)', "RBP(max_rel='query')", 'RBP(gains={2:1})'):
        assert warned(irm.calc_aggregate, [meant], QRELS, run) == [], meant
    assert warned(irm.calc_aggregate, ['RBP'], {'1': {'a': 1}}, {'1': {'a': 1.0}}) == []     # binary qrels


def test_strict_makes_every_warning_an_error(tmp_path):
    with pytest.raises(InputError, match=r"2 of the 3 qrels queries are not in the run"):
        irm.calc_aggregate(['AP'], QRELS, {'1': {'a': 1.0}}, strict=True)
    with pytest.raises(InputError, match='no judgment has grade >= 3'):
        irm.evaluator(['P(rel=3)@5'], QRELS, strict=True)
    ev = irm.evaluator(['AP'], QRELS, strict=True)
    with pytest.raises(InputError, match=r'<text>: 1 blank line skipped \(the first is line 2\)'):
        ev.calc('1 Q0 a 1 1 r\n\n2 Q0 c 1 1 r\n3 Q0 d 1 1 r\n')
    assert irm.calc_aggregate(['AP'], QRELS, {'1': {'a': 1.0}, '2': {'c': 1.0}, '3': {'d': 1.0}}, strict=True)


def test_warnings_point_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        irm.calc_aggregate(['AP'], QRELS, {'1': {'a': 1.0}})
    assert caught[0].filename == __file__
