"""``irmetrics judges`` (irmetrics/cli/judges.py): the numbers of irmetrics.judge_agreement, every format, the
warnings once, and one-line errors."""
import csv
import io
import json
from pathlib import Path

import pytest
from cli_support import irmetrics
from repo_paths import EXAMPLES

import irmetrics as irm

QRELS, LLM = str(EXAMPLES / 'qrels.txt'), str(EXAMPLES / 'judges' / 'qrels_llm.txt')
RUNS = [str(EXAMPLES / 'run_bm25.txt'), str(EXAMPLES / 'run_dense.txt'),
        *(str(EXAMPLES / 'judges' / f'run_{n}.txt') for n in ('hybrid', 'rerank', 'title', 'bm25_top5'))]


def test_csv_holds_the_numbers_of_the_python_call():
    proc = irmetrics('judges', QRELS, LLM, *RUNS, '-m', 'AP', '--threshold', '1', '--top', '4', '--resamples', '200',
                     '--seed', '5', '-f', 'csv')
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == ['compared', 'statistic', 'value', 'ci_low', 'ci_high']
    expected = irm.judge_agreement('AP', QRELS, LLM, RUNS, threshold=1, top=4, n_resamples=200, seed=5)
    assert [row[:2] for row in rows[1:]] == [row[:2] for row in expected.table().rows]
    assert [float(row[2]) for row in rows[1:]] == [row[2] for row in expected.table().rows]
    assert rows[2][1] == "Cohen's kappa (relevant: grade >= 1)" and rows[-1][1] == 'top 4 overlap'


def test_the_table_report_names_the_qrels_by_their_stems():
    proc = irmetrics('judges', QRELS, LLM, *RUNS)
    assert proc.returncode == 0 and proc.stderr == ''
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ['statistic', 'value'] and lines[1].split()[-1] == '0.5596'
    assert 'qrels \\ qrels_llm    0   1   2   3' in lines
    assert any(line.startswith("Kendall's tau-b (top 3)") for line in lines)
    assert lines[-1].split() == ['run_bm25_top5', '0.3159', '0.3505', '6', '6']


def test_json_and_the_warnings_printed_once(tmp_path):
    extra = tmp_path / 'llm.txt'
    extra.write_text(Path(LLM).read_text() + '411 0 D411-001 2\n')
    proc = irmetrics('judges', QRELS, str(extra), *RUNS[:3], '-f', 'json')
    assert proc.returncode == 0 and proc.stderr == ''              # the warning is in the report, not on stderr
    document = json.loads(proc.stdout)
    assert document['judge'] == 'llm' and document['leaderboards']['top'] is None
    assert len(document['warnings']) == 1 and '1 in llm only are left out' in document['warnings'][0]
    proc = irmetrics('judges', QRELS, str(extra), *RUNS[:3], '-f', 'csv')
    assert 'irmetrics: warning: 0 topics judged in qrels only' in proc.stderr   # no place in CSV: on stderr


def test_qrels_with_the_same_stem_are_named_by_their_paths(tmp_path):
    (tmp_path / 'llm').mkdir()
    copy = tmp_path / 'llm' / 'qrels.txt'
    copy.write_text(Path(LLM).read_text())
    document = json.loads(irmetrics('judges', QRELS, str(copy), *RUNS[:3], '-f', 'json').stdout)
    assert (document['qrels'], document['judge']) == (QRELS, str(copy))


@pytest.mark.parametrize('args, message', [
    ([QRELS, LLM, RUNS[0]], '1 run: comparing leaderboards needs 3 runs or more'),
    ([QRELS, LLM, *RUNS[:3], '-m', 'AP', '-m', 'P@10'], '-m names 2 measures'),
    ([QRELS, LLM, *RUNS[:3], '--top', '3'], 'top=3: the top runs must be fewer than the 3 runs'),
    ([QRELS, LLM, *RUNS[:3], '--ci', '2'], "'ci'"),
])
def test_errors_are_one_line(args, message):
    proc = irmetrics('judges', *args)
    assert proc.returncode == 2 and proc.stdout == ''
    assert proc.stderr.startswith('irmetrics: error: ') and message in proc.stderr and proc.stderr.count('\n') == 1


def test_qrels_sharing_no_pair_are_one_line(tmp_path):
    other = tmp_path / 'other.txt'
    other.write_text('Q401 0 D401-022 2\n')
    proc = irmetrics('judges', QRELS, str(other), *RUNS[:3])
    assert proc.returncode == 2 and 'qrels (400 judgments of 10 queries) and other (1 judgments of 1 queries) judge ' \
        'no (query, document) pair in common' in proc.stderr and proc.stderr.count('\n') == 1
