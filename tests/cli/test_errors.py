"""Every user error of the CLI is one line on stderr naming the problem, exit status 2, no traceback.

Each test runs the real command in a subprocess.  Missing engines and datasets are simulated with a
stand-in module put first on PYTHONPATH.
"""
import importlib
import os
import subprocess
import sys

import pytest
from cli_support import assert_user_error, irmetrics


def fake_module(tmp_path, name: str, source: str) -> dict:
    """An environment whose PYTHONPATH starts with a package ``name`` holding ``source``."""
    root = tmp_path / 'fake_modules'
    (root / name).mkdir(parents=True)
    (root / name / '__init__.py').write_text(source)
    return {'PYTHONPATH': os.pathsep.join([str(root), os.environ.get('PYTHONPATH', '')])}


# --- command-line usage --------------------------------------------------------------------------
@pytest.mark.parametrize('args, fragment', [
    ([], 'required: QRELS'),
    (['qrels'], 'no a run and measures given'),
    (['qrels', 'a.run'], 'no measures given'),
    (['qrels', '-m', 'AP'], 'no run given'),
    (['qrels', 'a.run', 'AP', '-n'], '-n/--no_summary only makes sense with -q'),
    (['qrels', 'a.run', 'b.run', '-m', 'AP', '--trec-eval'], '--trec-eval prints one run'),
    (['qrels', 'a.run', 'AP', '--trec-eval', '--format', 'tsv'], 'not allowed with argument'),
    (['qrels', 'a.run', 'AP', '--format', 'xml'], "invalid choice: 'xml'"),
    (['qrels', 'a.run', 'AP', '-p', 'four'], "argument -p/--places: 'four' is not an integer"),
    (['qrels', 'a.run', 'AP', '--no-such-flag'], 'unrecognized arguments: --no-such-flag'),
    (['qrels', 'a.run', 'AP', '--duplicates', 'sum'], "invalid choice: 'sum'"),
    (['measures', '--bogus'], 'unrecognized arguments: --bogus'),
    (['providers', 'extra'], 'unrecognized arguments: extra'),
])
def test_usage_errors(here, args, fragment):
    line = assert_user_error(irmetrics(*args, cwd=here), fragment)
    assert line.endswith('(see irmetrics --help)')


def test_help_and_version_exit_0(here):
    for args in (['--help'], ['measures', '--help'], ['providers', '-h']):
        proc = irmetrics(*args, cwd=here)
        assert proc.returncode == 0 and 'usage' in proc.stdout.lower() and proc.stderr == ''
    proc = irmetrics('--version', cwd=here)
    assert proc.returncode == 0 and proc.stdout.startswith('irmetrics ')


# --- files ---------------------------------------------------------------------------------------
def test_missing_run_file(here):
    assert_user_error(irmetrics('qrels', 'nope.run', 'AP', cwd=here), 'nope.run: no such file')


def test_missing_qrels_file(here):
    assert_user_error(irmetrics('nope.txt', 'a.run', 'AP', cwd=here), 'nope.txt: no such file')


def test_directory_instead_of_a_file(here):
    (here / 'dir').mkdir()
    assert_user_error(irmetrics('qrels', 'dir', 'AP', cwd=here), 'dir: is a directory')


@pytest.mark.skipif(hasattr(os, 'geteuid') and os.geteuid() == 0, reason='root reads any file')
def test_unreadable_file(here):
    os.chmod(here / 'a.run', 0)
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', cwd=here), 'a.run', 'ermission denied')


def test_malformed_qrels_line_names_file_and_line(here):
    (here / 'bad.qrels').write_text('q1 0 d1 1\nq1 0 d2\n')
    assert_user_error(irmetrics('bad.qrels', 'a.run', 'AP', cwd=here), 'bad.qrels:2')


def test_malformed_run_line_names_file_and_line(here):
    (here / 'bad.run').write_text('q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 high a\n')
    assert_user_error(irmetrics('qrels', 'bad.run', 'AP', cwd=here), 'bad.run:2')


def test_non_finite_score(here):
    (here / 'nan.run').write_text('q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 nan a\n')
    assert_user_error(irmetrics('qrels', 'nan.run', 'AP', cwd=here), 'nan.run:2', 'not a finite number')


def test_duplicate_document_is_an_error_unless_resolved(here):
    (here / 'dup.run').write_text('q1 Q0 d1 1 3.0 a\nq1 Q0 d1 2 2.0 a\n')
    assert_user_error(irmetrics('qrels', 'dup.run', 'P@1', cwd=here), 'dup.run', "'d1'", 'more than once')
    for policy in ('first', 'last', 'max'):
        proc = irmetrics('qrels', 'dup.run', 'P@1', '--duplicates', policy, cwd=here)
        assert proc.returncode == 0 and proc.stdout == 'P@1\t0.3333\n', proc.stderr


def test_a_later_run_failing_prints_nothing(here):
    assert_user_error(irmetrics('qrels', 'b.run', 'missing.run', '-m', 'AP', cwd=here),
                      'missing.run: no such file')


# --- measures ------------------------------------------------------------------------------------
def test_unknown_measure_suggests_names(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'nDGC@10', cwd=here), "unknown measure 'nDGC'", 'did you mean')


def test_invalid_parameter(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'P@0', cwd=here), "parameter 'cutoff'", 'an integer >= 1')


def test_measure_syntax_error(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'P(rel=2@5', cwd=here), 'cannot parse measure')


def test_missing_required_parameter(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'Success', cwd=here), 'Success needs parameter(s) cutoff')


def test_bad_trec_eval_parameter(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'P.5,x', cwd=here), "invalid parameter 'x'")


def test_run_file_given_as_measure_without_m(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'b.run', 'AP', cwd=here), "'b.run' is a file, not a measure",
                      '-m')


def test_measure_given_as_run_with_m(here):
    assert_user_error(irmetrics('qrels', 'a.run', '-m', 'AP', 'P@2', cwd=here),
                      "'P@2' is not a file but a measure",
                      "-m 'AP P@2'")


def test_unknown_measure_in_measures_command():
    assert_user_error(irmetrics('measures', 'nDCGG'), "unknown measure 'nDCGG'", 'did you mean nDCG')


# --- providers -----------------------------------------------------------------------------------
def test_unknown_provider(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', '--provider', 'trec_evil', cwd=here),
                      "unknown provider 'trec_evil'", 'native')


def test_provider_that_does_not_support_the_measure(here):
    importlib.import_module('pytrec_eval')   # a reference tool: fails if missing
    assert_user_error(irmetrics('qrels', 'a.run', 'Hits@2', '--provider', 'pytrec_eval', cwd=here),
                      "provider 'pytrec_eval' does not support Hits@2", 'native')


def test_provider_not_installed(here, tmp_path):
    env = fake_module(tmp_path, 'pytrec_eval', 'raise ImportError("No module named pytrec_eval")\n')
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', '--provider', 'pytrec_eval', cwd=here, env=env),
                      "provider 'pytrec_eval' is not installed", 'pip install')


# --- ir_datasets ---------------------------------------------------------------------------------
def test_dataset_id_without_ir_datasets(here, tmp_path):
    env = fake_module(tmp_path, 'ir_datasets', 'raise ImportError("No module named ir_datasets")\n')
    assert_user_error(irmetrics('msmarco-passage/dev/small', 'a.run', 'AP', cwd=here, env=env),
                      'msmarco-passage/dev/small', 'ir_datasets is not installed', 'irmetrics[ir_datasets]')


FAKE_IR_DATASETS = '''
from collections import namedtuple
TrecQrel = namedtuple('TrecQrel', 'query_id doc_id relevance iteration')

class Dataset:
    def __init__(self, dataset_id):
        self.dataset_id = dataset_id
    def has_qrels(self):
        return self.dataset_id != 'fake/no-qrels'
    def qrels_iter(self):
        if self.dataset_id == 'fake/offline':
            raise RuntimeError('All download sources failed', ['network unreachable'])
        yield TrecQrel('q1', 'd1', 1, '0')
        yield TrecQrel('q1', 'd3', 2, '0')
        yield TrecQrel('q2', 'd4', 1, '0')

def load(dataset_id):
    if not dataset_id.startswith('fake/'):
        raise KeyError(dataset_id)
    return Dataset(dataset_id)
'''


def test_dataset_id_reads_the_qrels(here, tmp_path):
    env = fake_module(tmp_path, 'ir_datasets', FAKE_IR_DATASETS)
    proc = irmetrics('fake/qrels', 'a.run', 'P@3', 'NumQ', '-q', cwd=here, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ('q1\tP@3\t0.6667\nq1\tNumQ\t1\nq2\tP@3\t0.3333\nq2\tNumQ\t1\n'
                           'all\tP@3\t0.5000\nall\tNumQ\t2\n')


@pytest.mark.parametrize('dataset_id, fragments', [
    ('fake/offline', ('ir_datasets:fake/offline', 'not available offline', 'All download sources failed')),
    ('fake/no-qrels', ('ir_datasets:fake/no-qrels', 'has no qrels')),
    ('nothing/here', ('nothing/here: no such file, and no ir_datasets dataset of that id',)),
])
def test_dataset_errors(here, tmp_path, dataset_id, fragments):
    env = fake_module(tmp_path, 'ir_datasets', FAKE_IR_DATASETS)
    assert_user_error(irmetrics(dataset_id, 'a.run', 'AP', cwd=here, env=env), *fragments)


def test_unknown_dataset_id_with_the_real_ir_datasets(here):
    importlib.import_module('ir_datasets')   # a reference tool: fails if missing
    assert_user_error(irmetrics('no-such-collection/dev', 'a.run', 'AP', cwd=here),
                      'no such file, and no ir_datasets dataset of that id')


# --- output closed early -------------------------------------------------------------------------
#: Runs irmetrics with a standard output whose reader has gone: every write raises BrokenPipeError (as
#: a write to a pipe closed by ``head`` does; a test cannot count on the kernel's timing of it).
_GONE_READER = """
import io, sys
class GoneBytes(io.BytesIO):
    def write(self, data):
        raise BrokenPipeError(32, 'Broken pipe')
class Gone(io.TextIOWrapper):
    def write(self, text):
        raise BrokenPipeError(32, 'Broken pipe')
sys.stdout = Gone(GoneBytes())
sys.stdout.fileno = lambda: 1
from irmetrics.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize('command', [['qrels', 'a.run', 'official', '-q'],
                                     ['trec_eval', '-q', '-c', 'qrels', 'a.run'],
                                     ['compare', 'qrels', 'a.run', 'b.run', '-m', 'AP']])
def test_a_pipe_closed_early_ends_quietly_with_status_1(here, command):
    """``irmetrics ... | head``: not everything was written (status 1), but the reader chose to stop, so
    no error is said (warnings about the input stay) and no traceback printed."""
    done = subprocess.run([sys.executable, '-c', _GONE_READER, *command], cwd=here, capture_output=True)
    assert done.returncode == 1 and b'error' not in done.stderr and b'Traceback' not in done.stderr


@pytest.mark.parametrize('command', [['qrels', 'a.run', 'AP'], ['trec_eval', 'qrels', 'a.run'],
                                     ['compare', 'qrels', 'a.run', 'b.run', '-m', 'AP']])
def test_a_closed_standard_output_is_one_error_line(here, command):
    """``irmetrics ... >&-``: one line on stderr, status 2 (before: an AttributeError traceback)."""
    done = subprocess.run([sys.executable, '-m', 'irmetrics', *command], cwd=here, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr.decode() == 'irmetrics: error: standard output is closed: nowhere to write the results\n'


def test_places_below_minus_one_are_refused(here):
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', '-p', '-5', cwd=here), '-p/--places', '-5')


# --- absurd numbers: one line each, never a traceback or a hang ----------------------------------------
@pytest.mark.parametrize('args, message', [
    (['--resamples', '100000000000'], "invalid value 100000000000 for option 'n_resamples': expected an integer >= 1 "
                                      "and <= 100000000"),
    (['--resamples', '0'], "expected an integer >= 1 and <= 100000000"),
])
def test_a_resample_count_beyond_the_maximum_is_one_line(here, args, message):
    assert_user_error(irmetrics('compare', 'qrels', 'a.run', 'b.run', '-m', 'AP', *args, cwd=here), message)


@pytest.mark.parametrize('command', [['compare', 'qrels', 'a.run', 'b.run', '-m', 'AP', '--test', 'bootstrap'],
                                     ['compare', 'qrels', 'a.run', 'b.run', '-m', 'AP', '--ci-method', 'bca'],
                                     ['discriminate', 'qrels', 'a.run', 'b.run', '-m', 'AP'],
                                     ['swap-rates', 'qrels', 'a.run', 'b.run', '-m', 'AP']])
def test_a_memory_limit_below_one_block_of_resamples_is_one_line(here, command):
    """Resamples beyond the memory limit are drawn again block by block (tests/comparing/test_replicates.py);
    a limit that holds no block is one line, before anything is evaluated."""
    assert_user_error(irmetrics(*command, '--memory-limit', '100M', cwd=here),
                      'a memory limit of 100.0 MiB holds no block of resamples', 'give 160 MiB or more')


@pytest.mark.parametrize('address, message', [('local:10000', 'local workers on this machine'),
                                              ('local:0', 'needs a number of workers N >= 1'),
                                              ('local:٣', 'needs a number of workers N >= 1')])
def test_a_local_cluster_of_absurd_size_is_one_line(here, address, message):
    assert_user_error(irmetrics('--dask', address, 'qrels', 'a.run', 'AP', cwd=here), message)


def test_out_of_memory_is_one_line(here, monkeypatch):
    from cli_support import run_in_process

    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr('irmetrics.api.calc.evaluator', exhausted)
    monkeypatch.chdir(here)
    status, out, err = run_in_process(['qrels', 'a.run', 'AP'])
    assert (status, out) == (2, b'') and err.startswith('irmetrics: error: out of memory') and err.count('\n') == 1


# --- smaller probes of hostile input -------------------------------------------------------------------
def test_a_path_holding_a_newline_is_a_path(tmp_path, here):
    """A string with a newline is TREC text unless it names a file: a file may hold one in its name."""
    import irmetrics as irm
    odd = tmp_path / 'run\nname.txt'
    odd.write_bytes((here / 'a.run').read_bytes())
    assert irm.calc_aggregate(['AP'], str(here / 'qrels'), str(odd)) == \
        irm.calc_aggregate(['AP'], str(here / 'qrels'), str(here / 'a.run'))
    assert irmetrics(str(here / 'qrels'), str(odd), '-m', 'AP').returncode == 0


def test_a_run_on_standard_input_in_the_main_command(here, monkeypatch):
    from cli_support import run_in_process
    monkeypatch.chdir(here)
    expected = run_in_process(['qrels', 'a.run', '-m', 'AP'])
    status, out, err = run_in_process(['qrels', '-', '-m', 'AP'], (here / 'a.run').read_bytes())
    assert (status, out) == (0, expected[1])
    status, out, err = run_in_process(['qrels', '-', '-m', 'AP'], b'q1 Q0 d1 1\n')
    assert status == 2 and err.startswith('irmetrics: error: <stdin>:1: expected at least 6 fields')
    assert_user_error(irmetrics('qrels', '-', '-', '-m', 'AP', cwd=here), 'standard input (-) can be one run only')
    assert_user_error(irmetrics('--dask', 'local:1', 'qrels', '-', '-m', 'AP', cwd=here),
                      "a run on standard input (-) is read here, not by Dask's workers")


def test_a_long_option_is_its_whole_name(here):
    """--output is no abbreviation of --output_format (before: '--output x' was an invalid format)."""
    assert_user_error(irmetrics('qrels', 'a.run', '-m', 'AP', '--output', 'x', cwd=here),
                      'unrecognized arguments: --output x')
    assert_user_error(irmetrics('qrels', 'a.run', '-m', 'AP', '--by_q', cwd=here), 'unrecognized arguments: --by_q')


def test_compare_output_dash_is_standard_output(here):
    done = irmetrics('compare', 'qrels', 'a.run', 'b.run', '-m', 'AP', '--output', '-', cwd=here)
    assert done.returncode == 0 and done.stdout.startswith('run') and not (here / '-').exists()


@pytest.mark.parametrize('measures', [None, 5, [None]])
def test_no_measures_is_a_measure_error(here, measures):
    import irmetrics as irm
    with pytest.raises(irm.MeasureError, match='expected a measure'):
        irm.calc_aggregate(measures, str(here / 'qrels'), str(here / 'a.run'))


def test_a_loop_of_symbolic_links_is_named_so(tmp_path, here):
    (tmp_path / 'one').symlink_to(tmp_path / 'two')
    (tmp_path / 'two').symlink_to(tmp_path / 'one')
    for command in (['qrels', str(tmp_path / 'one'), '-m', 'AP'], ['trec_eval', 'qrels', str(tmp_path / 'one')]):
        assert_user_error(irmetrics(*command, cwd=here), 'a loop of symbolic links')


def test_a_file_name_with_control_characters_is_shown_escaped_on_one_line(here):
    """A name that would clear the screen, set the title or start a new line is shown as Python writes it
    (\\x1b, \\n), in the error and in the warnings, so the terminal obeys nothing and the message stays one line."""
    line = assert_user_error(irmetrics('qrels', 'no\x1b]0;pwned\x07\x1b[2Jsuch.run', 'AP', cwd=here),
                             'no\\x1b]0;pwned\\x07\\x1b[2Jsuch.run: no such file')
    assert '\x1b' not in line and '\x07' not in line
    (here / 'x\x1b[8m\n.run').write_text((here / 'a.run').read_text())
    proc = irmetrics('qrels', 'x\x1b[8m\n.run', 'AP', '-f', 'table', cwd=here)
    assert proc.returncode == 0 and '\x1b' not in proc.stderr + proc.stdout
    assert proc.stderr.splitlines() == ['irmetrics: warning: x\\x1b[8m\\n.run: 1 of the 3 qrels queries are not in '
                                        "the run ('q3'); they score 0 (trec_eval -c)"]
