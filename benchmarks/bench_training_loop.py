#!/usr/bin/env python3
"""The training loop a recommender newcomer writes: measures without a cutoff (RR, AP) on a full score matrix,
and an epoch's evaluation through the accumulator with RR, nDCG@10, R@20, Coverage@10 and Gini@10.

What is measured (data from full_catalogue.py: float32 embeddings, scores = U @ V.T, 8 held-out items a user)
    ranks  --users x --items torch CPU scores; RR and AP (no cutoff) by irmetrics (an evaluator built once,
           the tensor given as it is) against the torch sort path (torch.sort of every row, torch.gather of
           the held-out matrix, the two formulas), best of -n; values checked to agree (1e-9).
    loop   --loop-users x --items scored batch by batch (--batch users; the scores of a batch computed
           before the clock starts), evaluated through irmetrics' accumulator (update each batch, compute at
           the end) against a hand-written torch path (topk of 20 and gather: nDCG@10, R@20, RR over the top
           20, Coverage@10 and Gini@10 from the top 10's items); each in its own child process: the
           evaluation's seconds (scoring excluded) and the process's peak RSS (ru_maxrss, the embeddings,
           judgments and one batch of scores included).

How to run (from the repository root)
    .venv/bin/python benchmarks/bench_training_loop.py ranks -n 5
    .venv/bin/python benchmarks/bench_training_loop.py loop
    PYTHONPATH=/tmp/before .venv/bin/python benchmarks/bench_training_loop.py ranks   # another version

Compare ratios measured in one run on one machine, not absolute times across machines.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import warnings

import numpy as np
from full_catalogue import embeddings, held_out

LOOP_MEASURES = ['RR', 'nDCG@10', 'R@20', 'Coverage(catalogue={n})@10', 'Gini(catalogue={n})@10']


def scores_of(users: int, items: int):
    import torch
    u, v = embeddings(users, items)
    return torch.from_numpy(u) @ torch.from_numpy(v).T


def sort_path(scores, qrels) -> dict[str, float]:
    """RR and AP of every user from a sort of every row (torch.sort, gather, the formulas)."""
    import torch
    n, m = scores.shape
    positive = torch.zeros((n, m), dtype=torch.float64)
    rows = torch.repeat_interleave(torch.arange(n), torch.as_tensor(np.diff(qrels.indptr).astype(np.int64)))
    positive[rows, torch.as_tensor(qrels.indices.astype(np.int64))] = 1.0
    _, order = torch.sort(scores, dim=1, descending=True)
    hits = torch.gather(positive, 1, order)
    ranks = torch.arange(1, m + 1, dtype=torch.float64)
    rr = torch.where(hits > 0, 1.0 / ranks, 0.0).amax(1)
    ap = (hits * hits.cumsum(1) / ranks).sum(1) / positive.sum(1)
    return {'RR': float(rr.mean()), 'AP': float(ap.mean())}


def bench_ranks(args) -> bool:
    import irmetrics as irm
    scores, qrels = scores_of(args.users, args.items), held_out(args.users, args.items)
    ev = irm.evaluator(['RR', 'AP'], qrels)
    tools = {'irmetrics': lambda: {str(k): v for k, v in ev.calc(scores).aggregated.items()},
             'torch sort path': lambda: sort_path(scores, qrels)}
    seconds, values = {}, {}
    for name, tool in tools.items():
        values[name] = tool()
    for name, tool in tools.items():
        best = np.inf
        for _ in range(args.n):
            start = time.perf_counter()
            tool()
            best = min(best, time.perf_counter() - start)
        seconds[name] = best
    agree = all(abs(values['irmetrics'][m] - values['torch sort path'][m]) < 1e-9 for m in ('RR', 'AP'))
    print(f'RR and AP, {args.users:,} x {args.items:,} torch CPU float32, 8 held-out items a user (best of {args.n})')
    for name in tools:
        print(f'  {name:18s} {seconds[name]:8.3f} s   {values[name]}')
    print(f'  irmetrics / torch sort path: {seconds["irmetrics"] / seconds["torch sort path"]:.2f}x; values '
          f'{"agree" if agree else "DIFFER"}')
    return agree


def hand_path(qrels, items: int):
    """A hand-written torch evaluation of one epoch (update per batch, compute at the end)."""
    import torch
    indptr, indices = torch.as_tensor(qrels.indptr.astype(np.int64)), torch.as_tensor(qrels.indices.astype(np.int64))
    sums = {'RR@20': 0.0, 'nDCG@10': 0.0, 'R@20': 0.0}
    counts = torch.zeros(items, dtype=torch.int64)
    ranks = torch.arange(1, 21, dtype=torch.float64)
    discount = 1.0 / torch.log2(ranks + 1.0)
    ideal = torch.cumsum(discount, 0)

    def update(scores, lo: int) -> None:
        n = scores.shape[0]
        _, top = torch.topk(scores, 20, dim=1)
        positive = torch.zeros(scores.shape, dtype=torch.float64)
        rows = torch.repeat_interleave(torch.arange(n), indptr[lo + 1:lo + n + 1] - indptr[lo:lo + n])
        positive[rows, indices[indptr[lo]:indptr[lo + n]]] = 1.0
        hits = torch.gather(positive, 1, top)
        relevant = positive.sum(1)
        sums['RR@20'] += float(torch.where(hits > 0, 1.0 / ranks, 0.0).amax(1).sum())
        ideal_of = ideal[relevant.clamp(1, 10).long() - 1]
        sums['nDCG@10'] += float(((hits[:, :10] * discount[:10]).sum(1) / ideal_of).sum())
        sums['R@20'] += float((hits.sum(1) / relevant).sum())
        counts.add_(torch.bincount(top[:, :10].reshape(-1), minlength=items))

    def compute(users: int) -> dict[str, float]:
        out = {m: s / users for m, s in sums.items()}
        out['Coverage@10'] = float((counts > 0).sum()) / items
        c = torch.sort(counts.double()).values
        i = torch.arange(1, items + 1, dtype=torch.float64)
        out['Gini@10'] = float(((2 * i - items - 1) * c).sum() / (items * c.sum()))
        return out
    return update, compute


def child_loop(tool: str, users: int, items: int, batch: int) -> None:
    import torch
    u, v = (torch.from_numpy(a) for a in embeddings(users, items))
    qrels = held_out(users, items)
    if tool == 'irmetrics':
        import irmetrics as irm
        acc = irm.evaluator([m.format(n=items) for m in LOOP_MEASURES], qrels).accumulator()
        update, compute = (lambda s, lo: acc.update(s, offset=lo)), (lambda n: {str(k): x for k, x in
                                                                                 acc.compute().aggregated.items()})
    else:
        update, compute = hand_path(qrels, items)
    spent = 0.0
    for lo in range(0, users, batch):
        scores = u[lo:lo + batch] @ v.T
        start = time.perf_counter()
        update(scores, lo)
        spent += time.perf_counter() - start
    start = time.perf_counter()
    values = compute(users)
    spent += time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({'seconds': spent, 'peak': peak, 'values': values}))


def bench_loop(args) -> bool:
    found = {}
    for tool in ('irmetrics', 'hand torch path'):
        out = subprocess.run([sys.executable, __file__, 'child', tool, str(args.loop_users), str(args.items),
                              str(args.batch)], capture_output=True, text=True, check=True)
        found[tool] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f'one epoch\'s evaluation, {args.loop_users:,} x {args.items:,} in batches of {args.batch:,} (torch CPU): '
          f'{", ".join(m.format(n=args.items) for m in LOOP_MEASURES)}')
    for tool, got in found.items():
        print(f'  {tool:18s} {got["seconds"]:8.3f} s  peak RSS {got["peak"] / 2 ** 30:5.2f} GiB  {got["values"]}')
    print(f'  irmetrics / hand path: {found["irmetrics"]["seconds"] / found["hand torch path"]["seconds"]:.2f}x')
    mine = {m.replace(f'(catalogue={args.items})', ''): v for m, v in found['irmetrics']['values'].items()}
    hand = found['hand torch path']['values']
    agree = all(abs(mine[m] - hand[m]) < 1e-9 for m in ('nDCG@10', 'R@20', 'Coverage@10', 'Gini@10')) and \
        mine['RR'] >= hand['RR@20']
    print(f'  values {"agree" if agree else "DIFFER"} (RR against RR@20: at least it)')
    return agree


def main() -> int:
    if sys.argv[1:2] == ['child']:
        child_loop(sys.argv[2], *(int(a) for a in sys.argv[3:6]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('case', choices=['ranks', 'loop'])
    parser.add_argument('--users', type=int, default=4000)
    parser.add_argument('--loop-users', type=int, default=20_000)
    parser.add_argument('--items', type=int, default=5000)
    parser.add_argument('--batch', type=int, default=1000)
    parser.add_argument('-n', type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter('ignore')
    return 0 if (bench_ranks if args.case == 'ranks' else bench_loop)(args) else 1


if __name__ == '__main__':
    sys.exit(main())
