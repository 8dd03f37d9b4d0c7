#!/usr/bin/env python3
"""Run the CLI many times, several at once, and count the runs that did not end cleanly.

Reading faults once showed ``terminate called without an active exception`` / ``Fatal Python error: Aborted``
(exit status 134) after complete output, in about 1% of CLI runs on inputs that took Arrow's CSV
reader: the reader called a Python function (its invalid-row handler) from its worker threads, and
a worker that still needed the interpreter while it shut down was ended by ``pthread_exit``, which
C++ turns into ``std::terminate``.  The readers now run no Python code in Arrow's threads; this
script is the evidence, outside the unit tests (it takes minutes):

    .venv/bin/python benchmarks/stress_exit.py -n 2000 -j 6

Inputs (generated into a temporary directory): a small pair, and runs above the 2 MiB small-file
limit that take each branch of the large-file reader (single-spaced; extra fields and odd white
space, canonicalised in memory; hexadecimal scores, converted as text; a malformed line, an error).
Exit statuses 0 and 2 (a clear error) are expected; anything else, or stderr mentioning
'terminate', 'Fatal' or 'Traceback', is counted as a failure.  Exit status 1 if any.
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BAD_WORDS = ('terminate', 'Fatal', 'Traceback', 'Aborted', 'Segmentation')


def write_inputs(d: Path) -> dict[str, list[str]]:
    qrels = d / 'qrels'
    qrels.write_text(''.join(f'q{i % 50} 0 d{i} {i % 3}\n' for i in range(3000)))
    n = 80_000                                                     # about 2.3 MB per run
    lines = {
        'small': [f'q{i % 50} Q0 d{i} 1 {i % 97} r' for i in range(3000)],
        'regular': [f'q{i % 50} Q0 d{i} 1 {i % 97}.25 r' for i in range(n)],
        'irregular': [f'q{i % 50}\tQ0 d{i}  1 {i % 97}.25 r{" extra" * (i % 3)}' for i in range(n)],
        'hex': [f'q{i % 50} Q0 d{i} 1 {float.hex(i % 97 + 0.5)} r' for i in range(n)],
        'malformed': [f'q{i % 50} Q0 d{i} 1 {i % 97}.25 r' for i in range(n)] + ['q1 Q0 short 1'],
    }
    commands = {}
    for name, body in lines.items():
        path = d / f'{name}.run'
        path.write_text('\n'.join(body) + '\n')
        commands[name] = [sys.executable, '-m', 'irmetrics', '--trec-eval', '-q', str(qrels), str(path), 'map', 'P.1']
    return commands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('-n', type=int, default=2000, help='runs in all (spread over the inputs)')
    parser.add_argument('-j', type=int, default=6, help='runs at once')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        commands = write_inputs(Path(tmp))
        names = list(commands)
        jobs = [names[i % len(names)] for i in range(args.n)]

        def run(name: str) -> tuple[str, int, str]:
            done = subprocess.run(commands[name], capture_output=True, text=True, env=dict(os.environ))
            return name, done.returncode, done.stderr

        counts: collections.Counter = collections.Counter()
        failures = []
        with ThreadPoolExecutor(args.j) as pool:
            for name, status, stderr in pool.map(run, jobs):
                counts[name, status] += 1
                if status not in (0, 2) or any(word in stderr for word in BAD_WORDS):
                    failures.append((name, status, stderr.strip()[-300:]))
    for (name, status), count in sorted(counts.items()):
        print(f'{name:10} exit {status:3}: {count} runs')
    print(f'{len(failures)} of {args.n} runs did not end cleanly')
    for name, status, stderr in failures[:10]:
        print(f'  {name} exit {status}: {stderr}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
