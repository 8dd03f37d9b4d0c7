"""``irmetrics ties`` and ``--ties``: what they print, checked against the Python API on the same files."""
import json

import pytest
from cli_support import irmetrics

import irmetrics as irm
from irmetrics import AP, Bpref, P

QRELS = 'q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq2 0 a 2\nq2 0 d 0\n'
RUN = 'q1 Q0 a 1 1.0 r\nq1 Q0 b 2 1.0 r\nq1 Q0 c 3 0.5 r\nq2 Q0 d 1 2.0 r\nq2 Q0 a 2 1.0 r\n'


@pytest.fixture
def files(tmp_path):
    (tmp_path / 'qrels').write_text(QRELS)
    (tmp_path / 'run').write_text(RUN)
    return tmp_path


def test_the_table_gives_each_measure_in_trec_eval_s_order_expected_lowest_and_highest(files):
    done = irmetrics('ties', 'qrels', 'run', '-m', 'P@1', '-m', 'Bpref', cwd=files)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ['measure', 'trec_eval', 'expected', 'lowest', 'highest', 'spread', 'queries_tied']
    # q1: a and b tie at the top, a relevant: P@1 is 0 in trec_eval's order (b > a), 1/2 expected, 0..1;
    # q2 has no tie: P@1 = 0.  Means: 0, 0.25, 0, 0.5; half the queries depend on the order.
    assert lines[1].split() == ['P@1', '0.0000', '0.2500', '0.0000', '0.5000', '0.5000', '0.5000']
    bpref = irm.calc_aggregate([Bpref], files / 'qrels', files / 'run')[Bpref]
    assert lines[2].split()[:3] == ['Bpref', f'{bpref:.4f}', 'nan']         # no expectation known: bounds only


def test_by_query_as_csv_and_the_summary_as_json(files):
    done = irmetrics('ties', 'qrels', 'run', '-m', 'P@1', '-q', '-f', 'csv', cwd=files)
    assert done.stdout.splitlines() == ['query_id,measure,value,expected,lowest,highest',
                                        'q1,P@1,0.0,0.5,0.0,1.0', 'q2,P@1,0.0,0.0,0.0,0.0']
    done = irmetrics('ties', 'qrels', 'run', '-m', 'Bpref', '-f', 'json', cwd=files)
    (row,) = json.loads(done.stdout)
    assert row['measure'] == 'Bpref' and row['expected'] is None and row['lowest'] <= row['trec_eval'] <= row['highest']


def test_ties_expected_on_the_evaluation_and_its_refusal(files):
    done = irmetrics('qrels', 'run', '-m', 'P@1', '-m', 'AP', '--ties', 'expected', '-f', 'tsv', cwd=files)
    assert done.returncode == 0, done.stderr
    want = irm.calc_aggregate([P(ties='expected') @ 1, AP(ties='expected')], files / 'qrels', files / 'run')
    rows = [line.split('\t') for line in done.stdout.splitlines()]
    assert [name for name, _ in rows] == ["P(ties='expected')@1", "AP(ties='expected')"]
    assert [float(v) for _, v in rows] == pytest.approx(list(want.values()), abs=5e-5)
    done = irmetrics('qrels', 'run', '-m', 'Bpref', '--ties', 'expected', cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("irmetrics: error: Bpref(ties='expected'): no exact expectation")
