#!/usr/bin/env python3
"""In-process speed of the measure families beyond trec_eval (ERR, RBP, nDCG variants, ...) against the
9-measure trec_eval set.

What is measured
    The qrels and run files are read once.  Then, with the prepared inputs, two
    calls of ``irmetrics.calc`` are timed (each call joins the run with the qrels
    and computes every measure of its set, as a user's call would):

      trec_eval set   AP nDCG nDCG@10 P@10 R@100 RR Rprec Bpref Success@10
      beyond set      every measure family beyond trec_eval's, with its common variants
                      (gdeval nDCG/ERR, nERR, RBP and its residual, MS MARCO RR@10,
                      Judged, Compat, Accuracy, LAG, AUC, Hits, F1, DCG)

    Each set runs once as a warm-up, then N times interleaved; the medians and
    their ratio (beyond / trec_eval; the goal is at most 2) are reported, and
    each measure of the beyond set alone (median of N) to show where the time goes.
    The exit status is 1 when the ratio exceeds --goal.

How to run (from the repository root, with the project's virtualenv)
    .venv/bin/python benchmarks/bench_families.py                      # MS MARCO-shaped, N=5
    .venv/bin/python benchmarks/bench_families.py --scale robust -n 9
    .venv/bin/python benchmarks/bench_families.py --data /tmp/bench --json out.json

Missing data files DIR/SCALE.qrels / DIR/SCALE.run are generated with
synthetic.py (deterministic) into --data (default: benchdata/ in the repository).
Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import synthetic

REPO = Path(__file__).resolve().parent.parent
TREC_SET = ['AP', 'nDCG', 'nDCG@10', 'P@10', 'R@100', 'RR', 'Rprec', 'Bpref', 'Success@10']
BEYOND_SET = ["nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')", 'ERR@10', 'ERR', 'nERR@10', 'RBP',
              'RBP(rel=1)', 'RBP(max_rel=3)', 'RBPResidual', 'RR@10', 'Judged@10', 'Judged@100', 'Compat',
              'Compat(normalize=False)', 'Accuracy', 'Accuracy@10', 'LAG', 'LAG(judged_only=True)', 'AUC',
              'Hits@10', 'F1@10', 'DCG@10', "DCG(dcg='exp-log2')@10"]




def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--scale', default='msmarco', help='synthetic.py scale (default msmarco)')
    ap.add_argument('--data', type=Path, help='directory holding SCALE.qrels / SCALE.run')
    ap.add_argument('-n', type=int, default=5, help='timed repetitions (after one warm-up)')
    ap.add_argument('--goal', type=float, default=2.0, help='largest acceptable time ratio')
    ap.add_argument('--no-breakdown', action='store_true', help='skip the per-measure timings')
    ap.add_argument('--json', type=Path, help='also write the results as JSON')
    args = ap.parse_args()

    sys.path.insert(0, str(REPO))
    import irmetrics as irm

    qrels_path, run_path = synthetic.ensure(args.scale, args.data or REPO / 'benchdata')
    t0 = time.perf_counter()
    qrels, run = irm.read_trec_qrels(qrels_path), irm.read_trec_run(run_path)
    read_s = time.perf_counter() - t0
    sets = {'trec_eval': [irm.parse_measure(m) for m in TREC_SET],
            'beyond': [irm.parse_measure(m) for m in BEYOND_SET]}

    times: dict[str, list[float]] = {name: [] for name in sets}
    for rep in range(args.n + 1):
        for name, measures in sets.items():
            t = timed(lambda measures=measures: irm.calc(measures, qrels, run))
            if rep:
                times[name].append(t)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    ratio = med['beyond'] / med['trec_eval']

    breakdown = {}
    if not args.no_breakdown:
        for m in sets['beyond']:
            breakdown[str(m)] = statistics.median(timed(lambda m=m: irm.calc([m], qrels, run)) for _ in range(args.n))
        join = statistics.median(timed(lambda: irm.calc([irm.parse_measure('NumQ')], qrels, run))
                                 for _ in range(args.n))

    print(f'## {args.scale}: {qrels.num_queries} qrels queries, {len(qrels)} judgments, {len(run)} run rows '
          f'(read once in {read_s:.2f} s)\n')
    print('| set | measures | median s | times s |')
    print('|---|---:|---:|---|')
    for name in sets:
        print(f'| {name} | {len(sets[name])} | {med[name]:.3f} | {", ".join(f"{t:.3f}" for t in times[name])} |')
    print(f'\nratio beyond / trec_eval = {ratio:.2f} (goal <= {args.goal:g})')
    if breakdown:
        print(f'\njoin only (NumQ): {join:.3f} s; each measure of the beyond set alone (join included):\n')
        print('| measure | median s |')
        print('|---|---:|')
        for m, t in sorted(breakdown.items(), key=lambda kv: -kv[1]):
            print(f'| {m} | {t:.3f} |')
    if args.json:
        args.json.write_text(json.dumps({'scale': args.scale, 'read_s': read_s, 'times_s': times, 'median_s': med,
                                         'ratio': ratio, 'goal': args.goal, 'breakdown_s': breakdown},
                                        indent=2))
    return 0 if ratio <= args.goal else 1


if __name__ == '__main__':
    sys.exit(main())
