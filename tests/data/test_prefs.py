"""Reading preference judgments and judgment groups: trec_eval's layout, its order of ids, and every
contradiction trec_eval stops at refused when the file is read, with one message naming file and line."""
import numpy as np
import pytest

import irmetrics as irm
from irmetrics.errors import DuplicateError, InputError


def error_of(text, format='prefs', reader=irm.read_trec_prefs):
    with pytest.raises(InputError) as caught:
        reader(text, format=format) if reader is irm.read_trec_prefs else reader(text)
    return caught.value


def test_ids_are_ordered_byte_wise_and_rows_by_group_sub_group_and_level():
    prefs = irm.read_trec_prefs('9 B s2 y 1\n10 A s1 x 0\n9 A s1 z 2.5\n9 A s1 x 1e1\n')
    assert prefs.query_ids == ['10', '9'] and prefs.doc_ids == ['x', 'y', 'z']
    assert prefs.level.tolist() == [0.0, 10.0, 2.5, 1.0] and prefs.lines.tolist() == [2, 4, 3, 1]
    assert [len(prefs.groups(q)) for q in range(2)] == [1, 2]


def test_white_space_comments_and_blank_lines_as_in_every_trec_file():
    prefs = irm.read_trec_prefs('# a comment\nq\tA  s1 d1\t2.0 \n\n  q A s1 d2 0\n')
    assert len(prefs) == 2 and prefs.lines.tolist() == [2, 4]


@pytest.mark.parametrize('text, format, line, fragment', [
    ('q A s d1 2\nq A s d2\n', 'prefs', 2, 'expected 5 fields'),
    ('q A s d1 2 extra\n', 'prefs', 1, 'expected 5 fields'),
    ('q A d1 2 x\n', 'qrels_prefs', 1, 'expected 4 fields'),
    ('q A s d1 2\nq A s d2 two\n', 'prefs', 2, "rel_level 'two' is not a number"),
    ('q A s d1 2\nq A s d2 -1\n', 'prefs', 2, "rel_level -1.0 is not a finite number of 0 or more"),
    ('q A d1 inf\n', 'qrels_prefs', 1, 'is not a finite number'),
    ('q A s d1 2\nq A s d2 1\nq A s d1 3\n', 'prefs', 3, "document 'd1' of query 'q', judgment group 'A' is "
                                                          'given two levels in a judgment group of one sub-group'),
    ('q A 0 d1 2\nq A 0 d1 3\n', 'prefs', 2, 'lines 1 and 2'),
    ('q A s1 d1 2\nq A s2 d1 0\nq A s2 d2 1\n', 'prefs', 1, 'is non-relevant (0.0) and relevant in one judgment'),
    ('q A s1 d1 2\nq A s1 d2 1\nq A s2 d2 2\nq A s2 d1 1\n', 'prefs', 1,
     "documents 'd1' and 'd2' are each preferred to the other through its sub-groups"),
    ('q A s1 d1 2\nq A s1 d2 1\nq A s2 d2 2\nq A s2 d3 1\nq A s3 d3 2\nq A s3 d1 1\n', 'prefs', 1,
     'each preferred to the other'),
])
def test_every_bad_line_is_one_error_naming_its_line(text, format, line, fragment):
    error = error_of(text, format)
    assert (error.source, error.line) == ('<text>', line)
    assert fragment in str(error)


def test_what_trec_eval_accepts_is_accepted():
    """The same line twice (counted twice, as trec_eval counts it), a document at two levels in two
    sub-groups, groups that contradict each other, one document in several groups."""
    prefs = irm.read_trec_prefs('q A s d1 2\nq A s d1 2\nq A s d2 1\nq A t d1 1\nq A t d3 4\nq B s d2 5\nq B s d1 1\n')
    assert [g.classes for g in prefs.groups(0)] == [False, True]
    assert dict(irm.calc(['prefs_num_prefs_poss'], prefs, 'q Q0 d1 1 1 r\n').aggregated)['NumPrefs'] == 4


def test_a_document_twice_in_one_judgment_group_of_qrels_names_both_lines():
    with pytest.raises(DuplicateError, match='lines 1 and 3'):
        irm.read_trec_qrels_jg('q A d1 1\nq B d1 0\nq A d1 0\n')


def test_judgment_groups_are_qrels_per_group():
    groups = irm.read_trec_qrels_jg('q2 b d1 1\nq1 a d1 1\nq2 a d2 -1\nq2 c d3 2\n')
    assert groups.query_ids == ['q1', 'q2'] and groups.counts.tolist() == [1, 3]
    assert [len(g) for g in groups.groups] == [2, 1, 1]
    assert np.array_equal(groups.groups[0].relevance, [1, -1])


def test_a_format_trec_eval_does_not_know_is_refused():
    with pytest.raises(ValueError, match="format 'qrels_jg': expected one of prefs, qrels_prefs"):
        irm.read_trec_prefs('q A s d1 2\n', format='qrels_jg')


def test_a_large_file_read_by_arrow_gives_the_same_judgments(tmp_path):
    """Over a MiB, the text is split by Arrow (dictionary-coded id columns): the same rows as Python's split."""
    lines = [f'q{i % 7} jg{i % 3} s doc-{i} {(i * 7) % 5}.0' for i in range(60_000)]
    (tmp_path / 'prefs').write_text('\n'.join(lines) + '\n')
    assert (tmp_path / 'prefs').stat().st_size > 1 << 20
    prefs = irm.read_trec_prefs(tmp_path / 'prefs', format='prefs')
    assert prefs.query_ids == [f'q{i}' for i in range(7)] and len(prefs) == 60_000
    assert sorted(prefs.level.tolist()) == sorted(float((i * 7) % 5) for i in range(60_000))
    assert sorted(prefs.doc_ids) == sorted(f'doc-{i}' for i in range(60_000))
