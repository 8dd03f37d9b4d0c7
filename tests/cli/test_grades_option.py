"""``--grades real|trec_eval`` on every command that evaluates measures, and real thresholds on the command
line (``'P(rel=0.5)@4'``, ``kappa --rel 1.5``, ``qrels-stats --rel 0.5``).  Values by hand: under ``real`` a
fractional grade is kept; under ``trec_eval`` a TREC file's grades are read as trec_eval 10 reads their text
(C's ``atol``: ``2.7`` is 2, ``1e-3`` is 1), as ``irmetrics trec_eval`` reads them."""
import csv
import io
import json
import math

import pandas as pd
import pytest
from cli_support import irmetrics

import irmetrics as irm
from irmetrics.cli import args as cli_args

QRELS = '1 0 a 0.5\n1 0 b 2.7\n1 0 c 0\n1 0 d 1e-3\n2 0 a 1.5\n2 0 b 0\n'
RUN_R = '1 Q0 a 1 4.0 r\n1 Q0 b 2 3.0 r\n1 Q0 c 3 2.0 r\n1 Q0 d 4 1.0 r\n2 Q0 a 1 2.0 r\n2 Q0 b 2 1.0 r\n'
RUN_S = '1 Q0 d 1 4.0 s\n1 Q0 c 2 3.0 s\n1 Q0 b 3 2.0 s\n1 Q0 a 4 1.0 s\n2 Q0 b 1 2.0 s\n2 Q0 a 2 1.0 s\n'
LOG3, LOG5 = math.log2(3), math.log2(5)
#: query 1 of run r (a, b, c, d), by hand: real grades 0.5, 2.7, 0, 0.001; trec_eval's 0, 2, 0, 1
NDCG_1 = {'real': (0.5 + 2.7 / LOG3 + 0.001 / LOG5) / (2.7 + 0.5 / LOG3 + 0.001 / 2),
          'trec_eval': (2 / LOG3 + 1 / LOG5) / (2 + 1 / LOG3)}


@pytest.fixture
def files(tmp_path):
    for name, text in (('q.txt', QRELS), ('r.txt', RUN_R), ('s.txt', RUN_S)):
        (tmp_path / name).write_text(text)
    return tmp_path


def run_ok(*args, cwd):
    proc = irmetrics(*args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize('parser', ['evaluate', 'compare', 'gate', 'ties', 'agree', 'unjudged', 'discriminate',
                                    'swap_rates', 'reproduce'])
def test_every_evaluating_command_takes_grades(parser):
    build = getattr(cli_args, f'{parser}_parser')
    action = next(a for a in build()._actions if '--grades' in a.option_strings)
    assert action.default == 'real' and list(action.choices) == ['real', 'trec_eval']


@pytest.mark.parametrize('grades, p4', [('real', 0.25), ('trec_eval', 0.5)])
def test_the_evaluation_reads_grades_as_told(files, grades, p4):
    out = json.loads(run_ok('--grades', grades, 'q.txt', 'r.txt', '-m', 'nDCG P@4 P(rel=0.5)@4', '-q', '-f', 'json',
                            cwd=files))
    expected = {'nDCG': NDCG_1[grades], 'P@4': p4, 'P(rel=0.5)@4': 0.5}
    assert out['runs'][0]['per_query']['1'] == pytest.approx(expected, rel=1e-15)


def test_trec_evals_reading_is_the_drop_ins(files):
    """The drop-in prints trec_eval 10's bytes (tests/cli/test_trec_eval_grades.py); --grades trec_eval gives its
    values."""
    dropin = run_ok('trec_eval', '-q', '-m', 'ndcg', '-m', 'P.4', 'q.txt', 'r.txt', cwd=files)
    ours = run_ok('--grades', 'trec_eval', '--trec-eval', '-q', 'q.txt', 'r.txt', 'ndcg P.4', cwd=files)
    assert sorted(dropin.splitlines()) == sorted(ours.splitlines())
    assert f'ndcg                  \t1\t{NDCG_1["trec_eval"]:.4f}' in dropin.splitlines()


def test_other_inputs_take_the_integer_part(files):
    """A Parquet qrels has no text: the option takes each grade's integer part (0.001 is 0, so P@4 is 1/4)."""
    irm.to_qrels(pd.DataFrame({'query_id': ['1', '1', '1', '1'], 'doc_id': list('abcd'),
                               'relevance': [0.5, 2.7, 0, 0.001]})).to_parquet(files / 'q.parquet')
    for grades, p4, ndcg in (('real', 0.25, NDCG_1['real']), ('trec_eval', 0.25, 1 / LOG3)):
        out = json.loads(run_ok('--grades', grades, 'q.parquet', 'r.txt', 'nDCG', 'P@4', '-f', 'json', cwd=files))
        assert out['runs'][0]['aggregate'] == pytest.approx({'nDCG': ndcg, 'P@4': p4}, rel=1e-15)


@pytest.mark.parametrize('grades, mean_s', [('real', 0.25), ('trec_eval', 0.5)])
def test_compare_reads_grades_as_told(files, grades, mean_s):
    """P@2 of s: query 1 d (0.001, or 1), c (0); query 2 b (0), a (1.5, or 1)."""
    out = run_ok('compare', 'q.txt', 'r.txt', 's.txt', '-m', 'P@2', '--grades', grades, '-f', 'csv', cwd=files)
    means = {row['run']: float(row['mean']) for row in csv.DictReader(io.StringIO(out))}
    assert means == {'r': 0.5, 's': mean_s}


@pytest.mark.parametrize('command', [['ties', 'q.txt', 'r.txt'], ['unjudged', 'q.txt', 'r.txt']])
def test_the_checks_of_the_evaluation_read_grades_as_told(files, command):
    for grades, p4 in (('real', 0.25), ('trec_eval', 0.5)):
        rows = json.loads(run_ok(*command, '-m', 'P@4', '--grades', grades, '-f', 'json', cwd=files))
        value = rows[0]['trec_eval'] if command[0] == 'ties' else rows[0]['nonrelevant']
        assert value == pytest.approx((p4 + 0.25) / 2, rel=1e-15)            # query 2: a (1.5, or 1) of 4 ranks


def test_judgment_commands_take_a_real_threshold(files):
    (files / 'b.txt').write_text('1 0 a 0.5\n1 0 b 2\n1 0 c 0.5\n1 0 d 1e-3\n2 0 a 1.5\n2 0 b 0.5\n')
    rows = json.loads(run_ok('kappa', 'q.txt', 'b.txt', '--rel', '1.5', '-f', 'json', cwd=files))
    kappa = irm.cohen_kappa(files / 'q.txt', files / 'b.txt', rel=1.5)
    assert rows[0] == {'statistic': "Cohen's kappa (relevant: grade >= 1.5)", 'value': kappa.statistic}
    assert kappa.statistic == 1.0                      # >= 1.5: b and 2/a in both, nothing else in either
    stats = json.loads(run_ok('qrels-stats', 'q.txt', '--rel', '0.5', '-f', 'json', cwd=files))
    assert stats[-1]['relevant'] == 3 and stats[-1]['grade 2.7'] == 1       # 0.5, 2.7, 1.5


def test_agree_reads_each_qrels_grades_as_told(files):
    """P@2 of r, s and t (b, a in both queries) under the real grades and under their integer parts (written out
    as trec_eval reads them: 0, 2, 0, 1; 1, 0): s is 0.25 with the real ones, 0.5 with the others."""
    (files / 't.txt').write_text('1 Q0 b 1 4.0 t\n1 Q0 a 2 3.0 t\n2 Q0 b 1 2.0 t\n2 Q0 a 2 1.0 t\n')
    (files / 'whole.txt').write_text('1 0 a 0\n1 0 b 2\n1 0 c 0\n1 0 d 1\n2 0 a 1\n2 0 b 0\n')
    real, whole = {'r': 0.5, 's': 0.25, 't': 0.5}, {'r': 0.5, 's': 0.5, 't': 0.5}
    for extra, a, b in ((['--qrels-b', 'whole.txt'], real, whole), (['--qrels-b', 'q.txt', '--grades', 'trec_eval'],
                                                                     whole, whole)):
        out = json.loads(run_ok('agree', 'q.txt', 'r.txt', 's.txt', 't.txt', '-m', 'P@2', *extra, '--systems',
                                '-f', 'json', cwd=files))
        assert out['systems'] == {name: {'value_a': a[name], 'value_b': b[name]} for name in a}
