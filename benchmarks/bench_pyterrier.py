#!/usr/bin/env python3
"""PyTerrier's ``pt.Experiment`` with four systems, with and without irmetrics inside ir_measures.

    python benchmarks/bench_pyterrier.py [--data DIR] [--scale msmarco] [-n 1] [--json OUT]

The systems are PyTerrier transformers returning runs (``pt.Transformer.from_df``): the scale's
run (``synthetic.py``; msmarco: 6,980 queries x 1,000 documents) and three variants of it with
noise added to the scores (other rankings with ties, the same size).  The experiment is the one an MS MARCO
paper runs: ``map``, ``ndcg_cut_10``, ``recall_100`` and ``RR@10`` with ``baseline=0`` (paired
t-tests).  Each mode runs in its own process; the time is that of the ``pt.Experiment`` call only
(reading the files and building the frames excluded, and the imports PyTerrier and ir_measures make
on a first call, by a warm-up call on five topics), with its CPU time and the child's peak memory.
``ir_measures`` computes the first three with pytrec_eval and RR@10 with its msmarco provider;
``irmetrics`` is the same call after ``irm.use_in_ir_measures()``.  The script checks that the two
tables agree on the measures whose tools rank ties alike (exit status 1 if not); RR@10 may differ in
the last digits where scores tie (irmetrics ranks ties by docno descending, msmarco ascending).

Measured on the development machine (2 cores shared with other jobs, load average 4 to 6; msmarco
scale, one run each; pyterrier 1.1.2, ir_measures 0.4.3, pytrec-eval-terrier 0.5.11, pandas 3.1)::

    mode          experiment s    CPU s   peak MB
    ir_measures          748.0    380.5      2449
    irmetrics             43.8     22.5      1974
    irmetrics / ir_measures time: 0.06
    tables agree on map, ndcg_cut_10, recall_100: yes; RR@10 differs by at most 8.48e-04 (ties)

Without irmetrics, most of the time goes to ir_measures turning each result frame into dicts row by
row, and to its msmarco provider (RR@10).  With it (cProfile of the irmetrics mode): about half is
irmetrics reading each frame's string columns (pandas' Arrow-backed strings, converted to Python
objects and back to Arrow), a quarter ranking the 7 million rows of each system, and most of the rest
PyTerrier's own joins of the topics with each frame; reading Arrow-backed columns without the detour
(merged after this run; not re-measured) removes most of the first part.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from run_bench import HERE, ensure_data, measure_process

MODES = ('ir_measures', 'irmetrics')
MEASURES = ['map', 'ndcg_cut_10', 'recall_100', 'RR@10']
AGREEING = ['map', 'ndcg_cut_10', 'recall_100']
SYSTEMS = 4


def experiment(mode: str, data: Path, scale: str) -> dict:
    """In the child: build the systems, run ``pt.Experiment`` once, return its time and table."""
    import numpy as np
    import pandas as pd
    import pyterrier as pt

    import irmetrics as irm
    qrels = pt.io.read_qrels(str(data / f'{scale}.qrels'))
    run = pd.read_csv(data / f'{scale}.run', sep=' ', header=None, usecols=[0, 2, 4], names=['qid', 'docno', 'score'],
                      dtype={'qid': str, 'docno': str, 'score': float})
    rng = np.random.default_rng(14)
    # 4 decimals, as the run's: scores that differ only beyond float precision would tie in pytrec_eval alone
    frames = [run] + [run.assign(score=(run.score + rng.normal(0, 0.01, len(run))).round(4))
                      for _ in range(SYSTEMS - 1)]
    systems = [pt.Transformer.from_df(frame) for frame in frames]
    topics = pd.DataFrame({'qid': qrels.qid.unique(), 'query': ''})
    measures = [m if m in AGREEING else pt.measures.RR@10 for m in MEASURES]
    names = [f's{i}' for i in range(SYSTEMS)]
    if mode == 'irmetrics':
        irm.use_in_ir_measures()
    pt.Experiment(systems, topics[:5], qrels, measures, names=names, baseline=0)   # warm-up: imports out of the time
    wall, cpu = time.perf_counter(), time.process_time()
    table = pt.Experiment(systems, topics, qrels, measures, names=names, baseline=0)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {'seconds': wall, 'cpu': cpu, 'means': table.set_index('name')[MEASURES].to_dict()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--data', type=Path, default=HERE.parent / 'benchdata')
    parser.add_argument('--scale', default='msmarco')
    parser.add_argument('-n', type=int, default=1, help='runs of each mode (interleaved); the median is shown')
    parser.add_argument('--json', type=Path, help='write the measurements here')
    parser.add_argument('--child', choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument('--out', type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        args.out.write_text(json.dumps(experiment(args.child, args.data, args.scale)))
        return 0
    ensure_data(args.scale, args.data)
    runs: dict[str, list[dict]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.n):
            for mode in MODES:
                out = Path(tmp) / f'{mode}.json'
                proc = measure_process([sys.executable, __file__, '--child', mode, '--data', str(args.data.resolve()),
                                        '--scale', args.scale, '--out', str(out)], cwd=HERE)
                if proc['rc'] != 0:
                    sys.exit(f'{mode} failed:\n{proc["stderr"]}')
                runs[mode].append({**json.loads(out.read_text()), 'peak_mb': proc['peak_mb']})
    print(f'pt.Experiment, {SYSTEMS} systems, scale {args.scale}, median of {args.n}:')
    print(f'{"mode":<12}  {"experiment s":>12}  {"CPU s":>7}  {"peak MB":>8}')
    for mode, results in runs.items():
        print(f'{mode:<12}  {statistics.median(r["seconds"] for r in results):12.1f}  '
              f'{statistics.median(r["cpu"] for r in results):7.1f}  {max(r["peak_mb"] for r in results):8.0f}')
    ratio = statistics.median(r['seconds'] for r in runs['irmetrics']) / \
        statistics.median(r['seconds'] for r in runs['ir_measures'])
    print(f'irmetrics / ir_measures time: {ratio:.2f}')
    theirs, ours = runs['ir_measures'][0]['means'], runs['irmetrics'][0]['means']
    bad = [(m, s) for m in AGREEING for s in theirs[m] if abs(theirs[m][s] - ours[m][s]) > 1e-9]
    rr = max(abs(theirs['RR@10'][s] - ours['RR@10'][s]) for s in theirs['RR@10'])
    print(f'tables agree on {", ".join(AGREEING)}: {"no " + str(bad) if bad else "yes"}; '
          f'RR@10 differs by at most {rr:.2e} (ties)')
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
