"""Speed of irmetrics.compare: the statistics against the evaluation they sit on, and against ranx.

10 synthetic runs x 6,980 queries (MS MARCO dev/small's count) x 3 measures (AP, nDCG@10, RR@10),
every run against the first as baseline, paired randomisation test with 10,000 resamples and Holm's
correction.  The data are generated here, deterministically (numpy, seed 0): 40 judged documents
per query (grades 0-3), 100 retrieved per run, scores = noise + a run-specific weight x grade.

Reported: the evaluation (``Evaluator.calc`` of the 10 runs, inputs already converted), the
statistics (building the :class:`Comparison` from the per-query values: means, intervals, the
randomisation test, Holm), and ranx's numba Fisher randomisation test
(``ranx.statistical_tests.fisher_randomization_test``, what ``ranx.compare(..., stat_test='fisher')``
runs for each pair and metric) on the same per-query values for the same 27 comparisons.
ranx is timed once, after a warm-up call (numba compiles on the first); it is slow at this size.

    python benchmarks/bench_compare.py [--resamples 10000] [--no-ranx]

Results on the development machine (2 cores shared with other work, Python 3.11, numpy 2.4,
ranx 0.3.21; median of 3, ranx once):

    evaluation (calc of 10 runs)                     0.64 s
    statistics (randomisation + Holm)                0.51 s   (0.78 x the evaluation)
      of which the randomisation test                0.18 s   (0.2-0.6 s from run to run)
    ranx Fisher randomisation, 27 comparisons      141.6 s    (~800 x irmetrics' randomisation test)
    irmetrics.compare end to end                     0.83 s

ranx draws one ``np.random.permutation`` per query and resample inside numba loops; irmetrics
draws the sign flips of all queries of a block of resamples as random bits and tests every
comparison with one matrix product per block.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import irmetrics as irm  # noqa: E402
from irmetrics.comparing.comparison import Comparison, Settings  # noqa: E402

N_QUERIES, N_RUNS, JUDGED, RETRIEVED = 6980, 10, 40, 100
MEASURES = ['AP', 'nDCG@10', 'RR@10']


def generate(seed: int = 0):
    """(qrels, runs) as columnar irmetrics objects: deterministic synthetic data."""
    rng = np.random.default_rng(seed)
    qids = np.array([f'q{i}' for i in range(N_QUERIES)], dtype=object)
    grades = rng.choice(4, size=(N_QUERIES, JUDGED), p=[0.7, 0.15, 0.1, 0.05])
    docs = np.array([f'd{j}' for j in range(JUDGED + RETRIEVED)], dtype=object)
    qrels = irm.to_qrels(_frame(np.repeat(qids, JUDGED), np.tile(docs[:JUDGED], N_QUERIES),
                                relevance=grades.ravel()))
    runs = []
    for r in range(N_RUNS):
        weight = 0.5 + 0.05 * r
        # each run retrieves 100 of the 140 documents: the judged ones plus 60 unjudged
        picked = np.argsort(rng.random((N_QUERIES, JUDGED + RETRIEVED)), axis=1)[:, :RETRIEVED]
        gain = np.where(picked < JUDGED, np.take_along_axis(grades, np.minimum(picked, JUDGED - 1), 1), 0)
        scores = rng.normal(0, 1, (N_QUERIES, RETRIEVED)) + weight * gain
        runs.append(irm.to_run(_frame(np.repeat(qids, RETRIEVED), docs[picked.ravel()], score=scores.ravel())))
    return qrels, runs


def _frame(query_id, doc_id, **values):
    import pandas as pd
    return pd.DataFrame({'query_id': query_id, 'doc_id': doc_id, **values})


def timed(function, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--resamples', type=int, default=10000)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--no-ranx', action='store_true')
    args = parser.parse_args()

    qrels, runs = generate()
    names = [f'run{i}' for i in range(N_RUNS)]

    def evaluate():
        ev = irm.evaluator(MEASURES, qrels)
        return ev, np.stack([ev.calc(run).values for run in runs])

    t_eval, (ev, values) = timed(evaluate, args.repeat)
    settings = Settings.checked('randomization', 'holm', 'measure', 0.05, 0.95, 't', args.resamples, 0)
    query_ids = ev.calc(runs[0]).query_ids

    def statistics_only():
        return Comparison(names, ev.measures, query_ids, values, 'run0', settings)

    t_stats, cmp = timed(statistics_only, args.repeat)
    from irmetrics.comparing import resampling
    diffs = np.where(cmp._valid, cmp._diffs, 0.0)
    t_random, _ = timed(lambda: resampling.randomization_test(diffs, args.resamples, np.random.default_rng(0)),
                        args.repeat)
    t_total, _ = timed(lambda: irm.compare(MEASURES, qrels, dict(zip(names, runs, strict=True)), baseline='run0',
                                           test='randomization', correction='holm', n_resamples=args.resamples),
                       args.repeat)
    print(f'{N_RUNS} runs x {N_QUERIES} queries x {len(MEASURES)} measures, {len(cmp.pairs) * len(MEASURES)} '
          f'comparisons, {args.resamples} resamples (median of {args.repeat})')
    print(f'evaluation (calc of {N_RUNS} runs)                 {t_eval:7.2f} s')
    print(f'statistics (randomisation + Holm)               {t_stats:7.2f} s   '
          f'({t_stats / t_eval:.2f} x the evaluation)')
    print(f'  of which the randomisation test               {t_random:7.2f} s')
    if not args.no_ranx:
        from ranx.statistical_tests import fisher_randomization_test
        pairs = [(values[0, :, j], values[r, :, j]) for r in range(1, N_RUNS) for j in range(len(MEASURES))]
        fisher_randomization_test(pairs[0][0], pairs[0][1], 10, 0.05, 42)            # numba compiles
        t_ranx, _ = timed(lambda: [fisher_randomization_test(a, b, args.resamples, 0.05, 42) for a, b in pairs], 1)
        print(f'ranx Fisher randomisation, {len(pairs)} comparisons     {t_ranx:7.2f} s   '
              f'({t_ranx / t_random:.1f} x irmetrics\' randomisation test)')
    print(f'irmetrics.compare end to end                    {t_total:7.2f} s')


if __name__ == '__main__':
    main()
