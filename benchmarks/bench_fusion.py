#!/usr/bin/env python3
"""Fusing runs: irmetrics' ``fuse`` against ranx's ``fuse`` and against pytrec_eval evaluating one of the runs.

    python benchmarks/bench_fusion.py [--queries 6980] [--depth 1000] [--runs 5] [--repeat 3]

Generates ``--runs`` runs of MS MARCO's shape (6,980 queries x 1,000 documents by default; each query's
documents drawn from a pool of 2,000 numeric ids, so that the runs share about half their documents; real
scores without ties) and times, each tool in a process of its own, with its inputs already in its own form
(irmetrics ``Run`` s, ranx ``Run`` s, pytrec_eval's dicts): RRF and a min-max weighted sum of every run
(irmetrics and ranx, ranx warmed on a small fusion first so that numba's compilation is not counted), and
pytrec_eval evaluating one run with AP, nDCG@10 and P@10 against judgments of 5 documents a query.  Each
figure is the median of ``--repeat`` runs; the peak memory is the growth of the process's resident set
during the timed calls (``VmHWM``, reset before them through ``/proc/self/clear_refs``, less ``VmRSS`` before
them).  Ratios matter, not absolute times.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np


def columns(queries: int, depth: int, n_runs: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each run's (query, document, score) columns (numbers), ranked by score within each query."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_runs):
        docs = np.argsort(rng.random((queries, 2 * depth)), axis=1)[:, :depth] + 10_000 * np.arange(queries)[:, None]
        scores = np.sort(rng.random((queries, depth)), axis=1)[:, ::-1] * 100
        out.append((np.repeat(np.arange(queries), depth), docs.ravel(), scores.ravel()))
    return out


def _rss(field: str) -> int:
    with open('/proc/self/status') as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(field))


def _timed(call, repeat: int) -> tuple[float, int]:
    with open('/proc/self/clear_refs', 'w') as clear:          # the peak so far (building the inputs) forgotten
        clear.write('5')
    before = _rss('VmRSS')
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), _rss('VmHWM') - before


def tool(name: str, queries: int, depth: int, n_runs: int, repeat: int) -> dict:
    """The figures of one tool (run in a process of its own)."""
    runs = columns(queries, depth, n_runs)
    if name == 'irmetrics':
        import irmetrics as irm
        parts = [irm.Run.from_columns(q.astype(str), d, s) for q, d, s in runs]
        rrf, _ = _timed(lambda: irm.fuse(parts, method='rrf'), repeat)
        wsum, memory = _timed(lambda: irm.fuse(parts, method='wsum', norm='min-max'), repeat)
        return {'rrf': rrf, 'wsum': wsum, 'memory': memory}
    if name == 'ranx':
        from ranx import Run, fuse
        small = [Run({'q': {'a': 1.0, 'b': 0.5}}), Run({'q': {'a': 0.2, 'c': 0.1}})]
        fuse(small, method='rrf'), fuse(small, method='wsum', params={'weights': [0.5, 0.5]})   # numba compiles
        parts = [Run(_nested(q, d, s)) for q, d, s in runs]
        weights = [1 / n_runs] * n_runs
        rrf, _ = _timed(lambda: fuse(parts, method='rrf', norm=None), repeat)
        wsum, memory = _timed(lambda: fuse(parts, method='wsum', norm='min-max', params={'weights': weights}), repeat)
        return {'rrf': rrf, 'wsum': wsum, 'memory': memory}
    import pytrec_eval
    q, d, s = runs[0]
    run = _nested(q, d, s)
    qrels = {qi: {str(di): 1 for di in d[q == int(qi)][:: depth // 5][:5].tolist()} for qi in run}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {'map', 'ndcg_cut.10', 'P.10'})
    seconds, memory = _timed(lambda: evaluator.evaluate(run), repeat)
    return {'evaluate': seconds, 'memory': memory}


def _nested(q: np.ndarray, d: np.ndarray, s: np.ndarray) -> dict:
    """``{query: {document: score}}`` (what ranx and pytrec_eval take)."""
    run: dict = {}
    for qi, di, si in zip(q.astype(str).tolist(), d.astype(str).tolist(), s.tolist(), strict=True):
        run.setdefault(qi, {})[di] = si
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--queries', type=int, default=6980)
    parser.add_argument('--depth', type=int, default=1000)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--tool', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tool:
        print(json.dumps(tool(args.tool, args.queries, args.depth, args.runs, args.repeat)))
        return
    figures = {}
    for name in ['irmetrics', 'ranx', 'pytrec_eval']:
        out = subprocess.run([sys.executable, __file__, '--tool', name, '--queries', str(args.queries), '--depth',
                              str(args.depth), '--runs', str(args.runs), '--repeat', str(args.repeat)],
                             capture_output=True, text=True, check=True)
        figures[name] = json.loads(out.stdout.strip().splitlines()[-1])
    irm, ranx, trec = figures['irmetrics'], figures['ranx'], figures['pytrec_eval']
    print(f'{args.runs} runs of {args.queries} queries x {args.depth} documents (median of {args.repeat})')
    print('| | irmetrics | ranx | irmetrics / ranx | irmetrics / pytrec_eval evaluating one run |')
    print('|---|---|---|---|---|')
    for method in ['rrf', 'wsum']:
        print(f'| {method} | {irm[method]:.2f} s | {ranx[method]:.2f} s | {irm[method] / ranx[method]:.2f} | '
              f'{irm[method] / trec["evaluate"]:.2f} |')
    print(f'| peak memory of the fusion | {irm["memory"] / 2**20:.0f} MiB | {ranx["memory"] / 2**20:.0f} MiB | '
          f'{irm["memory"] / max(ranx["memory"], 1):.2f} | |')
    print(f'pytrec_eval evaluating one run: {trec["evaluate"]:.2f} s')


if __name__ == '__main__':
    main()
