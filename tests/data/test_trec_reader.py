"""Reading qrels and runs: every input format, and every bad input named by file and line.

TREC files are read by two implementations and ids are held in two layouts; the ``layout``
fixture (conftest.py) runs a test under both.
"""
import bz2
import gzip
import lzma
from collections import namedtuple

import numpy as np
import pandas as pd
import pytest
from repo_paths import FIXTURES

import irmetrics as irm
from irmetrics import AP, DuplicateError, InputError, NumQ, NumRel, NumRet, P, nDCG

TESTDATA = FIXTURES / 'trec_eval' / 'nist'

QRELS_TEXT = 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n'
RUN_TEXT = 'q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.9 tag\nq1 Q0 d3 3 0.1 tag\nq3 Q0 d1 1 1.0 tag\n'
QRELS_ROWS = [('q1', 'd1', 1, '0'), ('q1', 'd2', 0, '0'), ('q1', 'd3', 2, '0'), ('q2', 'd1', 1, '0')]
RUN_ROWS = [('q1', 'd2', 0.9), ('q1', 'd1', 0.5), ('q1', 'd3', 0.1), ('q3', 'd1', 1.0)]   # ranked
MEASURES = [AP, nDCG@10, P@2, NumQ, NumRel, NumRet]
EXPECTED = {AP: (1 / 2 + 2 / 3) / 2 / 2, P@2: 0.25, NumQ: 2, NumRel: 3, NumRet: 3}


def write(tmp_path, name, text, opener=open):
    path = tmp_path / name
    with opener(path, 'wt') as f:
        f.write(text)
    return path


def rows(run):
    return [tuple(r) for r in run]


def file_order(run):
    """(query, doc, score) of each kept row, in input order."""
    q = run.query_ids.to_list()
    return list(zip([q[i] for i in run.qidx.tolist()], run.doc_ids.to_list(), run.scores.tolist(), strict=True))


def check_values(qrels, run):
    got = irm.calc_aggregate(MEASURES, qrels, run)
    for m, value in EXPECTED.items():
        assert got[m] == pytest.approx(value, abs=1e-12), m
    return got


# --- sources --------------------------------------------------------------------------------------
@pytest.mark.parametrize('kind', ['str', 'pathlib', 'gz', 'bz2', 'xz', 'text', 'bytes'])
def test_every_source_reads_the_same(tmp_path, layout, kind):
    if kind in ('text', 'bytes'):
        qrels_src, run_src = QRELS_TEXT, RUN_TEXT
        if kind == 'bytes':
            qrels_src, run_src = qrels_src.encode(), run_src.encode()
    else:
        opener = {'gz': gzip.open, 'bz2': bz2.open, 'xz': lzma.open}.get(kind, open)
        suffix = '' if opener is open else '.' + kind
        qrels_src = write(tmp_path, 'qrels' + suffix, QRELS_TEXT, opener)
        run_src = write(tmp_path, 'run' + suffix, RUN_TEXT, opener)
        if kind == 'str':
            qrels_src, run_src = str(qrels_src), str(run_src)
    qrels, run = irm.read_trec_qrels(qrels_src), irm.read_trec_run(run_src)
    assert run.doc_ids.layout == qrels.doc_ids.layout == ('arrow' if layout == 'arrow' else 'numpy')
    assert [tuple(q) for q in qrels] == QRELS_ROWS
    assert rows(run) == RUN_ROWS
    check_values(qrels, run)
    check_values(qrels_src, run_src)                 # the API accepts the sources themselves


def test_white_space_of_any_kind_separates_fields(layout):
    qrels = irm.read_trec_qrels('q1\t0\td1\t1\r\n  q1   0 d2\t 0  \n\n\tq1 0 d3 2\nq2 0 d1 1')
    run = irm.read_trec_run('q1\tQ0\td1\t1\t  0.5\ttag\r\nq1 Q0  d2 2 0.9 tag\n\n\nq1 Q0 d3 3 0.1 tag   \n'
                            'q3 Q0 d1 1 1.0 tag')
    assert [tuple(q) for q in qrels] == QRELS_ROWS
    assert rows(run) == RUN_ROWS


def test_trec_eval_test_files_with_tabs_and_padded_scores(layout):
    path = TESTDATA / 'results.test'
    raw = path.read_bytes()
    assert b'\t' in raw and b'  ' in raw                 # tab-separated, scores padded with spaces
    fields = [line.split() for line in raw.decode().splitlines() if line.strip()]
    run = irm.read_trec_run(path)
    assert file_order(run) == [(f[0], f[2], float(f[4])) for f in fields]
    qrels = irm.read_trec_qrels(TESTDATA / 'qrels.test')
    judged = [line.split() for line in (TESTDATA / 'qrels.test').read_text().splitlines() if line.strip()]
    assert sorted(tuple(q) for q in qrels) == sorted((f[0], f[2], int(f[3]), f[1]) for f in judged)


def test_extra_columns_after_the_tag_are_ignored_and_rows_keep_file_order(layout):
    text = ('q1 Q0 d1 1 1.0 tag extra\n'
            'q1 Q0 d2 2 2.0 tag\n'
            'q1 Q0 d3 3 3.0 tag x y z\n'
            'q2 Q0 d1 1 4.0 tag\n'
            'q1 Q0 d4 4 0.5 tag more\n')
    run = irm.read_trec_run(text)
    assert file_order(run) == [('q1', 'd1', 1.0), ('q1', 'd2', 2.0), ('q1', 'd3', 3.0), ('q2', 'd1', 4.0),
                               ('q1', 'd4', 0.5)]
    assert rows(run) == [('q1', 'd3', 3.0), ('q1', 'd2', 2.0), ('q1', 'd1', 1.0), ('q1', 'd4', 0.5),
                         ('q2', 'd1', 4.0)]


def test_extra_columns_on_the_first_line_only(layout):
    run = irm.read_trec_run('q1 Q0 d1 1 1.0 tag extra\nq1 Q0 d2 2 2.0 tag\n')
    assert file_order(run) == [('q1', 'd1', 1.0), ('q1', 'd2', 2.0)]


def test_the_rank_column_is_ignored(layout):
    qrels = {'q': {'a': 1, 'b': 0}}
    by_rank = irm.read_trec_run('q Q0 b 1 0.1 t\nq Q0 a 2 0.9 t\n')            # the ranks say b first
    assert [r.doc_id for r in by_rank] == ['a', 'b']
    assert irm.calc_aggregate([P@1], qrels, by_rank)[P@1] == 1.0
    odd_ranks = irm.read_trec_run('q Q0 b rank 0.1 t\nq Q0 a - 0.9 t\n')       # not even numbers
    assert rows(odd_ranks) == rows(by_rank)


def test_scores_in_any_float_syntax(layout):
    run = irm.read_trec_run('q Q0 a 1 1e-3 t\nq Q0 b 2 +.5 t\nq Q0 c 3 -0 t\nq Q0 d 4 1E5 t\nq Q0 e 5 -2. t\n')
    assert dict((d, s) for _, d, s in run) == {'a': 1e-3, 'b': 0.5, 'c': 0.0, 'd': 1e5, 'e': -2.0}


def test_ids_are_text_kept_exactly(layout):
    qrels = irm.read_trec_qrels('001 0 DOC-é 1\n1 0 doc-é 0\n')
    assert [(q.query_id, q.doc_id) for q in qrels] == [('001', 'DOC-é'), ('1', 'doc-é')]


# --- Python objects -------------------------------------------------------------------------------
QREL_DICT = {'q1': {'d1': 1, 'd2': 0, 'd3': 2}, 'q2': {'d1': 1}}
RUN_DICT = {'q1': {'d1': 0.5, 'd2': 0.9, 'd3': 0.1}, 'q3': {'d1': 1.0}}


def test_dict_of_dicts():
    qrels, run = irm.to_qrels(QREL_DICT), irm.to_run(RUN_DICT)
    assert [tuple(q) for q in qrels] == QRELS_ROWS and rows(run) == RUN_ROWS
    check_values(QREL_DICT, RUN_DICT)


def test_dataframes():
    qrels = pd.DataFrame([r[:3] for r in QRELS_ROWS], columns=['query_id', 'doc_id', 'relevance'])
    run = pd.DataFrame(RUN_ROWS, columns=['query_id', 'doc_id', 'score'])
    run['rank'] = [3, 2, 1, 1]                              # other columns are ignored
    check_values(qrels, run)
    with_iteration = qrels.assign(iteration=['0', '0', '0', '0'])
    assert [tuple(q) for q in irm.to_qrels(with_iteration)] == QRELS_ROWS


def test_dataframes_with_integer_ids_and_iterations():
    qrels = pd.DataFrame({'query_id': [1, 1, 2], 'doc_id': [10, 20, 10], 'relevance': [1, 0, 1],
                          'iteration': [0, 0, 0]})
    run = pd.DataFrame({'query_id': [1, 1], 'doc_id': [20, 10], 'score': [2.0, 1.0]})
    assert [tuple(q) for q in irm.to_qrels(qrels)] == [('1', '10', 1, '0'), ('1', '20', 0, '0'),
                                                        ('2', '10', 1, '0')]
    assert irm.calc_aggregate([P@1, AP], qrels, run) == {P@1: 0.0, AP: 0.25}


def test_named_tuples_of_irmetrics_and_ir_measures():
    import ir_measures
    for qrel_type, doc_type in ((irm.Qrel, irm.ScoredDoc), (ir_measures.Qrel, ir_measures.ScoredDoc)):
        qrels = [qrel_type(*r) for r in QRELS_ROWS]
        run = [doc_type(*r) for r in RUN_ROWS]
        assert [tuple(q) for q in irm.to_qrels(qrels)] == QRELS_ROWS
        check_values(qrels, run)


def test_named_tuples_are_read_by_field_name():
    Judgment = namedtuple('Judgment', 'relevance doc_id query_id')
    Hit = namedtuple('Hit', 'score query_id doc_id')
    qrels = [Judgment(r, d, q) for q, d, r, _ in QRELS_ROWS]
    run = [Hit(s, q, d) for q, d, s in RUN_ROWS]
    check_values(qrels, run)


def test_plain_tuples_and_lists():
    check_values([r[:3] for r in QRELS_ROWS], [tuple(r) for r in RUN_ROWS])
    check_values([list(r) for r in QRELS_ROWS], [list(r) for r in RUN_ROWS])


def test_generators_are_read_once_into_reusable_objects():
    run = irm.to_run(irm.ScoredDoc(*r) for r in RUN_ROWS)
    qrels = irm.to_qrels(irm.Qrel(*r) for r in QRELS_ROWS)
    first, second = check_values(qrels, run), check_values(qrels, run)
    assert first == second
    assert rows(run) == rows(run) == RUN_ROWS
    check_values((irm.Qrel(*r) for r in QRELS_ROWS), (irm.ScoredDoc(*r) for r in RUN_ROWS))


def test_read_objects_evaluate_any_number_of_times(tmp_path, layout):
    qrels = irm.read_trec_qrels(write(tmp_path, 'qrels', QRELS_TEXT))
    run = irm.read_trec_run(write(tmp_path, 'run', RUN_TEXT))
    results = [irm.calc(MEASURES, qrels, run).per_query for _ in range(3)]
    assert results[0] == results[1] == results[2]
    ev = irm.evaluator(MEASURES, qrels)
    assert ev.calc_aggregate(run) == ev.calc_aggregate(run) == irm.calc_aggregate(MEASURES, qrels, run)
    assert list(qrels) == list(qrels) and rows(run) == rows(run)


def test_unreadable_python_objects():
    with pytest.raises(InputError, match='cannot read run from int'):
        irm.to_run(5)
    with pytest.raises(InputError, match=r"^run records: item 1 is not a record of \(query_id, doc_id, score\)"):
        irm.to_run([('q', 'd')])
    with pytest.raises(InputError, match='lacks column'):
        irm.to_run(pd.DataFrame({'query_id': ['q'], 'doc_id': ['d']}))
    with pytest.raises(InputError, match="query 'q' maps to list"):
        irm.to_qrels({'q': ['d']})
    with pytest.raises(InputError, match=r"^run dict: item 1: score 'high' is not a number"):
        irm.to_run({'q': {'d': 'high'}})
    with pytest.raises(InputError, match='relevance inf is not a finite number'):
        irm.to_qrels({'q': {'d': float('inf')}})
    with pytest.raises(InputError, match='score nan is not a finite number'):
        irm.to_run(pd.DataFrame({'query_id': ['q'], 'doc_id': ['d'], 'score': [np.nan]}))
    with pytest.raises(InputError, match='missing'):
        irm.to_run([('q', None, 1.0)])


# --- bad TREC lines: file and line named ----------------------------------------------------------
@pytest.mark.parametrize('kind, text, line, fragment', [
    ('qrels', 'q1 0 d1 1\nq1 0 d2\n', 2, 'expected 4 fields (query_id iteration doc_id relevance), found 3'),
    ('qrels', 'q1 0 d1 1\n\nq1 0 d2 0 extra\n', 3, 'expected 4 fields'),
    ('qrels', 'q1 0 d1\nq1 0 d2 1 1\n', 1, 'expected 4 fields'),
    ('qrels', 'q1 0 d1\n5 q1 0 d2 1\n', 1, 'expected 4 fields'),
    ('qrels', 'q1 0 d1 1\nq1 0 d2 x\n', 2, "relevance 'x' is not a number"),
    ('qrels', 'q1 0 d1 1\nq1 0 d2 1.5x\n', 2, "relevance '1.5x' is not a number"),
    ('qrels', 'q1 0 d1 1\nq1 0 d2 nan\n', 2, "relevance 'nan' is not a number"),
    ('qrels', 'q1 0 d1 1\nq1 0 d2 0x10\n', 2, "relevance '0x10' is not a number"),
    ('run', 'q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d3 3\n', 3, 'expected at least 6 fields'),
    ('run', 'q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 0.5\nq1 Q0 d3 3 0.3 t x\n', 2, 'found 5'),
    ('run', 'q1 Q0 d1 1 1.0 t\n\n\nq1 Q0 d2 2 abc t\n', 4, "score 'abc' is not a number"),
    ('run', 'q1 Q0 d1 1 1.0 t x\nq1 Q0 d2 2 0x1q t\n', 2, "score '0x1q' is not a number"),
    ('run', 'q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 nan t\n', 2, 'score nan is not a finite number'),
    ('run', 'q1 Q0 d1 1 1.0 t x\nq1 Q0 d2 2 NaN t\n', 2, 'score nan is not a finite number'),
    ('run', 'q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 inf t\n', 2, 'score inf is not a finite number'),
    ('run', 'q1 Q0 d1 1 -Infinity t\n', 1, 'score -inf is not a finite number'),
    ('run', 'q1 Q0 d0 1 1.0 t\nq1 Q0 d1 1 1e400 t\n', 2, 'score inf is not a finite number'),
])
def test_malformed_lines_name_file_and_line(tmp_path, layout, kind, text, line, fragment):
    path = write(tmp_path, f'bad-{kind}.txt', text)
    read = irm.read_trec_qrels if kind == 'qrels' else irm.read_trec_run
    with pytest.raises(InputError) as info:
        read(path)
    assert str(info.value).startswith(f'{path}:{line}: ')
    assert fragment in str(info.value)
    assert info.value.source == str(path) and info.value.line == line
    with pytest.raises(InputError, match=f'^<text>:{line}: '):
        read(text)


def test_a_bad_line_deep_in_a_large_file_is_found(tmp_path, layout):
    good = ''.join(f'q{i % 7} Q0 d{i} {i} {1000 - i * 0.001} tag\n' for i in range(30000))
    for bad, fragment in (('q1\tQ0\tdx\t1\tnan\ttag\n', 'score nan'), ('q1 Q0 dx 1\n', 'expected at least 6 fields'),
                          ('q1 Q0 dx 1 high tag\n', "score 'high'")):
        path = write(tmp_path, 'big.run', good + bad)
        with pytest.raises(InputError, match=f'^{path}:30001: .*{fragment}'):
            irm.read_trec_run(path)


def test_file_problems_name_the_file(tmp_path):
    with pytest.raises(InputError, match=f'^{tmp_path / "absent.txt"}: no such file'):
        irm.read_trec_run(tmp_path / 'absent.txt')
    with pytest.raises(InputError, match='is a directory'):
        irm.read_trec_qrels(tmp_path)
    not_gzip = tmp_path / 'run.gz'
    not_gzip.write_text(RUN_TEXT)
    with pytest.raises(InputError, match=f'^{not_gzip}: cannot read'):
        irm.read_trec_run(not_gzip)
    with pytest.raises(InputError, match='UTF-8'):
        irm.read_trec_qrels(b'q1 0 d\xff 1\n')


# --- duplicates -----------------------------------------------------------------------------------
DUPLICATED = ('q1 Q0 d1 1 1.0 tag\n'
              'q1 Q0 d2 2 2.0 tag extra\n'
              'q2 Q0 d1 1 5.0 tag\n'
              'q1 Q0 d1 3 3.0 tag\n'
              'q1 Q0 d1 4 2.5 tag x\n')


def test_a_duplicate_in_a_run_is_an_error_naming_query_doc_and_lines(tmp_path, layout):
    path = write(tmp_path, 'dup.run', DUPLICATED)
    with pytest.raises(DuplicateError) as info:
        irm.read_trec_run(path)
    message = str(info.value)
    assert message.startswith(f'{path}:4: ')
    assert "document 'd1'" in message and "query 'q1'" in message and 'lines 1, 4, 5' in message
    assert 'duplicates="first", "last" or "max"' in message
    assert isinstance(info.value, InputError)


@pytest.mark.parametrize('policy, kept', [('first', 1.0), ('last', 2.5), ('max', 3.0)])
def test_duplicate_policies_keep_the_right_occurrence(tmp_path, layout, policy, kept):
    run = irm.read_trec_run(write(tmp_path, 'dup.run', DUPLICATED), duplicates=policy)
    assert sorted(file_order(run)) == sorted([('q1', 'd1', kept), ('q1', 'd2', 2.0), ('q2', 'd1', 5.0)])
    assert run.resolved_duplicates == 2
    qrels = {'q1': {'d1': 1, 'd2': 0}}
    expected_p1 = 1.0 if kept > 2.0 else 0.0                  # d1 above d2 only if its kept score is higher
    assert irm.calc_aggregate([P@1], qrels, run)[P@1] == expected_p1


@pytest.mark.parametrize('policy, kept', [('first', 1.0), ('last', 2.5), ('max', 3.0)])
def test_duplicate_policies_apply_to_every_run_input(policy, kept):
    records = [('q1', 'd1', 1.0), ('q1', 'd2', 2.0), ('q1', 'd1', 3.0), ('q1', 'd1', 2.5)]
    frame = pd.DataFrame(records, columns=['query_id', 'doc_id', 'score'])
    for source in (records, frame):
        with pytest.raises(DuplicateError, match="'d1'.*'q1'.*items 1, 3, 4"):
            irm.to_run(source)
        assert sorted(file_order(irm.to_run(source, duplicates=policy))) == [('q1', 'd1', kept), ('q1', 'd2', 2.0)]
    qrels = {'q1': {'d1': 1, 'd2': 0}}
    with pytest.raises(DuplicateError):
        irm.calc_aggregate([P@1], qrels, records)
    assert irm.calc_aggregate([P@1], qrels, records, duplicates=policy)[P@1] == (1.0 if kept > 2.0 else 0.0)
    assert irm.evaluator([P@1], qrels).calc_aggregate(frame, duplicates=policy)[P@1] == (1.0 if kept > 2.0 else 0.0)


def test_an_unknown_duplicate_policy_is_refused():
    with pytest.raises(irm.errors.OptionError, match="option 'duplicates': expected one of"):
        irm.read_trec_run(RUN_TEXT, duplicates='mean')


def test_duplicate_judgments_under_one_iteration_are_an_error(tmp_path, layout):
    path = write(tmp_path, 'dup.qrels', 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq1 0 d1 0\n')
    with pytest.raises(DuplicateError) as info:
        irm.read_trec_qrels(path)
    message = str(info.value)
    assert message.startswith(f'{path}:4: ') and "'d1'" in message and "'q1'" in message and 'lines 1, 4' in message
    with pytest.raises(DuplicateError, match='items 1, 2'):
        irm.to_qrels([('q', 'd', 1), ('q', 'd', 1)])


def test_the_same_document_under_different_iterations_is_read_but_refused_by_one_grade_measures(layout):
    text = 'q1 0 d1 0\nq1 1 d1 2\nq1 0 d2 1\n'
    qrels = irm.read_trec_qrels(text)
    assert [tuple(q) for q in qrels] == [('q1', 'd1', 0, '0'), ('q1', 'd1', 2, '1'), ('q1', 'd2', 1, '0')]
    run = {'q1': {'d1': 2.0, 'd2': 1.0}}
    # trec_eval refuses the document judged twice ("duplicate docs"); so does every one-grade measure
    with pytest.raises(DuplicateError, match=r"^<text>:2: document 'd1' is judged more than once for query 'q1' "
                                             r"\(iterations '0', '1'\), at lines 1, 2: NumRel reads one grade"):
        irm.calc_aggregate([NumRel, P@1], qrels, run)
    # diversity measures read one judgment per subtopic
    assert irm.calc_aggregate(['alpha_nDCG@5'], qrels, run)
    # duplicates='max' uses each document's highest grade
    for maxed in (irm.read_trec_qrels(text, duplicates='max'),
                  irm.to_qrels([irm.Qrel(*q) for q in qrels], duplicates='max')):
        assert irm.calc_aggregate([NumRel, P@1, NumRel(rel=2)], maxed, run) == {NumRel: 2, P@1: 1.0,
                                                                                NumRel(rel=2): 1}


def test_max_resolves_duplicate_judgments_under_one_iteration(layout):
    qrels = irm.read_trec_qrels('q1 0 d1 0\nq1 0 d1 2\nq1 0 d2 1\n', duplicates='max')
    assert [tuple(q) for q in qrels] == [('q1', 'd1', 2, '0'), ('q1', 'd2', 1, '0')]
    with pytest.raises(irm.errors.OptionError, match="option 'duplicates': expected one of 'error', 'max'"):
        irm.read_trec_qrels('q1 0 d1 0\n', duplicates='first')


# --- empty inputs and disjoint queries ------------------------------------------------------------
def test_an_empty_run_scores_every_qrels_query_zero(tmp_path, layout):
    run = irm.read_trec_run(write(tmp_path, 'empty.run', ''))
    assert len(run) == 0 and rows(run) == []
    results = irm.calc(MEASURES, QREL_DICT, run)
    assert results.aggregated == {AP: 0.0, nDCG@10: 0.0, P@2: 0.0, NumQ: 2, NumRel: 3, NumRet: 0}
    assert {(m.query_id, m.measure): m.value for m in results.per_query}[('q1', NumRel)] == 2
    assert irm.calc_aggregate(MEASURES, QREL_DICT, {}) == results.aggregated
    assert irm.calc_aggregate(MEASURES, QREL_DICT, '\n\n') == results.aggregated


def test_empty_qrels_are_an_error_everywhere(tmp_path, layout):
    # trec_eval refuses an empty qrels file; a mean over no query would print 'nan' (API and CLI agree)
    for source in (write(tmp_path, 'empty.qrels', ''), '\n  \n', {}, []):
        with pytest.raises(InputError, match='the qrels hold no judgment: there is no query to evaluate'):
            irm.calc(MEASURES, source, RUN_TEXT)
    with pytest.raises(InputError, match=f'^{tmp_path / "empty.qrels"}: the qrels hold no judgment'):
        irm.evaluator(MEASURES, write(tmp_path, 'empty.qrels', '# only a comment\n'))


def test_no_overlapping_queries():
    results = irm.calc(MEASURES, QREL_DICT, {'other': {'d1': 1.0, 'd2': 0.5}})
    assert results.aggregated == {AP: 0.0, nDCG@10: 0.0, P@2: 0.0, NumQ: 2, NumRel: 3, NumRet: 0}
    assert [m.query_id for m in results.per_query] == ['q1'] * len(MEASURES) + ['q2'] * len(MEASURES)


def test_a_byte_order_mark_is_not_part_of_the_first_query_id(layout, tmp_path):
    path = tmp_path / 'run.txt'
    path.write_bytes(b'\xef\xbb\xbfq1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n')
    qrels = irm.read_trec_qrels('\ufeffq1 0 d1 1\n')
    run = irm.read_trec_run(path)
    assert [r.query_id for r in run] == ['q1', 'q1'] and [q.query_id for q in qrels] == ['q1']
    assert irm.calc_aggregate(['P@1'], qrels, run) == {irm.parse_measure('P@1'): 1.0}


def test_numbers_are_read_as_strtod_reads_them(layout):
    for text in ('1_000', '\u0661', '0x', '1.5e', '.'):
        with pytest.raises(InputError, match=f"<text>:1: score '{text}' is not a number"):
            irm.read_trec_run(f'q1 Q0 d1 1 {text} t\nq1 Q0 d2 2 0.5 t\n')
    assert irm.read_trec_run('q1 Q0 d1 1 +1.5e-3 t\nq1 Q0 d2 2 .5 t\n').scores.tolist() == [0.0015, 0.5]
    hexadecimal = irm.read_trec_run('q1 Q0 d1 1 0x10 t\nq1 Q0 d2 2 -0X1.8p1 t\nq1 Q0 d3 3 0x.8 t\n')
    assert hexadecimal.scores.tolist() == [16.0, -3.0, 0.5]              # strtod reads hexadecimal too


def test_a_grade_too_large_for_an_integer_is_an_error_not_a_wrong_grade(layout):
    for grade in ('99999999999999999999', '9223372036854775807'):
        with pytest.raises(InputError, match=r'<bytes>:2: relevance .* is too large'):
            irm.read_trec_qrels(f'q1 0 d0 1\nq1 0 d1 {grade}\n'.encode())


def test_a_large_binary_file_is_one_clear_error(tmp_path, capfd):
    path = tmp_path / 'binary'
    path.write_bytes(np.random.default_rng(7).integers(0, 256, 3_000_000, dtype=np.uint8).tobytes())
    with pytest.raises(InputError, match=r'^.*binary:\d+: a NUL byte: TREC files are text \(is this a binary file'):
        irm.read_trec_qrels(path)
    assert 'Traceback' not in capfd.readouterr().err
