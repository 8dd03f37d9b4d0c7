"""``irmetrics agree`` (irmetrics/cli/agree.py): the numbers of the Python API, every format, one-line errors."""
import csv
import io
import json
import re
from pathlib import Path

import pytest
from cli_support import irmetrics
from repo_paths import EXAMPLES

import irmetrics as irm

QRELS, BM25, DENSE = (str(EXAMPLES / n) for n in ('qrels.txt', 'run_bm25.txt', 'run_dense.txt'))


@pytest.fixture
def third_run(tmp_path):
    """A third system: the example BM25 run cut to its first 3 documents, reversed."""
    lines = [line.split() for line in Path(BM25).read_text().splitlines()]
    kept = [f'{q} Q0 {d} {r} {4 - int(r)} cut\n' for q, _, d, r, _, _ in lines if int(r) <= 3]
    path = tmp_path / 'run_cut.txt'
    path.write_text(''.join(kept))
    return str(path)


def test_two_measures(third_run):
    proc = irmetrics('agree', QRELS, BM25, DENSE, third_run, '-m', 'AP', '-m', 'nDCG@10', '-p', '-1', '-f', 'csv')
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == ['statistic', 'value', 'p-value']
    expected = irm.system_agreement('AP', QRELS, {'run_bm25': BM25, 'run_dense': DENSE, 'run_cut': third_run},
                                    measure_b='nDCG@10')
    values = {name: float(value) for name, value, _ in rows[1:]}
    assert values["Kendall's tau-b"] == expected.tau.statistic
    assert values['tau_AP (a)'] == expected.tau_ap.statistic
    assert values['RBO_EXT (p=0.9)'] == expected.rbo.extrapolated
    assert values['RBO_MIN'] == expected.rbo.minimum and values['RBO_RES'] == expected.rbo.residual
    assert float(rows[1][2]) == pytest.approx(expected.tau.pvalue, rel=1e-3)


def test_two_qrels_table_and_systems(tmp_path, third_run):
    strict = tmp_path / 'strict.txt'
    judged = (x.split() for x in Path(QRELS).read_text().splitlines())
    strict.write_text(''.join(f'{q} 0 {d} {int(int(r) >= 2)}\n' for q, _, d, r in judged))
    proc = irmetrics('agree', QRELS, BM25, DENSE, third_run, '-m', 'P@10', '--qrels-b', str(strict))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ['statistic', 'value', 'p-value']
    assert lines[-1] == f'3 systems; a (the reference of tau_AP): P@10 on {QRELS}; b: P@10 on {strict}'
    proc = irmetrics('agree', QRELS, BM25, DENSE, third_run, '-m', 'P@10', '--qrels-b', str(strict), '--systems',
                     '-f', 'json')
    document = json.loads(proc.stdout)
    assert set(document['systems']) == {'run_bm25', 'run_dense', 'run_cut'}
    assert document['label_b'] == f'P@10 on {strict}'


def test_systems_table_in_markdown_and_tsv(third_run):
    args = ['agree', QRELS, BM25, DENSE, third_run, '-m', 'AP', '-m', 'P@5', '--systems']
    markdown = irmetrics(*args, '-f', 'markdown').stdout.splitlines()
    assert markdown[0] == '| system | AP on ' + QRELS.replace('_', '\\_') + ' | P@5 on ' + QRELS.replace('_', '\\_') \
        + ' | rank\\_a | rank\\_b |'
    tsv = irmetrics(*args, '-f', 'tsv').stdout.splitlines()
    assert [row.split('\t')[0] for row in tsv] == ['system', 'run_dense', 'run_bm25', 'run_cut']


def test_plot_file(tmp_path, third_run):
    target = tmp_path / 'agree.png'
    proc = irmetrics('agree', QRELS, BM25, DENSE, third_run, '-m', 'AP', '-m', 'P@5', '--plot', str(target),
                     '--plot-by', 'rank')
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_runs_mode():
    proc = irmetrics('agree', '--runs', BM25, DENSE, '--depth', '10', '-q', '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    expected = irm.run_agreement(BM25, DENSE, depth=10)
    assert document['run_a'] == 'run_bm25' and document['run_b'] == 'run_dense'
    assert document['mean_ktu'] == expected.mean_ktu and document['mean_rbo'] == expected.mean_rbo
    table = irmetrics('agree', '--runs', BM25, DENSE, '--depth', '10').stdout.splitlines()
    assert table[0].split() == ['query', 'KTU', 'RBO', 'RBO_MIN', 'RBO_RES']
    assert table[1].split()[:3] == ['all', f'{expected.mean_ktu:.4f}', f'{expected.mean_rbo:.4f}']
    assert len(table) == 2                                                   # without -q: the means only
    by_query = irmetrics('agree', '--runs', BM25, DENSE, '-q', '-f', 'tsv').stdout.splitlines()
    assert len(by_query) == 1 + 10 + 1


@pytest.mark.parametrize('args, message', [
    (['--runs', BM25], '--runs compares two runs, got 1'),
    (['--runs', BM25, DENSE, '-m', 'AP'], 'without qrels'),
    ([QRELS, BM25, DENSE, '-m', 'AP'], 'give --qrels-b QRELS_B'),
    ([QRELS, BM25, '-m', 'AP', '-m', 'P@5'], 'two runs or more'),
    ([QRELS, BM25, DENSE, '-m', 'AP', '-m', 'P@5', '--depth', '3'], '--depth cuts the rankings of --runs'),
    ([QRELS, BM25, DENSE, '-m', 'AP', '-m', 'P@5', '-m', 'P@10'], '-m names 3 measures'),
    ([QRELS, BM25, DENSE, '-m', 'AP', '-m', 'P@5', '--rbo-p', '1.5'], "invalid value 1.5 for option 'p'"),
    (['--runs', BM25, DENSE, '--depth', '0'], 'depth=0'),
    ([QRELS, BM25, DENSE, '-m', 'AP', '--qrels-b', 'nowhere.txt'], 'nowhere.txt'),
])
def test_user_errors_are_one_line_and_exit_2(args, message):
    proc = irmetrics('agree', *args)
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if line.startswith('irmetrics: error:')]
    assert len(errors) == 1 and message in errors[0], proc.stderr


def test_help():
    proc = irmetrics('agree', '--help')
    assert proc.returncode == 0 and '--qrels-b' in proc.stdout and '--runs' in proc.stdout


def test_a_tied_first_ranking_gives_tau_ap_nan_with_a_warning_and_keeps_tau_and_rbo():
    args = (QRELS, f'a={BM25}', f'b={BM25}', DENSE, '-m', 'AP', '-m', 'P@5')
    proc = irmetrics('agree', *args, '-f', 'json')
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"warning: tau_AP is NaN: under AP on \S*qrels.txt \(the reference\) the systems 'a', 'b' tie",
                     proc.stderr), proc.stderr
    assert '--tie-variant b' in proc.stderr
    document = json.loads(proc.stdout)
    assert document['tau_ap']['statistic'] is None and document['tau']['statistic'] == pytest.approx(1.0)
    with pytest.warns(irm.IrmetricsWarning, match='tau_AP is NaN'):
        found = irm.system_agreement('AP', QRELS, {'a': BM25, 'b': BM25, 'run_dense': DENSE}, measure_b='P@5')
    assert document['rbo']['extrapolated'] == found.rbo.extrapolated and document['tau'] == found.tau.to_dict()
    table = irmetrics('agree', *args, '--tie-variant', 'b')
    assert table.returncode == 0 and table.stdout.splitlines()[2].split()[:2] == ['tau_AP', '(b)']


def test_two_systems_print_nan_and_json_null():
    table = irmetrics('agree', QRELS, BM25, DENSE, '-m', 'AP', '-m', 'P@5')
    assert table.returncode == 0
    assert table.stdout.splitlines()[1].split() == ["Kendall's", 'tau-b', 'nan']
    assert "Kendall's tau of 2 items is NaN" in table.stderr
    document = json.loads(irmetrics('agree', QRELS, BM25, DENSE, '-m', 'AP', '-m', 'P@5', '-f', 'json').stdout)
    assert document['tau']['statistic'] is None and document['tau_ap']['statistic'] is None
    assert document['rbo']['extrapolated'] == 1.0
