"""Regression tests for the input faults found by the property tests and the fuzzing, each
from its smallest repro.  Before the fix, each raised an exception of Python, numpy or pyarrow (a
traceback from deep inside), read something else than the input said, or hung.

Every test of a reader or an id column runs under both reader paths and id layouts (``layout``).
"""
import io
import math
from contextlib import redirect_stdout

import numpy as np
import pandas as pd
import pytest

import irmetrics as irm
from irmetrics import InputError, MeasureError, P
from irmetrics.cli import main
from irmetrics.dialects.trec_eval import to_trec_name, trec_output_name


def error_of(convert, source) -> InputError:
    with pytest.raises(InputError) as info:
        convert(source)
    return info.value


# --- ids given as Python values: one rule in both layouts --------------------------------------------
@pytest.mark.parametrize('bad, problem', [
    (None, 'is missing'), (math.nan, 'is missing'), (np.float32('nan'), 'is missing'), (pd.NA, 'is missing'),
    (pd.NaT, 'is missing'), ('', 'is empty'), (b'', 'is empty'), (b'\xff', "b'\\xff' is not UTF-8 text"),
    ('\ud800', 'lone surrogate'), (['d'], 'is a list, not an id'), (('d',), 'is a tuple, not an id')])
def test_a_value_that_is_no_id_is_an_error_naming_source_item_and_column(layout, bad, problem):
    # pandas' NA became the id '<NA>', float32 NaN 'nan', None 'None' (Arrow layout); bytes, lone
    # surrogates and lists raised UnicodeDecodeError, UnicodeEncodeError or ArrowNotImplementedError
    records = [('q', 'a', 1.0), ('q', bad, 2.0)]
    ex = error_of(irm.to_run, records)
    assert ex.source == 'run records' and str(ex).startswith('run records: item 2: doc_id ') and problem in str(ex)
    qrels = [('q', 'a', 1), (bad, 'b', 1)] if isinstance(bad, list) else {'q': {'a': 1}, bad: {'b': 1}}
    ex = error_of(irm.to_qrels, qrels)
    assert ' item 2: query_id ' in str(ex) and problem in str(ex)


def test_missing_ids_in_pandas_string_columns_are_errors(layout):
    for dtype in ('string', 'str', object):
        frame = pd.DataFrame({'query_id': pd.array(['q', None], dtype=dtype), 'doc_id': ['a', 'b'],
                              'score': [1.0, 2.0]})
        assert str(error_of(irm.to_run, frame)) == 'run DataFrame: item 2: query_id is missing (None, NaN or NA)'


def test_numbers_as_ids_read_the_same_in_both_layouts(layout):
    # the Arrow layout read 301.0 in a mixed column as '301.0' (the numpy layout: '301'), and 1e20 crashed it
    run = irm.to_run([('q', 301.0, 1.0), ('q', 'x', 2.0), ('q', 1e20, 3.0), ('q', 2.5, 4.0), ('q', np.int64(7), 5.0)])
    assert [d.doc_id for d in run] == ['7', '2.5', '100000000000000000000', 'x', '301']


def test_a_lone_surrogate_in_raw_text_is_an_error_naming_its_line(layout):
    ex = error_of(irm.read_trec_run, 'q Q0 a 1 1 r\nq Q0 \udcff 2 1 r\n')      # was UnicodeEncodeError
    assert (ex.source, ex.line) == ('<text>', 2) and 'UTF-8' in str(ex)


# --- numbers given as Python values -------------------------------------------------------------------
@pytest.mark.parametrize('bad, problem', [
    (10 ** 400, 'is too large for a float'), ([1.0], 'is not a number'), ('1.5x', 'is not a number'),
    ({'a': 1}, 'is not a number')])
def test_a_score_that_is_no_number_names_its_item(bad, problem):
    ex = error_of(irm.to_run, [('q', 'a', 1.0), ('q', 'b', bad)])      # 10**400: OverflowError
    assert str(ex).startswith('run records: item 2: score ') and problem in str(ex)


@pytest.mark.parametrize('grade', [2 ** 53, -(2 ** 53), 2 ** 60, 2 ** 63, 2 ** 64, 10 ** 400])
def test_a_grade_too_large_for_a_float_is_an_error(grade):
    # 2**63 was read as -2**63 (numpy's uint64 wrapped), 2**60 accepted (the TREC reader refuses
    # 2**53 and beyond), 10**400 raised OverflowError
    ex = error_of(irm.to_qrels, [('q', 'a', 1), ('q', 'b', grade)])
    assert str(ex).startswith('qrels records: item 2: relevance ') and 'too large' in str(ex)
    assert irm.to_qrels([('q', 'a', 2 ** 53 - 1)]).relevance.tolist() == [2 ** 53 - 1]


def test_a_list_per_row_is_no_number():
    # [[1], [2]] was kept as a 2-D array: the grades read as lists
    for records in ([('q', 'a', [1]), ('q', 'b', [2])], [('q', 'a', [1])]):
        assert str(error_of(irm.to_qrels, records)) == 'qrels records: item 1: relevance [1] is not a number'


def test_dates_and_complex_numbers_are_no_scores():
    # dates were read as nanoseconds since 1970, silently
    dates = pd.DataFrame({'query_id': ['q'], 'doc_id': ['a'], 'score': pd.to_datetime(['2020-01-01'])})
    assert str(error_of(irm.to_run, dates)).startswith('run DataFrame: score values must be numbers (got datetime64')
    assert 'complex128' in str(error_of(irm.to_run, [('q', 'a', 1j)]))


def test_booleans_are_zero_and_one():
    qrels = irm.to_qrels(pd.DataFrame({'query_id': ['q', 'q'], 'doc_id': ['a', 'b'], 'relevance': [True, False]}))
    assert qrels.relevance.tolist() == [1, 0]
    assert irm.to_run([('q', 'a', True), ('q', 'b', False)]).scores.tolist() == [1.0, 0.0]


# --- records, dicts and DataFrames: errors name their source ------------------------------------------
def test_a_plain_tuple_after_named_tuples_is_an_error_naming_its_item():
    # AttributeError: 'tuple' object has no attribute 'query_id'
    ex = error_of(irm.to_run, [irm.ScoredDoc('q', 'a', 1.0), ('q', 'b', 2.0)])
    assert str(ex) == "run records: item 2 is not a record of (query_id, doc_id, score): ('q', 'b', 2.0)"


def test_shapes_that_are_no_input_name_the_source():
    assert error_of(irm.to_run, pd.DataFrame({'query_id': ['q']})).source == 'run DataFrame'
    assert error_of(irm.to_qrels, {'q': ['a']}).source == 'qrels dict'
    assert error_of(irm.to_qrels, [('q',)]).source == 'qrels records'


# --- TREC sources --------------------------------------------------------------------------------------
@pytest.mark.parametrize('source', [5, None, 1.5, ['q Q0 a 1 1 r']])
def test_a_source_of_another_type_is_an_input_error(source):
    # TypeError: expected str, bytes or os.PathLike object
    with pytest.raises(InputError, match=f'cannot read a TREC file from {type(source).__name__}'):
        irm.read_trec_run(source)


def test_a_path_with_a_nul_is_an_input_error():
    # ValueError: embedded null byte
    assert 'cannot read' in str(error_of(irm.read_trec_qrels, 'qrels\0.txt'))


# --- TREC text ------------------------------------------------------------------------------------------
@pytest.mark.parametrize('score', ['0x1p99999', '-0x1.8p1024'])
def test_a_hexadecimal_score_beyond_a_double_is_not_finite(layout, score):
    # OverflowError: hexadecimal value too large to represent as a float (strtod gives infinity)
    ex = error_of(irm.read_trec_run, f'q Q0 a 1 1 r\nq Q0 b 2 {score} r\n')
    assert (ex.line, ex.problem) == (2, f'score {"-" if score[0] == "-" else ""}inf is not a finite number')


def test_a_grade_of_thousands_of_digits_is_too_large(layout):
    # ValueError: Exceeds the limit (4300 digits) for integer string conversion
    ex = error_of(irm.read_trec_qrels, f'q 0 a 1\nq 0 b {"1" * 5000}\n')
    assert ex.line == 2 and ex.problem.endswith('is too large')


@pytest.mark.parametrize('text', [b'\xef\xbb\xbf\xef\xbb\xbfq1 0 d 1\n', b' \xef\xbb\xbfq1 0 d 1\n'])
def test_a_byte_order_mark_inside_the_first_id_stays_in_it(layout, text):
    # Arrow's reader drops a byte-order mark at the start of what it reads: after the file's own one
    # (dropped by irmetrics) or after leading white space, the large path read 'q1', the small '\ufeffq1'
    assert [q.query_id for q in irm.read_trec_qrels(text)] == ['\ufeffq1']
    ex = error_of(irm.read_trec_qrels, b'\xef\xbb\xbf\xef\xbb\xbf')          # the large path read nothing
    assert ex.line == 1 and 'expected 4 fields' in ex.problem


# --- measure strings --------------------------------------------------------------------------------------
@pytest.mark.parametrize('text, parse', [('P@' + '1' * 5000, irm.parse_measure),
                                         ('precision@' + '1' * 5000, irm.parse_measure),
                                         ('map-l' + '1' * 5000, irm.parse_measure),
                                         ('P_5,' + '1' * 5000, irm.parse_trec_measure)])
def test_a_number_of_thousands_of_digits_in_a_measure_is_a_measure_error(text, parse):
    # ValueError: Exceeds the limit (4300 digits) for integer string conversion
    with pytest.raises(MeasureError, match='too many digits'):
        parse(text)


def test_a_huge_ranx_relevance_level_is_refused_at_once():
    # ndcg-lN built a gain map of N - 1 grades: N = 10**11 ran out of time and memory
    with pytest.raises(MeasureError, match='for N up to 100'):
        irm.parse_measure('ndcg-l100000000000')
    assert irm.parse_measure('ndcg@5-l3') == irm.nDCG(gains={1: 0, 2: 0}) @ 5


def test_only_measures_trec_eval_computes_print_under_its_names(tmp_path):
    # nDCG(dcg='exp-log2') printed as trec_eval's (linear) ndcg, AP(divisor='num_rel_ret') as map
    exp, cwl_ap = irm.parse_measure("nDCG(dcg='exp-log2')"), irm.parse_measure("AP(divisor='num_rel_ret')")
    assert to_trec_name(exp) is None and to_trec_name(cwl_ap) is None
    (tmp_path / 'qrels').write_text('q 0 a 1\nq 0 b 2\n')
    (tmp_path / 'run').write_text('q Q0 a 1 2 r\nq Q0 b 2 1 r\n')
    out = io.StringIO()
    with redirect_stdout(out):
        main(['--trec-eval', str(tmp_path / 'qrels'), str(tmp_path / 'run'), repr(exp), 'nDCG', repr(cwl_ap)])
    assert [line.split('\t')[0].strip() for line in out.getvalue().splitlines()] == [repr(exp), 'ndcg', repr(cwl_ap)]


@pytest.mark.parametrize('beta', [0.1234567, 1e6, 1e-7, 0.5])
def test_set_f_prints_a_name_that_reads_back(beta):
    # set_F_0.123457 read back as another measure; set_F_1e+06 did not read at all
    measure = irm.SetF(beta=beta)
    assert irm.parse_trec_measure(trec_output_name(measure)) == [measure]
    assert trec_output_name(irm.SetF(beta=0.5)) == 'set_F_0.5' and trec_output_name(P@5) == 'P_5'
