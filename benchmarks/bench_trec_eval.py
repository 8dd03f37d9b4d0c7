#!/usr/bin/env python3
"""``irmetrics trec_eval -q -m all_trec`` against the trec_eval binary, on generated data.

What is measured
    For each scale, a qrels and a run are generated here (numpy, seeded: the same files on every
    machine): ``msmarco`` is 6,980 queries x 1,000 documents, ``large`` 100,000 queries x 100
    documents from a collection of 10 million, written in rank order as systems write them, scores with
    two decimals (so with ties).  Each query has 15 judgments (grades -1 to 3, mostly 0), 5 of them
    of retrieved documents.
    Then ``trec_eval -q -m all_trec QRELS RUN`` and ``python -m irmetrics trec_eval -q -m all_trec
    QRELS RUN`` run once each as child processes writing to a file (trec_eval finds each query by a
    linear scan, so 100,000 queries take it minutes): wall time and peak resident memory
    (``ru_maxrss`` from ``os.wait4``).  The two outputs are compared line by line; the lines of
    trec_eval's ``rbp`` may differ (trec_eval 10.0 reads uninitialised memory there, see
    docs/conventions.md), any other difference is reported and makes the exit status 1.

How to run (from the repository root)
    .venv/bin/python benchmarks/bench_trec_eval.py /path/to/trec_eval                # both scales
    .venv/bin/python benchmarks/bench_trec_eval.py /path/to/trec_eval --scales msmarco --data /tmp/te

Results (a 2-core x86 machine shared with other jobs, load average about 5 during the run;
Python 3.11, numpy 2.4, pyarrow; trec_eval 10.0 built with its Makefile, -g without optimisation):

    scale      lines       trec_eval           irmetrics trec_eval    time ratio   lines differing
    msmarco      670,179     20.9 s    690 MB    10.8 s    690 MB      0.52        0
    large      9,600,099    819.7 s   1015 MB    24.1 s   1161 MB      0.029       0

At msmarco most of irmetrics' time and its peak memory go to reading the 208 MB run (Arrow's CSV
reader, ranking with ties); at large trec_eval's linear search for each of 100,000 queries dominates.

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
SCALES = {'msmarco': (6_980, 1_000), 'large': (100_000, 100)}
SEED = 11
COLLECTION = 10_000_000          # documents, as many as in MS MARCO's passage collection


def generate(scale: str, directory: Path) -> tuple[Path, Path]:
    """Write ``directory/SCALE.qrels`` and ``.run`` (unless there) and return their paths."""
    qrels_path, run_path = directory / f'{scale}.qrels', directory / f'{scale}.run'
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    n_queries, depth = SCALES[scale]
    rng = np.random.default_rng(SEED)
    queries = np.arange(n_queries)
    # the run: `depth` documents a query, drawn from the collection (distinct within a query)
    docs = np.sort(rng.integers(0, COLLECTION - depth, size=(n_queries, depth)), axis=1) + np.arange(depth)
    docs = rng.permuted(docs, axis=1)
    scores = -np.sort(-np.round(rng.gamma(2.0, 5.0, size=(n_queries, depth)), 2), axis=1)   # ranked, with ties
    # the qrels: 5 retrieved documents and 10 others a query, grades -1..3 (mostly 0)
    judged_ret = docs[np.arange(n_queries)[:, None], rng.integers(0, depth, size=(n_queries, 5))]
    judged_other = rng.integers(COLLECTION, 2 * COLLECTION, size=(n_queries, 10))          # never retrieved
    judged = np.concatenate([judged_ret, judged_other], axis=1)
    grades = rng.choice([-1, 0, 0, 0, 0, 1, 1, 2, 3], size=judged.shape)
    _write(qrels_path, (f'{q} 0 D{d} {g}\n' for q, row, gs in zip(queries, judged.tolist(), grades.tolist(),
                                                                      strict=True)
                        for d, g in dict(zip(row, gs, strict=True)).items()))
    _write(run_path, (f'{q} Q0 D{d} {r} {s} bench\n' for q, row, ss in zip(queries, docs.tolist(), scores.tolist(),
                                                                          strict=True)
                      for r, (d, s) in enumerate(zip(row, ss, strict=True), 1)))
    return qrels_path, run_path


def _write(path: Path, lines) -> None:
    with open(path, 'w') as f:
        batch = []
        for line in lines:
            batch.append(line)
            if len(batch) == 1 << 16:
                f.write(''.join(batch))
                batch.clear()
        f.write(''.join(batch))


def measured(command: list[str], output: Path) -> tuple[float, float, int]:
    """(wall seconds, peak resident MB, exit status) of ``command`` writing its stdout to ``output``."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with open(output, 'wb') as out:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def compare(ours: Path, theirs: Path) -> tuple[int, int, int]:
    """(lines, rbp lines that differ, other lines that differ), reading both files in step."""
    lines = rbp = other = 0
    with open(ours, 'rb') as a, open(theirs, 'rb') as b:
        for x, y in zip(a, b, strict=False):
            lines += 1
            if x != y:
                name = x.split(b'\t', 1)[0].rstrip()
                if name == b'rbp' or (name.startswith(b'rbp_') and not name.startswith(b'rbp_resid')):
                    rbp += 1
                else:
                    other += 1
        other += sum(1 for _ in a) + sum(1 for _ in b)        # lines only one of them printed
    return lines, rbp, other


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('trec_eval', help='path of a trec_eval binary')
    parser.add_argument('--scales', nargs='+', default=list(SCALES), choices=list(SCALES))
    parser.add_argument('--data', type=Path, help='directory for the generated files (default: a temporary one)')
    args = parser.parse_args()
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.data or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        print(f'{"scale":9} {"lines":>11} {"trec_eval s":>12} {"MB":>7} {"irmetrics s":>12} {"MB":>7} '
              f'{"time ratio":>10} {"rbp lines differing":>20} {"other lines differing":>22}')
        for scale in args.scales:
            qrels, run = generate(scale, directory)
            theirs, ours = Path(tmp) / f'{scale}.trec_eval.out', Path(tmp) / f'{scale}.irmetrics.out'
            t_time, t_mb, t_status = measured([args.trec_eval, '-q', '-m', 'all_trec', str(qrels), str(run)], theirs)
            i_time, i_mb, i_status = measured([sys.executable, '-m', 'irmetrics', 'trec_eval', '-q', '-m', 'all_trec',
                                               str(qrels), str(run)], ours)
            lines, rbp, other = compare(ours, theirs)
            print(f'{scale:9} {lines:>11,} {t_time:>12.1f} {t_mb:>7.0f} {i_time:>12.1f} {i_mb:>7.0f} '
                  f'{i_time / t_time:>10.3f} {rbp:>20,} {other:>22,}', flush=True)
            if t_status or i_status or other:
                print(f'{scale}: exit status trec_eval {t_status}, irmetrics {i_status}; {other} lines differ')
                status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
