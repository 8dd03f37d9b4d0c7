"""Running the ``irmetrics`` command in a real subprocess, and the small inputs the CLI tests share."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Three queries; q3 is missing from run A (it scores 0), d5 of run A is unjudged.
QRELS = 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\nq2 0 d4 1\nq3 0 d9 1\n'
RUN_A = 'q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 2.0 a\nq1 Q0 d3 3 1.0 a\nq2 Q0 d4 1 5.0 a\nq2 Q0 d5 2 4.0 a\n'
RUN_B = 'q1 Q0 d3 1 9 b\nq1 Q0 d1 2 8 b\nq2 Q0 d1 1 1 b\nq3 Q0 d9 1 1 b\n'


#: The warning of every run of run A (as printed after 'irmetrics: warning: ').
MISSING_Q3 = "a.run: 1 of the 3 qrels queries are not in the run ('q3'); they score 0 (trec_eval -c)"


def write_inputs(directory: Path) -> dict[str, str]:
    """The shared qrels and runs as files named qrels, a.run and b.run in ``directory``."""
    paths = {}
    for name, text in (('qrels', QRELS), ('a.run', RUN_A), ('b.run', RUN_B)):
        (directory / name).write_text(text)
        paths[name] = name
    return paths


#: ``IRMETRICS_CLI_TESTS=subprocess`` runs every command in a new interpreter, as a shell does (slower); by default
#: a command runs in the test's own process (no interpreter start-up), with its working directory, environment,
#: standard streams and warning filters as a new interpreter would have them.
IN_PROCESS = os.environ.get('IRMETRICS_CLI_TESTS', 'in-process') != 'subprocess'
#: Environment variables read when an interpreter starts (and Dask's settings, ``DASK_*``, read when Dask is first
#: imported): a command given one runs in a new interpreter.
INTERPRETER_SETTINGS = {'PYTHONPATH', 'PYTHONHASHSEED', 'PYTHONWARNINGS', 'PYTHONIOENCODING', 'PYTHONUTF8'}
#: The warning filters a new interpreter starts with (pytest shows more).
PYTHON_FILTERS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


def irmetrics(*args: str, cwd: Path | str | None = None, env: dict | None = None,
              timeout: float = 120, isolated: bool = False) -> subprocess.CompletedProcess:
    """``irmetrics ARGS`` with text output captured (stdout and stderr are not terminals): in this process
    (see :data:`IN_PROCESS`), or with ``isolated`` as ``python -m irmetrics`` in a new interpreter."""
    full_env = dict(os.environ)
    full_env.pop('COLUMNS', None)
    full_env.update(env or {})
    read_at_start = [name for name in env or {} if name in INTERPRETER_SETTINGS or name.startswith('DASK_')]
    if IN_PROCESS and not isolated and not read_at_start:
        return _in_process(list(args), cwd, full_env)
    return subprocess.run([sys.executable, '-m', 'irmetrics', *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def _in_process(argv: list[str], cwd: Path | str | None, env: dict) -> subprocess.CompletedProcess:
    import contextlib
    import io
    import warnings

    from irmetrics.cli import main
    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    out, err = io.TextIOWrapper(io.BytesIO(), encoding='utf-8'), io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(b''), encoding='utf-8')
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.resetwarnings()
            for category in PYTHON_FILTERS:
                warnings.filterwarnings('ignore', category=category)
            try:
                status = main(argv)
            except SystemExit as ex:                               # argparse's --help and --version
                status = ex.code if isinstance(ex.code, int) else 0 if ex.code is None else 1
            out.flush()
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.stdin = saved_stdin

    def text(value: str) -> str:                                   # as text=True reads a pipe: universal newlines
        return value.replace('\r\n', '\n').replace('\r', '\n')
    return subprocess.CompletedProcess(['irmetrics', *argv], status, text(out.buffer.getvalue().decode('utf-8')),
                                       text(err.getvalue()))


def warnings_only(stderr: str) -> list[str]:
    """The warnings on stderr, asserting it holds nothing else (irmetrics' warnings are one line each)."""
    lines = stderr.splitlines()
    assert all(line.startswith('irmetrics: warning: ') for line in lines), stderr
    return [line[len('irmetrics: warning: '):] for line in lines]


def run_ok(directory: Path, *args: str, env: dict | None = None) -> str:
    """stdout of a successful ``irmetrics ARGS`` run in ``directory`` (exit 0, at most warnings on stderr)."""
    proc = irmetrics(*args, cwd=directory, env=env)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    warnings_only(proc.stderr)
    return proc.stdout


def assert_user_error(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit status 2, nothing on stdout, one line on stderr holding every fragment, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ''
    assert 'Traceback' not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith('irmetrics: error: '), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def run_in_process(argv: list[str], stdin: bytes | None = None) -> tuple[int, bytes, str]:
    """(exit status, stdout bytes, stderr text) of ``irmetrics ARGV`` run in this process (fast: no new
    interpreter), with ``stdin`` as standard input."""
    import contextlib
    import io

    from irmetrics.cli import main
    out, err = io.TextIOWrapper(io.BytesIO(), encoding='utf-8'), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b''), encoding='utf-8')
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
            out.flush()
    finally:
        sys.stdin = old_stdin
    return status, out.buffer.getvalue(), err.getvalue()
