"""The helpers behind ``irmetrics trec_eval``: cutting a run (-M), the run tag (runid), per-query running
sums and suffix maxima summed as trec_eval sums them, trec_eval 10's rounding of recall levels, and
the summaries of the trec_eval layout."""
import math

import numpy as np
import pytest
from cli_support import run_in_process

import irmetrics as irm
from irmetrics.cli.trec_layout import NAME_WIDTH, Column, cell, padded, sequential_summary, trec_order, write
from irmetrics.data.segments import offsets_of, running_sum, suffix_max
from irmetrics.data.trec import reader
from irmetrics.data.trec.format import FileData
from irmetrics.data.trec.tag import last_tag
from irmetrics.providers.native.iprec import recall_counts

RUN = 'q2 Q0 x 1 5 r\nq1 Q0 a 1 3 r\nq1 Q0 b 2 3 r\nq1 Q0 c 3 1 r\nq2 Q0 y 2 4 r\n'


def test_top_keeps_the_first_documents_of_every_ranking_and_every_query():
    run = irm.read_trec_run(RUN)
    assert [(d.query_id, d.doc_id) for d in run.top(1)] == [('q2', 'x'), ('q1', 'b')]   # ties: b before a
    empty = run.top(0)
    assert len(empty) == 0 and empty.query_ids.to_list() == run.query_ids.to_list()
    assert run.top(3) is run
    qrels = irm.read_trec_qrels('q1 0 a 1\nq2 0 y 1\n')
    assert irm.calc_aggregate(['NumRet', 'P@2'], qrels, run.top(1)) == {irm.NumRet: 2, irm.P@2: 0.0}


@pytest.mark.parametrize('text, tag', [
    (RUN, 'r'), (RUN + '# a comment\n\n  \t\n', 'r'), ('q Q0 d 1 1 first\nq Q0 e 2 0 last extra fields\n', 'last'),
    ('q Q0 d 1 1 t\n#q Q0 e 2 0 commented\n', 't'), ('', None), ('# only a comment\n', None),
    ('q\tQ0\td\t1\t1\ttab\r\n', 'tab'),
])
def test_last_tag(text, tag):
    assert last_tag(text.encode()) == tag


def test_last_tag_of_a_large_file_is_read_from_its_end(tmp_path):
    path = tmp_path / 'run'
    path.write_bytes(b''.join(b'q Q0 d%d 1 1 early\n' % i for i in range(150_000))
                     + b'q Q0 e 1 1 ' + b'x' * 70_000 + b'\n# end\n')
    assert last_tag(FileData(str(path))) == 'x' * 70_000
    assert reader.read_trec_run_with_tag(str(path))[1] == 'x' * 70_000


def test_running_sum_adds_each_segment_on_its_own_left_to_right():
    rng = np.random.default_rng(1)
    values = rng.random(1000) * 10.0 ** rng.integers(-5, 5, 1000)
    segment = np.sort(rng.integers(0, 40, 1000))
    got = running_sum(values, offsets_of(segment, 40))
    for s in range(40):
        total = 0.0
        for i in np.flatnonzero(segment == s):
            total += values[i]
            assert got[i] == total                   # bit for bit, as a C loop adds
    assert len(running_sum(np.zeros(0), np.zeros(3, dtype=np.int64))) == 0


def test_suffix_max_restarts_at_every_segment():
    values = np.array([0.2, 0.5, 0.1, 0.9, 0.3, 0.3, 0.05])
    segment = np.array([0, 0, 0, 1, 1, 3, 3])
    assert suffix_max(values, segment).tolist() == [0.5, 0.5, 0.1, 0.9, 0.3, 0.3, 0.05]


@pytest.mark.parametrize('level, num_rel, trec_eval_9, trec_eval_10', [
    (0.5, 3, 2, 2), (0.4, 3, 2, 1), (0.6, 77, 47, 46), (0.1, 5, 1, 1), (0.1, 4, 1, 0), (0.25, 2, 1, 1),
    (0.0, 9, 0, 0), (1.0, 0, 0, 0), (0.35, 10, 4, 4), (0.05, 10, 1, 1),
])
def test_recall_counts(level, num_rel, trec_eval_9, trec_eval_10):
    assert recall_counts(level, np.array([num_rel]), 'trec_eval_9')[0] == trec_eval_9
    assert recall_counts(level, np.array([num_rel]), 'trec_eval_10')[0] == trec_eval_10 == \
        math.floor(level * num_rel + 0.5)                                           # lround, for x >= 0


def test_sequential_summaries():
    assert sequential_summary('mean', np.array([0.1] * 3)) == ((0.1 + 0.1) + 0.1) / 3
    assert math.copysign(1, sequential_summary('mean', np.array([-0.0, -0.0]))) == 1.0    # C's 0.0 + -0.0
    assert sequential_summary('gmean', np.array([0.0, 0.5])) == math.exp((math.log(1e-5) + math.log(0.5)) / 2)
    assert sequential_summary('sum', np.array([1.0, 2.0])) == 3.0
    assert math.isnan(sequential_summary('mean', np.array([0.5, math.nan])))
    assert sequential_summary('mean', np.array([0.5, math.nan]), skip_undefined=True) == 0.5
    assert math.isnan(sequential_summary('mean', np.array([])))


def test_cells_and_lines():
    assert [cell(v) for v in (0.03125, 1 / 3, -0.0, math.nan)] == ['0.0312', '0.3333', '-0.0000', '  -nan']
    assert cell(7.0, integer=True) == '7'
    out: list[str] = []
    write(out.append, ['b', 'a'], [Column('m', np.array([0.5, math.nan]), 0.25),
                                    Column('n_%d', np.array([1.0, 2.0]), 3.0, integer=True),
                                    Column('s', ["'x'", "''"], None), Column('t', None, 'tag'),
                                    Column('u', np.array([1.0, 0.0]), 1.0, omit=np.array([False, True]))])
    assert ''.join(out).splitlines() == [
        'm                     \tb\t0.5000', 'n_%d                  \tb\t1', "s                     \tb\t'x'",
        'u                     \tb\t1.0000',
        'm                     \ta\t  -nan', 'n_%d                  \ta\t2', "s                     \ta\t''",
        'm                     \tall\t0.2500', 'n_%d                  \tall\t3', 't                     \tall\ttag',
        'u                     \tall\t1.0000']
    assert trec_order(['10', '9', '1', 'b', 'B', 'é']).tolist() == [2, 0, 1, 4, 3, 5]


def test_the_trec_eval_layout_leaves_out_undefined_values(tmp_path):
    """--trec-eval: a measure undefined on a query (LAG without a relevant document) has no line there."""
    (tmp_path / 'q').write_text('q1 0 a 1\nq1 0 b 0\nq2 0 c 0\n')
    (tmp_path / 'r').write_text('q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\nq2 Q0 c 1 1 r\n')
    status, out, err = run_in_process(['--trec-eval', '-q', str(tmp_path / 'q'), str(tmp_path / 'r'), 'LAG', 'map'])
    assert status == 0, err
    assert out.decode().splitlines() == ['LAG                   \tq1\t1.0000', 'map                   \tq1\t0.5000',
                                         'map                   \tq2\t0.0000', 'LAG                   \tall\t1.0000',
                                         'map                   \tall\t0.2500']


def test_names_are_padded_by_bytes_as_printf_pads():
    """trec_eval's "%-22s" counts bytes: a name with a two-byte character gets one space fewer."""
    assert padded('ndcg') == 'ndcg' + ' ' * 18
    assert padded('é') == 'é' + ' ' * 20 and len(padded('é').encode()) == NAME_WIDTH
    assert padded('x' * 30) == 'x' * 30
