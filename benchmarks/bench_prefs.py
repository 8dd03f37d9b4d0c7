#!/usr/bin/env python3
"""``irmetrics trec_eval -R qrels_prefs|prefs -m all_prefs`` on large preference files, against the
trec_eval binary when its path is given.

What is measured
    Two generated cases (numpy, seeded; nothing read from outside the repository):

    ``qrels_prefs``  50 queries x 1,500 judged documents (levels 0, 1, 2 drawn 0.6 / 0.25 / 0.15: about
                     31M preferences), read as preferences, one judgment group per query; a run of 1,000
                     documents a query, 600 of them judged.
    ``prefs``        50 queries x 200 judged documents x 12 judgment groups: half of them one sub-group of
                     80 documents, the other half 6 sub-groups of 25 documents each (drawn with
                     replacement across sub-groups, so a document sits in several; the levels of a group
                     come from one grade per document, so the sub-groups never contradict each other);
                     a run of 1,000 documents a query, 150 of them judged.

    ``python -m irmetrics trec_eval -R FORMAT -m all_prefs -q`` and, with ``--trec-eval BIN``, the binary,
    as child processes, alternating, ``-n`` times each: the median wall time and the peak resident set
    (``ru_maxrss`` of the child, the largest of the runs) of each, their ratios (irmetrics / trec_eval: below 1
    irmetrics is faster / smaller), and the two outputs compared byte for byte once (exit status 1 if they
    differ).  Without the binary (as in CI) irmetrics is reported alone.

How to run (from the repository root; the binary built from github.com/usnistgov/trec_eval, never
committed)
    .venv/bin/python benchmarks/bench_prefs.py -n 5
    .venv/bin/python benchmarks/bench_prefs.py --trec-eval /path/to/trec_eval -n 5 --cases qrels_prefs
    .venv/bin/python benchmarks/bench_prefs.py --irmetrics /tmp/before -n 5     # an earlier tree (git archive)

Compare ratios measured in one run on one machine, not absolute times across machines.  Results are in
benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from run_bench import compile_package

REPO = Path(__file__).resolve().parent.parent
CASES = ('qrels_prefs', 'prefs')


def _run_lines(rng: Any, judged: list[Any], depth: int, retrieved_judged: int) -> str:
    """A run: per query ``retrieved_judged`` of its judged documents and unjudged ones up to ``depth``,
    scores descending with some ties."""
    import numpy as np
    out = []
    for q, docs in enumerate(judged):
        picked = rng.choice(docs, size=retrieved_judged, replace=False)
        others = np.array([f'u{q}_{i}' for i in range(depth - retrieved_judged)])
        ranked = rng.permutation(np.concatenate((picked, others)))
        scores = np.sort(rng.integers(0, 5_000, size=depth))[::-1] / 100
        out += [f'{q} Q0 {d} {r} {s:.2f} bench\n' for r, (d, s) in enumerate(zip(ranked, scores, strict=True))]
    return ''.join(out)


def qrels_prefs_case(seed: int = 1) -> tuple[str, str]:
    """(judgments, run) of the ``qrels_prefs`` case."""
    import numpy as np
    rng = np.random.default_rng(seed)
    judged, lines = [], []
    for q in range(50):
        docs = np.array([f'd{q}_{i}' for i in range(1_500)])
        levels = rng.choice(3, size=len(docs), p=[0.6, 0.25, 0.15])
        judged.append(docs)
        lines += [f'{q} 0 {d} {g}\n' for d, g in zip(docs, levels, strict=True)]
    return ''.join(lines), _run_lines(rng, judged, 1_000, 600)


def prefs_case(seed: int = 2) -> tuple[str, str]:
    """(judgments, run) of the ``prefs`` case."""
    import numpy as np
    rng = np.random.default_rng(seed)
    judged, lines = [], []
    for q in range(50):
        docs = np.array([f'd{q}_{i}' for i in range(200)])
        judged.append(docs)
        for jg in range(12):
            grade = rng.choice([0.0, 1.0, 2.5, 4.0], size=len(docs), p=[0.5, 0.25, 0.15, 0.1])
            subs = [rng.choice(len(docs), size=80, replace=False)] if jg % 2 == 0 else \
                [rng.choice(len(docs), size=25, replace=False) for _ in range(6)]
            for s, members in enumerate(subs):
                lines += [f'{q} jg{jg} s{s} {docs[i]} {grade[i]}\n' for i in members.tolist()]
    return ''.join(lines), _run_lines(rng, judged, 1_000, 150)


def write(case: str, data: Path) -> None:
    judgments, run = (qrels_prefs_case if case == 'qrels_prefs' else prefs_case)()
    data.mkdir(parents=True, exist_ok=True)
    (data / f'{case}.judgments').write_text(judgments)
    (data / f'{case}.run').write_text(run)


def ensure(case: str, data: Path) -> tuple[Path, Path]:
    """The files of ``case`` in ``data``, written if missing (in a child process: numpy imported here would
    count in every child's peak memory, a child starting with its parent's pages)."""
    paths = data / f'{case}.judgments', data / f'{case}.run'
    if not all(p.exists() for p in paths):
        print(f'writing the {case} files into {data} ...', file=sys.stderr, flush=True)
        subprocess.run([sys.executable, '-c', f'import bench_prefs; bench_prefs.write({case!r}, '
                        f'__import__("pathlib").Path({str(data)!r}))'], cwd=Path(__file__).parent, check=True)
    return paths


def timed(command: list[str], cwd: Path) -> tuple[float, float, bytes]:
    """(wall seconds, peak RSS in MB, stdout) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, cwd=cwd, env=dict(os.environ, PYTHONPATH=str(cwd)))
    out = child.stdout.read() if child.stdout else b''
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f'{" ".join(command)} failed')
    return took, usage.ru_maxrss / 1024, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--trec-eval', help='path of a trec_eval binary (not in CI: irmetrics alone without it)')
    parser.add_argument('--cases', nargs='+', default=list(CASES), choices=CASES)
    parser.add_argument('-n', type=int, default=5, help='runs of each command (median)')
    parser.add_argument('--data', type=Path, default=REPO / 'benchdata')
    parser.add_argument('--irmetrics', type=Path, default=REPO, help='the irmetrics tree to time (e.g. an '
                        'earlier commit unpacked by git archive: before and after)')
    args = parser.parse_args()
    compile_package(args.irmetrics)           # as installed: byte-compiled once, not at every start
    print(f'{"case":12} {"judgments MB":>12} {"irmetrics s":>11} {"peak MB":>8} {"trec_eval s":>11} '
          f'{"peak MB":>8} {"time ratio":>10} {"peak ratio":>10}  output')
    status = 0
    for case in args.cases:
        judgments, run = (p.resolve() for p in ensure(case, args.data))
        options = ['-R', case, '-m', 'all_prefs', '-q', str(judgments), str(run)]
        ours_cmd = [sys.executable, '-m', 'irmetrics', 'trec_eval', *options]
        theirs_cmd = [args.trec_eval, *options] if args.trec_eval else None
        ours_t, ours_m, theirs_t, theirs_m = [], [], [], []
        outputs = {}
        for _ in range(args.n):
            t, m, outputs['irmetrics'] = timed(ours_cmd, args.irmetrics)
            ours_t.append(t), ours_m.append(m)
            if theirs_cmd:
                t, m, outputs['trec_eval'] = timed(theirs_cmd, args.irmetrics)
                theirs_t.append(t), theirs_m.append(m)
        it, im = statistics.median(ours_t), max(ours_m)
        size = judgments.stat().st_size / 1e6
        if not theirs_cmd:
            print(f'{case:12} {size:>12.1f} {it:>11.3f} {im:>8.0f}', flush=True)
            continue
        tt, tm = statistics.median(theirs_t), max(theirs_m)
        same = outputs['irmetrics'] == outputs['trec_eval']
        status |= not same
        print(f'{case:12} {size:>12.1f} {it:>11.3f} {im:>8.0f} {tt:>11.3f} {tm:>8.0f} {it / tt:>10.2f} '
              f'{im / tm:>10.2f}  {"same bytes" if same else "DIFFERS"}', flush=True)
    return status


if __name__ == '__main__':
    sys.exit(main())
