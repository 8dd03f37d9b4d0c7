"""The CLI's commands and flags beyond the output formats: measure syntax, several runs, providers,
``irmetrics measures`` / ``providers``, the progress bar, and a light start-up."""
import fcntl
import importlib
import os
import pty
import struct
import subprocess
import sys
import termios
import threading

import pytest
from cli_support import MISSING_Q3, irmetrics, run_ok, warnings_only

import irmetrics as irm


# --- measures as words ------------------------------------------------------------------------------
def test_measures_in_one_quoted_word_equal_separate_words(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP P@2 P(rel=2)@3') == \
        run_ok(here, 'qrels', 'a.run', 'AP', 'P@2', 'P(rel=2)@3')


def test_trec_eval_names(here):
    assert run_ok(here, 'qrels', 'a.run', 'map', 'P.1,2', 'ndcg_cut_3') == \
        run_ok(here, 'qrels', 'a.run', 'AP', 'P@1', 'P@2', 'nDCG@3')


def test_trec_eval_nickname_official(here):
    names = [line.split('\t')[0] for line in run_ok(here, 'qrels', 'a.run', 'official').splitlines()]
    assert names[:5] == ['NumQ', 'NumRet', 'NumRel', 'NumRet(rel=1)', 'AP'] and 'P@1000' in names


def test_duplicate_measures_are_printed_once(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP', 'map', 'MAP') == 'AP\t0.4444\n'


def test_ir_measures_flag_spellings(here):
    assert run_ok(here, 'qrels', 'a.run', 'AP', '--by_query', '--no_summary', '--places', '2') == \
        run_ok(here, 'qrels', 'a.run', 'AP', '-q', '-n', '-p', '2')


def test_options_may_come_anywhere(here):
    expected = run_ok(here, 'qrels', 'a.run', 'AP', '-q', '-p', '3')
    assert run_ok(here, '-q', 'qrels', 'a.run', '-p', '3', 'AP') == expected


# --- several runs -----------------------------------------------------------------------------------
def test_several_runs_equal_one_run_at_a_time(here):
    both = run_ok(here, 'qrels', 'a.run', 'b.run', '-m', 'AP P@2', '-f', 'tsv').splitlines()
    one = [f'a\t{line}' for line in run_ok(here, 'qrels', 'a.run', 'AP', 'P@2').splitlines()]
    two = [f'b\t{line}' for line in run_ok(here, 'qrels', 'b.run', 'AP', 'P@2').splitlines()]
    assert both == one + two


def test_one_run_with_m(here):
    assert run_ok(here, 'qrels', 'a.run', '-m', 'AP') == run_ok(here, 'qrels', 'a.run', 'AP')


# --- providers -----------------------------------------------------------------------------------------
def test_forced_provider_gives_the_same_numbers(here):
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    assert run_ok(here, 'qrels', 'a.run', 'AP', 'P@2', '--provider', 'pytrec_eval', '-p', '10') == \
        run_ok(here, 'qrels', 'a.run', 'AP', 'P@2', '--provider', 'native', '-p', '10')


def test_duplicates_flag(here):
    (here / 'dup.run').write_text('q1 Q0 d2 1 5.0 a\nq1 Q0 d1 2 3.0 a\nq1 Q0 d2 3 1.0 a\n')
    # first keeps d2 at 5.0 (above d1: P@1 = 0), last keeps d2 at 1.0 (d1 first: P@1 = 1 for q1)
    assert run_ok(here, 'qrels', 'dup.run', 'P@1', '--duplicates', 'first') == 'P@1\t0.0000\n'
    assert run_ok(here, 'qrels', 'dup.run', 'P@1', '--duplicates', 'last') == 'P@1\t0.3333\n'
    assert run_ok(here, 'qrels', 'dup.run', 'P@1', '--duplicates', 'max') == 'P@1\t0.0000\n'


# --- irmetrics measures / providers ---------------------------------------------------------------
def test_measures_lists_every_measure_with_parameters_aliases_and_providers():
    text = run_ok('.', 'measures')
    lines = text.splitlines()
    assert lines[0].split() == ['measure', 'parameters', 'aliases', 'providers']
    names = {line.split()[0] for line in lines[1:]}
    assert names == {d.name for d in irm.algebra.measure.REGISTRY.definitions()}
    ap = next(line for line in lines if line.startswith('AP '))
    assert '@cutoff' in ap and 'rel=1' in ap and 'judged_only=False' in ap and 'MAP' in ap and 'native' in ap


@pytest.mark.parametrize('name', ['nDCG', 'NDCG', 'nDCG@10', 'ndcg_cut', 'ndcg_cut.10'])
def test_measure_page(name):
    text = run_ok('.', 'measures', name)
    assert text.startswith('nDCG: Discounted cumulative gain')
    for part in ('formula', 'parameters', '@cutoff', "dcg='log2'", 'aliases', 'NDCG', 'trec_eval', 'ndcg_cut',
                 'providers', 'native', 'conventions', 'ties by document id descending', 'citation', 'Järvelin'):
        assert part in text, part


def test_measure_page_of_a_measure_lacking_parameters():
    assert run_ok('.', 'measures', 'Success(rel=2)').startswith('Success: ')


def test_several_measure_pages():
    text = run_ok('.', 'measures', 'AP', 'P')
    assert text.startswith('AP: ') and '\nP: ' in text


def test_providers_table():
    lines = run_ok('.', 'providers').splitlines()
    assert lines[0].split()[:3] == ['provider', 'installed', 'install']
    native = next(line for line in lines if line.startswith('native '))
    assert ' yes ' in native and 'built in' in native
    names = [line.split()[0] for line in lines[1:]]
    assert names == irm.providers.base.PROVIDERS.names()


def test_providers_table_reports_a_missing_engine(tmp_path):
    fake = tmp_path / 'fake' / 'pytrec_eval'
    fake.mkdir(parents=True)
    (fake / '__init__.py').write_text('raise ImportError("No module named pytrec_eval")\n')
    env = {'PYTHONPATH': os.pathsep.join([str(tmp_path / 'fake'), os.environ.get('PYTHONPATH', '')])}
    line = next(x for x in run_ok('.', 'providers', env=env).splitlines() if x.startswith('pytrec_eval '))
    assert line.split()[1] == 'no' and 'pip install' in line


# --- progress bar -------------------------------------------------------------------------------------
def run_with_terminal(here, *args, terminal: str = 'stderr', env: dict | None = None):
    """Run with ``terminal`` ('stdout' or 'stderr') on a 100-column pseudo-terminal and the other stream
    piped; returns (exit status, the terminal's text, the piped stream's text)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 100, 0, 0))
    streams = {'stdout': subprocess.PIPE, 'stderr': subprocess.PIPE, terminal: slave}
    proc = subprocess.Popen([sys.executable, '-m', 'irmetrics', *args], cwd=here,
                            env=dict(os.environ, **(env or {})), **streams)
    os.close(slave)
    chunks = []

    def drain():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    piped = (proc.stderr if terminal == 'stdout' else proc.stdout).read()
    status = proc.wait(timeout=120)
    reader.join(timeout=10)
    os.close(master)
    return status, b''.join(chunks).decode(errors='replace').replace('\r\n', '\n'), piped.decode()


def run_with_terminal_stderr(here, *args, delay: str):
    """Run with stderr on a terminal and a progress delay; returns (exit status, stdout, stderr)."""
    status, stderr, stdout = run_with_terminal(here, *args, env={'IRMETRICS_PROGRESS_DELAY': delay})
    return status, stdout, stderr


def test_progress_bar_on_a_terminal(here):
    status, stdout, stderr = run_with_terminal_stderr(here, 'qrels', 'a.run', 'b.run', '-m', 'AP', delay='0')
    assert status == 0 and stdout == 'a\tAP\t0.4444\nb\tAP\t0.8333\n'
    assert 'irmetrics' in stderr and '/5' in stderr and '%' in stderr and '<' in stderr   # steps, share, time left


def test_compare_shows_a_progress_bar_and_takes_quiet(here):
    status, stdout, stderr = run_with_terminal_stderr(here, 'compare', 'qrels', 'a.run', 'b.run', '-m', 'AP',
                                                      '-f', 'csv', delay='0')
    assert status == 0 and stdout.startswith('run,measure,mean') and '/4' in stderr and '%' in stderr
    status, quiet_out, stderr = run_with_terminal_stderr(here, 'compare', 'qrels', 'a.run', 'b.run', '-m', 'AP',
                                                         '-f', 'csv', '--quiet', delay='0')
    assert status == 0 and quiet_out == stdout and '/4' not in stderr


def test_no_progress_bar_with_quiet(here):
    status, stdout, stderr = run_with_terminal_stderr(here, 'qrels', 'a.run', 'AP', '--quiet', delay='0')
    assert status == 0 and stdout == 'AP\t0.4444\n' and warnings_only(stderr) == [MISSING_Q3]


def test_no_progress_bar_for_a_quick_job(here):
    status, _, stderr = run_with_terminal_stderr(here, 'qrels', 'a.run', 'AP', delay='30')
    assert status == 0 and warnings_only(stderr) == [MISSING_Q3]


def test_no_progress_bar_off_a_terminal(here):
    proc = irmetrics('qrels', 'a.run', 'AP', cwd=here, env={'IRMETRICS_PROGRESS_DELAY': '0'})
    assert proc.returncode == 0 and warnings_only(proc.stderr) == [MISSING_Q3]


# --- start-up ----------------------------------------------------------------------------------------
@pytest.mark.parametrize('command', [['qrels', 'a.run', 'AP', 'nDCG@10', 'P@5'], ['trec_eval', '-c', 'qrels', 'a.run']],
                         ids=['evaluate', 'trec_eval'])
def test_a_small_job_imports_neither_pandas_nor_pyarrow_nor_scipy(here, command):
    code = ('import sys\nfrom irmetrics.cli import main\n'
            f'status = main({command!r})\n'
            'heavy = [m for m in ("pandas", "pyarrow", "scipy", "tqdm", "ir_datasets") if m in sys.modules]\n'
            'assert status == 0 and not heavy, heavy\n')
    proc = subprocess.run([sys.executable, '-c', code], cwd=here, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_default_format_on_a_terminal_is_a_table(here):
    status, stdout, stderr = run_with_terminal(here, 'qrels', 'a.run', 'AP', 'P@2', terminal='stdout')
    assert status == 0 and warnings_only(stderr) == [MISSING_Q3]
    assert stdout == 'run      AP     P@2\na    0.4444  0.3333\n'


@pytest.mark.parametrize('command', ['measures', 'providers'])
@pytest.mark.parametrize('columns', [80, 100, 160])
def test_the_catalogs_fit_the_terminal(here, command, columns):
    """Wrapped to COLUMNS (before: 169-233-character lines on a 100-column terminal); every measure and
    provider is still listed, each starting a line."""
    proc = irmetrics(command, cwd=here, env={'COLUMNS': str(columns)})
    assert proc.returncode == 0 and max(map(len, proc.stdout.splitlines())) <= columns
    names = [line.split()[0] for line in proc.stdout.splitlines()[1:] if line and not line.startswith(' ')]
    whole = irmetrics(command, cwd=here, env={'COLUMNS': '1000'}).stdout.splitlines()[1:]
    assert names == [line.split()[0] for line in whole]
