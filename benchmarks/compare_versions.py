#!/usr/bin/env python3
"""Two checkouts of irmetrics timed against each other, in one run: the "before and after" of a change.

Each checkout's command line (``python -m irmetrics -p 12 QRELS RUN <9 measures>``, with
``PYTHONPATH`` pointing at the checkout) runs once as a warm-up, then ``-n`` times interleaved
(before, after, before, after, ...).  Reported per scale: the median wall time, the median CPU time
(user + system of the child, less sensitive than wall time to other processes), the peak resident
memory, after/before ratios, and whether both printed the same numbers (exit status 1 if not).

    git worktree add /tmp/before HEAD~3
    .venv/bin/python benchmarks/compare_versions.py --before /tmp/before --after . --scales msmarco small -n 7

Data: ``DIR/SCALE.qrels`` and ``DIR/SCALE.run`` in ``--data`` (default ``benchdata/``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from run_bench import compile_package, measure_process

REPO = Path(__file__).resolve().parent.parent
MEASURES = ['AP', 'nDCG', 'nDCG@10', 'P@10', 'R@100', 'RR', 'Rprec', 'Bpref', 'Success@10']


def run_once(checkout: Path, qrels: Path, run: Path) -> dict:
    """One CLI run of ``checkout`` (``python -m`` finds the package in the working directory first)."""
    cmd = [sys.executable, '-m', 'irmetrics', '-p', '12', '-f', 'tsv', str(qrels.resolve()), str(run.resolve()),
           *MEASURES]
    done = measure_process(cmd, cwd=checkout.resolve())
    if done['rc']:
        raise SystemExit(f'{checkout}: exit {done["rc"]}: {done["stderr"][-500:]}')
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--before', type=Path, required=True)
    parser.add_argument('--after', type=Path, default=REPO)
    parser.add_argument('--scales', nargs='+', default=['msmarco'])
    parser.add_argument('--data', type=Path, default=REPO / 'benchdata')
    parser.add_argument('-n', type=int, default=5)
    args = parser.parse_args()
    same = True
    for checkout in (args.before, args.after):
        compile_package(checkout)
    for scale in args.scales:
        qrels, run = args.data / f'{scale}.qrels', args.data / f'{scale}.run'
        times: dict[str, list] = {'before': [], 'after': []}
        outputs = {}
        for label in ('before', 'after'):                      # warm-up
            outputs[label] = run_once(getattr(args, label), qrels, run)['stdout']
        for _ in range(args.n):
            for label in ('before', 'after'):
                done = run_once(getattr(args, label), qrels, run)
                times[label].append((done['wall_s'], done['cpu_s'], done['peak_mb']))
        same &= outputs['before'] == outputs['after']
        med = {k: [statistics.median(x[i] for x in v) for i in range(2)] + [max(x[2] for x in v)]
               for k, v in times.items()}
        print(f'{scale}: n={args.n}  same output: {outputs["before"] == outputs["after"]}')
        for label in ('before', 'after'):
            wall, cpu, rss = med[label]
            print(f'  {label:6}  wall {wall:7.3f} s   cpu {cpu:7.3f} s   peak {rss:7.0f} MB')
        ratio = [med['after'][i] / med['before'][i] for i in range(3)]
        print(f'  after/before  wall {ratio[0]:.3f}   cpu {ratio[1]:.3f}   peak {ratio[2]:.3f}')
    return 0 if same else 1


if __name__ == '__main__':
    sys.exit(main())
