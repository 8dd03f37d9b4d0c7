"""Regression tests for reader faults found in TREC files, each built from its reproduction (files generated here).

Every test runs under both reader paths and both id layouts (the ``layout`` fixture); the repros
above 2 MiB go through the large-file path whatever the fixture says.
"""
import bz2
import gzip
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest

import irmetrics as irm
from irmetrics import DuplicateError, InputError, P
from irmetrics.data.trec import arrow, reader, stream
from irmetrics.data.trec.format import FileData


def p1(qrels, run) -> float:
    return irm.calc_aggregate([P@1], qrels, run)[P@1]


# --- 1. ids split on white space that only Python knows --------------------------------------------
def test_a_no_break_space_ends_no_field(layout):
    assert p1(b'q1 0 d\xc2\xa0 1\n', b'q1 Q0 d 1 1.0 r\n') == 0.0          # 'd\xa0' is not 'd'
    assert p1(b'q1 0 a\xc2\xa0b 1\nq1 0 a 0\n', b'q1 Q0 c 2 2.0 r\nq1 Q0 a\xc2\xa0b 1 3.0 r extra\n') == 1.0


def test_ids_that_differ_by_a_no_break_space_are_no_duplicates(layout):
    run = irm.read_trec_run(b'q1 Q0 a 1 3.0 r\nq1 Q0 a\xc2\xa0z 9 9.0 r x\n')
    assert [d.doc_id for d in run] == ['a\u00a0z', 'a']
    qrels = irm.read_trec_qrels(b'q1 0 a 1\nq1 0 a\xc2\xa0z 0\n')
    assert [(q.doc_id, q.relevance) for q in qrels] == [('a', 1), ('a\u00a0z', 0)]


def _odd_characters() -> list[str]:
    """Every character Python calls white space or a control, except C's separators, the newline and NUL."""
    return [c for c in map(chr, range(sys.maxunicode + 1))
            if (c.isspace() or unicodedata.category(c) == 'Cc') and c not in ' \t\n\v\f\r\0'
            and not 0xD800 <= ord(c) <= 0xDFFF]


ODD = _odd_characters()


def _odd_files() -> tuple[str, str, list[str]]:
    docs = [f'd{i}{c}x' for i, c in enumerate(ODD)]
    qrels = ''.join(f'q{c}1 0 {d} 1\n' for c, d in zip(ODD, docs, strict=True))
    run = ''.join(f'q{c}1 Q0 {d} 1 {i}.5 t{c}g\n' for i, (c, d) in enumerate(zip(ODD, docs, strict=True)))
    return qrels, run, docs


@pytest.mark.parametrize('source', ['bytes', 'text', 'path', 'gz', 'bz2', 'large', 'large-tabs'])
def test_every_unicode_white_space_and_control_stays_inside_ids(tmp_path, layout, source):
    assert len(ODD) > 60                                 # C1 controls, U+001C-U+001F, U+0085, U+00A0, ...
    qrels, run, docs = _odd_files()
    if source.startswith('large'):                       # above 2 MiB: the Arrow path, streamed or canonicalised
        separator = '\t' if source == 'large-tabs' else ' '
        padding = ''.join(f'p{i % 50}{separator}Q0{separator}pad{i} 1 0.5 t\n' for i in range(70_000))
        run = padding + run
    data = {'qrels': qrels.encode(), 'run': run.encode()}
    if source in ('path', 'gz', 'bz2', 'large', 'large-tabs'):
        opener = {'gz': gzip.compress, 'bz2': bz2.compress}.get(source, lambda b: b)
        suffix = {'gz': '.gz', 'bz2': '.bz2'}.get(source, '')
        for kind in data:
            (tmp_path / (kind + suffix)).write_bytes(opener(data[kind]))
            data[kind] = tmp_path / (kind + suffix)
    elif source == 'text':
        data = {'qrels': qrels, 'run': run}
    read_qrels, read_run = irm.read_trec_qrels(data['qrels']), irm.read_trec_run(data['run'])
    assert [q.doc_id for q in read_qrels] == docs
    assert [q.query_id for q in read_qrels] == [f'q{c}1' for c in ODD]
    assert sorted(d.doc_id for d in read_run if not d.doc_id.startswith('pad')) == sorted(docs)
    per_query = irm.calc(['P@1'], read_qrels, read_run).per_query
    assert [m.value for m in per_query] == [1.0] * len(ODD)


# --- 2. silent misparse in runs over 2 MiB ---------------------------------------------------------
def _misaligned_run() -> bytes:
    lines = ['q1 Q0 first 1 0.001 r extra'] + [f'q1 Q0 doc{i} {i + 2} {1 / (i + 2):.12f} r x' for i in range(80_000)]
    return ('\n'.join(lines) + '\nq1 Q0 target  0 5.0 r\n').encode()


def test_a_double_space_deep_in_a_large_run_is_not_read_shifted(tmp_path):
    path = tmp_path / 'run'
    path.write_bytes(_misaligned_run())
    assert path.stat().st_size > 2 << 20
    run = irm.read_trec_run(path)
    assert [(d.doc_id, d.score) for d in run][0] == ('target', 5.0)
    assert p1(b'q1 0 target 1\n', path) == 1.0


def test_an_unkept_field_missing_behind_a_double_space_is_an_error(tmp_path):
    # 'q1 Q0 d  1.0 r' splits into 5 fields (trec_eval: malformed), even though one space per field
    # would give Arrow 6 columns
    good = ''.join(f'q1 Q0 d{i} {i} {i}.5 r\n' for i in range(100_000))
    path = tmp_path / 'run'
    path.write_text(good + 'q1 Q0 dx  1.0 r\n')
    with pytest.raises(InputError, match=r':100001: expected at least 6 fields .*found 5'):
        irm.read_trec_run(path)
    path.write_text(good + 'q1 Q0 dx 1 1.0 \n')                # the tag missing behind a trailing space
    with pytest.raises(InputError, match=r':100001: expected at least 6 fields .*found 5'):
        irm.read_trec_run(path)


# --- 3. wrong rejection of qrels over 2 MiB --------------------------------------------------------
def test_a_tab_deep_in_a_large_qrels_file_separates_fields(tmp_path):
    path = tmp_path / 'qrels'
    path.write_text(''.join(f'q{i % 50} 0 doc{i} {i % 3}\n' for i in range(150_000)) + 'q1\t0\ttabdoc\t1\n')
    assert path.stat().st_size > 2 << 20
    qrels = irm.read_trec_qrels(path)
    assert ('q1', 'tabdoc', 1, '0') in list(qrels) and len(qrels) == 150_001
    per_query = irm.calc([P@1], path, b'q1 Q0 tabdoc 1 9 r\n').per_query
    assert [m.value for m in per_query if m.query_id == 'q1'] == [1.0]


def test_a_wrong_field_count_is_reported_with_the_true_count(tmp_path, layout):
    path = tmp_path / 'qrels'
    path.write_text('q1 0 a 1\nq1\t0\tb\n')
    with pytest.raises(InputError, match=r"qrels:2: expected 4 fields \(query_id iteration doc_id relevance\), "
                                         r"found 3: 'q1 0 b'"):
        irm.read_trec_qrels(path)


# --- 4. crash with a traceback ---------------------------------------------------------------------
def test_a_blank_line_after_an_over_long_line_is_skipped(tmp_path, layout):
    lines = [f'q1 Q0 d{i} {i + 1} {-i} r' for i in range(3000)] + ['q1 Q0 x 1 5 r extra', ' ']
    path = tmp_path / 'run'
    path.write_text('\n'.join(lines) + '\n')
    assert path.stat().st_size > 1 << 16
    run = irm.read_trec_run(path)
    assert len(run) == 3001 and [d.doc_id for d in run][:2] == ['x', 'd0']


# --- 5. quadratic time ------------------------------------------------------------------------------
def test_a_first_line_with_a_seventh_field_then_many_six_field_lines(tmp_path, layout):
    # this file took 65 s (a newline count from the start of the file for every six-field line)
    lines = ['q0 Q0 first 1 0 r extra'] + [f'q0 Q0 d{i} {i + 2} {i} r' for i in range(100_000)]
    path = tmp_path / 'run'
    path.write_text('\n'.join(lines) + '\n')
    run = irm.read_trec_run(path)
    assert len(run) == 100_001 and [d.doc_id for d in run][-2:] == ['first', 'd0']     # tied at 0: docno desc


# --- 7. conventions settled with trec_eval ---------------------------------------------------------
def test_a_grade_must_be_a_decimal_number(layout):
    for grade in ('0x10', '1_0', '\u0661', '', 'nan', 'inf', '1.5x', '0x1p3'):
        text = f'q1 0 d0 1\nq1 0 d1 {grade}\n'
        with pytest.raises(InputError, match=r'<text>:2: '):
            irm.read_trec_qrels(text)
    text = 'q 0 a +2\nq 0 b -1\nq 0 c 007\nq 0 d 2e1\nq 0 e 1.0\n'
    qrels = irm.read_trec_qrels(text)
    assert qrels.relevance.dtype == np.int64 and qrels.relevance.tolist() == [2, -1, 7, 20, 1]
    assert irm.read_trec_qrels(text, grades='trec_eval').relevance.tolist() == [2, -1, 7, 2, 1]    # atol('2e1')


def test_blank_and_comment_lines_are_skipped_in_both_files(layout):
    qrels = irm.read_trec_qrels('# judged by A\nq1 0 a 1\n\n  \t\nq1 0 b 0\n#q1 0 c 1\n')
    run = irm.read_trec_run('q1 Q0 b 1 2 r\n\n   # a comment after white space\n#q1 Q0 c 1 3 r\nq1 Q0 a 2 1 r\n')
    assert [q.doc_id for q in qrels] == ['a', 'b'] and [d.doc_id for d in run] == ['b', 'a']
    with pytest.raises(DuplicateError, match=r'<text>:5: duplicate document'):
        irm.read_trec_run('\n# x\nq1 Q0 b 1 2 r\n\nq1 Q0 b 2 1 r\n')      # line numbers count skipped lines


def test_a_nul_byte_is_an_error(layout):
    with pytest.raises(InputError, match=r'<bytes>:2: a NUL byte'):
        irm.read_trec_run(b'q1 Q0 a 1 2 r\nq1 Q0 b\x00c 1 2 r\n')


def test_invalid_utf8_only_in_an_ignored_field_is_accepted(layout):
    run = irm.read_trec_run(b'q1 Q0 a 1 2 t\xff\nq1 Q0 b 2 1 t\n')
    assert [d.doc_id for d in run] == ['a', 'b']
    with pytest.raises(InputError, match=r'<bytes>:2: ids must be valid UTF-8'):
        irm.read_trec_run(b'q1 Q0 a 1 2 t\xff\nq1 Q0 b\xff 2 1 t\n')


def test_large_inputs_take_the_large_path_in_both_id_layouts(tmp_path):
    path = tmp_path / 'run'
    path.write_text(''.join(f'q{i % 9} Q0 d{i} 1 {i % 7} r\n' for i in range(120_000)))
    assert irm.read_trec_run(path).doc_ids.layout == 'arrow'


def _long_line_run(path: Path, length: int, spacing: bytes = b' ') -> Path:
    """A run whose second line holds a document id of ``length`` bytes (``spacing`` between its fields)."""
    path.write_bytes(b'q1 Q0 d1 1 1.0 t\n' + spacing.join([b'q1', b'Q0', b'x' * length, b'2', b'0.5', b't'])
                     + b'\nq1 Q0 d3 3 0.2 t\n')
    return path


@pytest.mark.parametrize('spacing', [b' ', b'\t'])
def test_a_line_longer_than_arrows_block_is_read(tmp_path, monkeypatch, spacing):
    """Arrow's reader refuses a row longer than its block ('straddling object'): the file is read again
    in blocks that hold its longest line.  (Blocks of 64 KiB here stand for the 4 MiB of real files.)"""
    monkeypatch.setattr(reader, 'SMALL_FILE', 1 << 10)
    monkeypatch.setattr(arrow, 'BLOCK_SIZE', 1 << 16)
    run = irm.read_trec_run(_long_line_run(tmp_path / 'run.txt', 300_000, spacing))
    assert [len(d) for d in run.doc_ids.to_list()] == [2, 300_000, 2]


@pytest.mark.parametrize('spacing', [b' ', b'\t'])
def test_an_endless_line_of_a_plain_file_is_refused_before_the_file_is_read_whole(tmp_path, monkeypatch, spacing):
    monkeypatch.setattr(reader, 'SMALL_FILE', 1 << 10)
    monkeypatch.setattr(arrow, 'BLOCK_SIZE', 1 << 16)
    monkeypatch.setattr(stream, 'MAX_LINE', 1 << 18)
    monkeypatch.setattr(arrow, '_SCAN_PIECE', 1 << 16)
    monkeypatch.setattr(FileData, '__bytes__', lambda self: pytest.fail('the file was read whole'))
    path = _long_line_run(tmp_path / 'run.txt', 1 << 20, spacing)
    with pytest.raises(InputError, match=r'run.txt:2: line longer than 262,144 bytes'):
        irm.read_trec_run(path)
