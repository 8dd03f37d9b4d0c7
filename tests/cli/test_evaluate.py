"""The command line, run as a real process: ``python -m irmetrics`` and the ``irmetrics`` script.

Output follows ir_measures: ``measure<TAB>value``; with ``-q``, ``query<TAB>measure<TAB>value``
lines then ``all`` lines.  A user error is one line on stderr, exit status 2, no traceback.
"""
import importlib
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import irmetrics as irm
from irmetrics import AP, NumQ, NumRel, P, nDCG

QRELS = 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\nq2 0 d4 1\nq3 0 d9 1\n'
RUN = ('q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.9 tag\nq1 Q0 d3 3 0.1 tag\n'
       'q2 Q0 d4 1 2.0 tag\nq2 Q0 d5 2 1.0 tag\nq4 Q0 d1 1 1.0 tag\n')


@pytest.fixture
def files(tmp_path):
    qrels, run = tmp_path / 'qrels.txt', tmp_path / 'run.txt'
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


MISSING_Q3 = ("irmetrics: warning: {run}: 1 of the 3 qrels queries are not in the run ('q3'); they score 0 "
              "(trec_eval -c)\n")


def irmetrics(*args, script=False):
    """Run the command line; (exit status, stdout, stderr)."""
    if script:
        exe = shutil.which('irmetrics', path=str(pathlib.Path(sys.executable).parent)) or shutil.which('irmetrics')
        assert exe is not None, 'the irmetrics console script is not installed (pip install -e .)'
        command = [exe]
    else:
        command = [sys.executable, '-m', 'irmetrics']
    done = subprocess.run(command + [str(a) for a in args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONWARNINGS='ignore'), timeout=120)
    return done.returncode, done.stdout, done.stderr


def expected_lines(measures, qrels, run, places=4):
    return [f'{m}\t{v}' if m.definition.aggregate == 'sum' else f'{m}\t{v:.{places}f}'
            for m, v in irm.calc_aggregate(measures, qrels, run).by_measure().items()]


def test_aggregates_one_line_per_measure(files):
    status, out, err = irmetrics(*files, 'AP', 'nDCG@10', 'P(rel=2)@2', 'NumQ', 'NumRel')
    assert status == 0 and err == MISSING_Q3.format(run=files[1])
    assert out.splitlines() == expected_lines([AP, nDCG@10, P(rel=2)@2, NumQ, NumRel], *files)
    assert out.splitlines()[0] == f'AP\t{((1 / 2 + 2 / 3) / 2 + 1 / 2) / 3:.4f}'   # q3, missing from the run, scores 0
    assert out.splitlines()[3:] == ['NumQ\t3', 'NumRel\t5']                         # counts are integers


def test_console_script_and_module_agree(files):
    assert irmetrics(*files, 'AP', 'P@2', script=True) == irmetrics(*files, 'AP', 'P@2')


def test_by_query_then_all(files):
    status, out, err = irmetrics('-q', *files, 'AP', 'NumQ')
    assert status == 0 and err == MISSING_Q3.format(run=files[1])
    lines = [line.split('\t') for line in out.splitlines()]
    per_query = [line for line in lines if line[0] != 'all']
    assert lines[len(per_query):] == [['all', 'AP', f'{((1 / 2 + 2 / 3) / 2 + 1 / 2) / 3:.4f}'], ['all', 'NumQ', '3']]
    expected = {(m.query_id, str(m.measure)) for m in irm.iter_calc([AP, NumQ], *files)}
    assert {(q, m) for q, m, _ in per_query} == expected
    assert {q for q, _, _ in per_query} == {'q1', 'q2', 'q3'}              # the qrels' queries; q4 is ignored
    assert dict(((q, m), v) for q, m, v in per_query)[('q3', 'AP')] == '0.0000'


def test_by_query_without_summary(files):
    status, out, _ = irmetrics('-q', '-n', *files, 'AP')
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 3 and not any(line.startswith('all\t') for line in lines)


def test_places(files):
    _, out, _ = irmetrics('-p', '6', *files, 'AP', 'NumRel')
    assert out.splitlines() == expected_lines([AP, NumRel], *files, places=6)
    _, out, _ = irmetrics('-p', '2', *files, 'P@2')
    assert out.splitlines() == ['P@2\t0.33']


def test_forced_pytrec_eval_provider_prints_the_same(files):
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    measures = ['AP', 'nDCG@10', 'P@2', 'Bpref', 'NumQ', 'NumRel', 'IPrec@0.5']
    native = irmetrics(*files, *measures)
    forced = irmetrics('--provider', 'pytrec_eval', *files, *measures)
    assert forced[0] == 0 and forced == native


def test_trec_eval_measure_names(files):
    status, out, _ = irmetrics(*files, 'map', 'P_1,2', 'ndcg_cut.10', 'num_q')
    assert status == 0
    assert out.splitlines() == expected_lines([AP, P@1, P@2, nDCG@10, NumQ], *files)


@pytest.mark.parametrize('make_args, fragment', [
    (lambda q, r, tmp: [tmp / 'absent.txt', r, 'AP'], 'absent.txt: no such file'),
    (lambda q, r, tmp: [q, tmp / 'bad.run', 'AP'], 'bad.run:2: '),
    (lambda q, r, tmp: [q, tmp / 'dup.run', 'AP'], "duplicate document 'd1': retrieved more than once"),
    (lambda q, r, tmp: [q, r, 'nDGC@10'], "unknown measure 'nDGC'"),
    (lambda q, r, tmp: [q, r, 'P@0'], "invalid value 0 for parameter 'cutoff'"),
    (lambda q, r, tmp: [q, r, 'SetF(beta=-1)'], "parameter 'beta'"),
    (lambda q, r, tmp: [q, r, 'P(foo=1)@5'], "no parameter 'foo'"),
    (lambda q, r, tmp: [q, r, 'P(rel=2'], 'cannot parse'),
    (lambda q, r, tmp: ['--provider', 'nosuch', q, r, 'AP'], "unknown provider 'nosuch'"),
    (lambda q, r, tmp: ['--provider', 'pytrec_eval', q, r, 'RR@5'], "does not support RR@5"),
])
def test_errors_are_one_line_with_status_2(files, tmp_path, make_args, fragment):
    (tmp_path / 'bad.run').write_text('q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 high tag\n')
    (tmp_path / 'dup.run').write_text('q1 Q0 d1 1 0.5 tag\nq1 Q0 d1 2 0.4 tag\n')
    status, out, err = irmetrics(*make_args(*files, tmp_path))
    assert status == 2
    assert out == ''
    assert len(err.splitlines()) == 1 and err.startswith('irmetrics: error: ') and 'Traceback' not in err
    assert fragment in err


def test_unknown_measure_error_suggests_names(files):
    _, _, err = irmetrics(*files, 'Sucess@5')
    assert 'did you mean' in err and 'Success' in err
