#!/usr/bin/env python3
"""Scores with ties (issue 22): the exact expectation over tie orders against scikit-learn's ndcg_score, which
averages over ties too, and against irmetrics in trec_eval's order, on the same arrays, in one run.

What is measured
    A users x items matrix of scores rounded to one decimal (about ten tied items in each group of a row)
    and a grade matrix, generated here; nDCG@10 over the users with a relevant item, three ways, each run
    once as a warm-up then N times interleaved:

      expected    irmetrics.calc_aggregate([nDCG(ties='expected')@10], grades, scores)
      trec_eval   irmetrics.calc_aggregate([nDCG@10], grades, scores): ties in trec_eval's order
      sklearn     sklearn.metrics.ndcg_score(grades, scores, k=10, ignore_ties=False)

    The medians and the ratios of ``expected`` to each are printed, and ``expected`` is checked to agree
    with scikit-learn (1e-9); ``trec_eval`` differs from both by the tie order.

How to run (from the repository root, with the project's virtualenv)
    .venv/bin/python benchmarks/bench_ties.py                      # 8,000 x 40, N=7
    .venv/bin/python benchmarks/bench_ties.py --users 50000 --items 100 -n 3

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--users', type=int, default=8000)
    parser.add_argument('--items', type=int, default=40)
    parser.add_argument('-n', type=int, default=7)
    args = parser.parse_args()
    from sklearn.metrics import ndcg_score

    import irmetrics as irm
    rng = np.random.default_rng(0)
    grades = rng.choice([0, 0, 0, 0, 1, 2], size=(args.users, args.items))
    scores = np.round(rng.random((args.users, args.items)), 1)
    judged = grades.max(axis=1) > 0
    expected = irm.nDCG(ties='expected') @ 10
    tools = {
        'expected': lambda: irm.calc_aggregate([expected], grades, scores)[expected],
        'trec_eval': lambda: irm.calc_aggregate(['nDCG@10'], grades, scores)[irm.nDCG @ 10],
        'sklearn': lambda: float(ndcg_score(grades[judged], scores[judged], k=10, ignore_ties=False)),
    }
    times: dict[str, list[float]] = {name: [] for name in tools}
    values = {name: tool() for name, tool in tools.items()}                     # warm-up, and the values
    for _ in range(args.n):
        for name, tool in tools.items():
            start = time.perf_counter()
            tool()
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f'{args.users} users x {args.items} items, scores with ties, nDCG@10, median of {args.n}:')
    for name, median in medians.items():
        print(f'  {name:10s} {median * 1000:9.1f} ms   value {values[name]:.12f}   '
              f'expected / {name} {medians["expected"] / median:.2f}')
    agree = abs(values['expected'] - values['sklearn']) < 1e-9
    print('expected agrees with sklearn' if agree else 'EXPECTED DIFFERS FROM SKLEARN')
    return 0 if agree else 1


if __name__ == '__main__':
    raise SystemExit(main())
