#!/usr/bin/env python3
"""``irmetrics trec_eval QRELS RUN`` against the trec_eval binary on the files people evaluate most.

What is measured
    For each scale of ``synthetic.py`` (``small`` 50 x 100, ``robust3`` 80 x 1,000 = a 3 MB run,
    ``robust`` 250 x 1,000 = robust04's 9 MB run and 6.7 MB qrels, ``robust15`` 400 x 1,000 = 15 MB,
    ``msmarco`` 6,980 x 1,000), the command line people type, ``trec_eval QRELS RUN`` (the official
    measures), and ``python -m irmetrics trec_eval QRELS RUN`` run as child processes, alternating,
    ``-n`` times each: the median wall time of each and their ratio (paired: the two share the
    machine's state of the moment).  Outputs are compared byte for byte once.

    What irmetrics cannot avoid is measured too: the interpreter's start (``python -c pass``), each
    library's import (:data:`LIBRARIES`, one after the other), and the imports of that very run (the
    modules ``python -X importtime`` lists at the top level, imported by ``python -c "import ..."``,
    less the start), each the fastest of ``-n`` runs (the least disturbed by other processes);
    "after start+imports" is irmetrics' median time less those two.

How to run (from the repository root; the binary built from github.com/usnistgov/trec_eval, never
committed)
    .venv/bin/python benchmarks/bench_trec_eval_files.py /path/to/trec_eval -n 9
    .venv/bin/python benchmarks/bench_trec_eval_files.py /path/to/trec_eval --scales robust -n 15 --data benchdata
    git worktree add /tmp/before REV && .venv/bin/python benchmarks/bench_trec_eval_files.py /path/to/trec_eval \
        --irmetrics /tmp/before                                            # the same table for an earlier commit

Compare ratios measured in one run on one machine, not absolute times across machines.  Results are
in benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from run_bench import compile_package
from synthetic import ensure

REPO = Path(__file__).resolve().parent.parent
SCALES = ['small', 'robust3', 'robust', 'robust15', 'msmarco']
#: The libraries ``irmetrics trec_eval`` imports on a file above the small-file size, in order (their
#: costs are printed one by one; irmetrics' own modules come last).
LIBRARIES = ['numpy', 'pyarrow', 'pyarrow.compute', 'pyarrow.csv', 'irmetrics.cli.trec_eval_command',
             'irmetrics.api.calc', 'irmetrics.data.trec.arrow', 'irmetrics.providers.native']


def wall(command: list[str], root: Path = REPO) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, cwd=root, env=_env(root))
    return time.perf_counter() - start


def _env(root: Path) -> dict:
    return dict(os.environ, PYTHONPATH=str(root))


def imported(command: list[str], root: Path) -> list[str]:
    """The modules ``command`` (a Python command line) imports at the top level, as ``-X importtime``
    lists them (each with what it imports)."""
    err = subprocess.run([command[0], '-X', 'importtime', *command[1:]], capture_output=True, text=True,
                         check=True, cwd=root, env=_env(root)).stderr
    names = [line.split('|')[2] for line in err.splitlines() if line.startswith('import time:')]
    return [n.strip() for n in names[1:] if not n.startswith('  ') and not n.strip().startswith('__editable__')]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('trec_eval', help='path of a trec_eval binary')
    parser.add_argument('--scales', nargs='+', default=SCALES, choices=SCALES)
    parser.add_argument('-n', type=int, default=9, help='runs of each command (median)')
    parser.add_argument('--data', type=Path, default=REPO / 'benchdata')
    parser.add_argument('--irmetrics', type=Path, default=REPO, help='the irmetrics checkout to time (e.g. a '
                        'git worktree of an earlier commit: before and after)')
    args = parser.parse_args()
    python = sys.executable
    compile_package(args.irmetrics)           # as installed: byte-compiled once, not at every start
    start = min(wall([python, '-c', 'pass']) for _ in range(args.n))
    costs, before = [], start
    for i, module in enumerate(LIBRARIES):
        took = min(wall([python, '-c', 'import ' + ', '.join(LIBRARIES[:i + 1])]) for _ in range(args.n))
        costs.append(f'{module} {took - before:.3f} s')
        before = took
    print(f'interpreter start {start:.3f} s; imports, each after the ones before it: ' + ', '.join(costs))
    print(f'{"scale":9} {"run MB":>7} {"qrels MB":>8} {"trec_eval s":>11} {"irmetrics s":>11} {"ratio":>6} '
          f'{"imports s":>9} {"after start+imports s":>21} {"ratio":>6}  output')
    status = 0
    for scale in args.scales:
        qrels, run = ensure(scale, args.data)
        theirs = subprocess.run([args.trec_eval, str(qrels), str(run)], capture_output=True, check=True).stdout
        qrels, run = qrels.resolve(), run.resolve()
        ours = subprocess.run([python, '-m', 'irmetrics', 'trec_eval', str(qrels), str(run)], capture_output=True,
                              check=True, cwd=args.irmetrics, env=_env(args.irmetrics)).stdout
        same = 'same bytes' if ours == theirs else 'DIFFERS'
        status |= ours != theirs
        t, i = [], []
        for _ in range(args.n):
            t.append(wall([args.trec_eval, str(qrels), str(run)]))
            i.append(wall([python, '-m', 'irmetrics', 'trec_eval', str(qrels), str(run)], args.irmetrics))
        tm, im = statistics.median(t), statistics.median(i)
        modules = imported([python, '-m', 'irmetrics', 'trec_eval', str(qrels), str(run)], args.irmetrics)
        imports = min(wall([python, '-c', 'import ' + ', '.join(modules)], args.irmetrics)
                      for _ in range(args.n)) - start
        rest = im - start - imports
        print(f'{scale:9} {run.stat().st_size / 1e6:>7.1f} {qrels.stat().st_size / 1e6:>8.1f} {tm:>11.3f} '
              f'{im:>11.3f} {im / tm:>6.2f} {imports:>9.3f} {rest:>21.3f} {rest / tm:>6.2f}  {same}', flush=True)
    return status


if __name__ == '__main__':
    sys.exit(main())
