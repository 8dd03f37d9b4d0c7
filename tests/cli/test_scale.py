"""The command line's Parquet inputs, ``--memory-limit`` and ``--dask``: the same output, digit
for digit, as in-process evaluation of the TREC files; bad values are one-line usage errors."""
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_support import assert_user_error, irmetrics, run_ok
from scale_support import NINE, collection


@pytest.fixture
def big(tmp_path):
    """qrels and a run of 60 queries as TREC files, and the run as Parquet (PyTerrier's names)."""
    qrels_text, run_text = collection(seed=23)
    (tmp_path / 'qrels.txt').write_text(qrels_text)
    (tmp_path / 'run.txt').write_text(run_text)
    fields = [line.split() for line in run_text.splitlines()]
    pq.write_table(pa.table({'qid': [f[0] for f in fields], 'docno': [f[2] for f in fields],
                             'score': [float(f[4]) for f in fields]}), tmp_path / 'run.parquet')
    return tmp_path


EVERY_DIGIT = ['-m', NINE, '-q', '-f', 'csv']


def test_parquet_runs_and_memory_limits_print_the_same(big):
    want = run_ok(big, 'qrels.txt', 'run.txt', *EVERY_DIGIT)
    assert run_ok(big, 'qrels.txt', 'run.parquet', *EVERY_DIGIT) == want.replace('run.txt', 'run.parquet')
    assert run_ok(big, 'qrels.txt', 'run.txt', *EVERY_DIGIT, '--memory-limit', '20k') == want
    assert run_ok(big, 'qrels.txt', 'run.parquet', *EVERY_DIGIT, '--memory-limit', '20k') == \
        want.replace('run.txt', 'run.parquet')


@pytest.mark.slow
def test_dask_prints_the_same(big):
    want = run_ok(big, 'qrels.txt', 'run.txt', 'run.parquet', *EVERY_DIGIT)
    assert run_ok(big, 'qrels.txt', 'run.txt', 'run.parquet', *EVERY_DIGIT, '--dask', 'local:2') == want


@pytest.mark.parametrize('args, fragment', [
    (['--memory-limit', 'lots'], "memory limit 'lots' is not a size"),
    (['--memory-limit', '0'], 'must be positive'),
    (['--dask', 'local:none'], 'local:N needs a number of workers'),
    (['--dask', 'local:2', '--memory-limit', '1G'], '--memory-limit bounds evaluation in this process'),
])
def test_usage_errors(here, args, fragment):
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', *args, cwd=here), fragment)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(here):
    proc = irmetrics('qrels', 'a.run', 'AP', '--dask', 'tcp://127.0.0.1:9', cwd=here,
                     env={'DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT': '1s'})
    assert_user_error(proc, 'tcp://127.0.0.1:9: cannot reach the Dask scheduler')


def test_dask_missing_says_how_to_install_it(here):
    code = ('import sys\nsys.modules["distributed"] = None\nfrom irmetrics.cli import main\n'
            'sys.exit(main(["qrels", "a.run", "AP", "--dask", "local:1"]))\n')
    proc = subprocess.run([sys.executable, '-c', code], cwd=here, capture_output=True, text=True, timeout=120)
    assert_user_error(proc, '--dask needs Dask and distributed', 'pip install "irmetrics[dask]"')


def test_without_dask_the_command_imports_no_dask(here):
    code = ('import sys\nfrom irmetrics.cli import main\n'
            'status = main(["qrels", "a.run", "AP", "--memory-limit", "1k"])\n'
            'assert status == 0 and "dask" not in sys.modules and "polars" not in sys.modules\n')
    proc = subprocess.run([sys.executable, '-c', code], cwd=here, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
