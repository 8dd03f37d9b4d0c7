#!/usr/bin/env python3
"""Score matrices in process: irmetrics against the plain numpy computation and
scikit-learn's ndcg_score, on the same arrays, in one run.

What is measured
    A users x items score matrix (no ties) and a dense grade matrix, generated here.  nDCG@10 over the
    users with a relevant item, three ways, each run once as a warm-up then N times interleaved:

      irmetrics   irmetrics.calc_aggregate(['nDCG@10'], grades, scores): trec_eval's tie rule, exact
      numpy       argsort per row, gains by take_along_axis, an ideal from the sorted grades: no tie rule
      sklearn     sklearn.metrics.ndcg_score(grades, scores, k=10) (averages over tied orders)
      torchmetrics  RetrievalNormalizedDCG(top_k=10, empty_target_action='skip') on CPU tensors of the
                  same arrays, flattened with user indexes (torchmetrics' input form)

    The medians and the ratios of irmetrics to each are printed, and the values are checked to agree
    (1e-9; 1e-6 for torchmetrics, which computes in float32) on these tie-free scores.

    With ``--ties`` the scores are rounded to one decimal (about ten tied items in each group of
    a row), and irmetrics computes nDCG(ties='expected')@10, the exact expectation over tie orders, which
    must agree with scikit-learn's (it averages over ties too, 1e-9); irmetrics in trec_eval's tie order
    is timed beside it (its value differs by the tie order).

How to run (from the repository root, with the project's virtualenv)
    .venv/bin/python benchmarks/bench_arrays.py                    # 8,000 x 40, N=7
    .venv/bin/python benchmarks/bench_arrays.py --users 50000 --items 100 -n 3
    .venv/bin/python benchmarks/bench_arrays.py --ties

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def numpy_ndcg(grades: np.ndarray, scores: np.ndarray, k: int) -> float:
    order = np.argsort(-scores, axis=1, kind='stable')[:, :k]
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = (np.take_along_axis(grades, order, axis=1) * discounts).sum(axis=1)
    ideal = (-np.sort(-grades, axis=1)[:, :k] * discounts).sum(axis=1)
    judged = ideal > 0
    return float((dcg[judged] / ideal[judged]).mean())


def median_times(tools: dict, n: int) -> tuple[dict[str, float], dict[str, float]]:
    """Each tool's value (a warm-up) and its median time over ``n`` runs, the tools interleaved."""
    times: dict[str, list[float]] = {name: [] for name in tools}
    values = {name: tool() for name, tool in tools.items()}
    for _ in range(n):
        for name, tool in tools.items():
            start = time.perf_counter()
            tool()
            times[name].append(time.perf_counter() - start)
    return values, {name: statistics.median(t) for name, t in times.items()}


def report(title: str, values: dict[str, float], medians: dict[str, float], first: str) -> None:
    print(title)
    for name, median in medians.items():
        print(f'  {name:12s} {median * 1000:9.1f} ms   value {values[name]:.12f}   '
              f'{first} / {name} {medians[first] / median:.2f}')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--users', type=int, default=8000)
    parser.add_argument('--items', type=int, default=40)
    parser.add_argument('-n', type=int, default=7)
    parser.add_argument('--ties', action='store_true', help="scores with ties: nDCG(ties='expected')@10")
    args = parser.parse_args()
    from sklearn.metrics import ndcg_score

    import irmetrics as irm
    rng = np.random.default_rng(0)
    grades = rng.choice([0, 0, 0, 0, 1, 2], size=(args.users, args.items))
    judged = grades.max(axis=1) > 0
    if args.ties:
        scores = np.round(rng.random((args.users, args.items)), 1)
        expected = irm.nDCG(ties='expected') @ 10
        values, medians = median_times({
            'expected': lambda: irm.calc_aggregate([expected], grades, scores)[expected],
            'trec_eval': lambda: irm.calc_aggregate(['nDCG@10'], grades, scores)[irm.nDCG @ 10],
            'sklearn': lambda: float(ndcg_score(grades[judged], scores[judged], k=10, ignore_ties=False)),
        }, args.n)
        report(f'{args.users} users x {args.items} items, scores with ties, nDCG@10, median of {args.n}:', values,
               medians, 'expected')
        agree = abs(values['expected'] - values['sklearn']) < 1e-9
        print('expected agrees with sklearn' if agree else 'EXPECTED DIFFERS FROM SKLEARN')
        return 0 if agree else 1
    import torch
    from torchmetrics.retrieval import RetrievalNormalizedDCG
    scores = rng.permutation(args.users * args.items).reshape(args.users, args.items).astype(np.float64)
    preds, target = torch.from_numpy(scores).flatten(), torch.from_numpy(grades).flatten()
    indexes = torch.arange(args.users).repeat_interleave(args.items)
    values, medians = median_times({
        'irmetrics': lambda: irm.calc_aggregate(['nDCG@10'], grades, scores)[irm.nDCG @ 10],
        'numpy': lambda: numpy_ndcg(grades, scores, 10),
        'sklearn': lambda: float(ndcg_score(grades[judged], scores[judged], k=10)),
        'torchmetrics': lambda: float(RetrievalNormalizedDCG(top_k=10, empty_target_action='skip')(
            preds, target, indexes=indexes)),
    }, args.n)
    report(f'{args.users} users x {args.items} items, nDCG@10, median of {args.n}:', values, medians, 'irmetrics')
    agree = all(abs(v - values['irmetrics']) < (1e-6 if name == 'torchmetrics' else 1e-9)
                for name, v in values.items())
    print('values agree' if agree else 'VALUES DIFFER')
    return 0 if agree else 1


if __name__ == '__main__':
    raise SystemExit(main())
