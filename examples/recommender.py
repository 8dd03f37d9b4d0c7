#!/usr/bin/env python3
"""Evaluating a recommender in its training loop: score matrices and top-k arrays in, trec_eval's numbers,
popularity bias, novelty and diversity out.

A small matrix-factorisation model is trained by gradient steps on synthetic implicit feedback (numpy
only; the same calls take torch tensors, on the CPU or a GPU).  After each epoch the whole catalogue is
scored for every user, batch by batch as a model on a GPU scores it, and irmetrics' accumulator evaluates
the batches against the held-out interactions (a scipy.sparse matrix), the training interactions left out
of the rankings (``exclude=``), with item popularity and item vectors from the training data for the
measures beyond accuracy.

    .venv/bin/python examples/recommender.py [--users 2000] [--items 500] [--epochs 5]
"""
from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp

import irmetrics as irm

MEASURES = ['nDCG@10', 'R@20', 'RR@10', 'ARP@10', "Novelty(unseen='once')@10", 'ILD@10', 'TailShare@10',
            'TailRecall@20', 'Coverage(catalogue={items})@10', 'Gini(catalogue={items})@10']


def interactions(users: int, items: int, seed: int = 0) -> tuple[sp.csr_matrix, sp.csr_matrix, np.ndarray]:
    """Synthetic implicit feedback: users like items near their taste, popular items more often; 20% of
    each user's interactions are held out.  Returns (train, held_out, true item vectors)."""
    rng = np.random.default_rng(seed)
    taste, vectors = rng.normal(size=(users, 8)), rng.normal(size=(items, 8))
    popularity = rng.zipf(1.6, items).clip(max=50)
    affinity = taste @ vectors.T + np.log(popularity)
    liked = affinity > np.quantile(affinity, 0.97, axis=1, keepdims=True)
    held = liked & (rng.random(liked.shape) < 0.2)
    return sp.csr_matrix(liked & ~held), sp.csr_matrix(held.astype(np.int8)), vectors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--users', type=int, default=2000)
    parser.add_argument('--items', type=int, default=500)
    parser.add_argument('--epochs', type=int, default=5)
    args = parser.parse_args()
    train, held_out, vectors = interactions(args.users, args.items)
    # what the measures beyond accuracy know of the items: training popularity, and item vectors
    items = irm.Items(np.asarray(train.sum(axis=0)).ravel(), users=args.users, features=vectors)
    measures = [m.format(items=args.items) for m in MEASURES]
    # the judgments read once, reused every epoch; the training interactions are never ranked
    evaluator = irm.evaluator(measures, held_out, items=items, exclude=train)
    accumulator = evaluator.accumulator()

    rng = np.random.default_rng(1)
    user_factors = rng.normal(scale=0.1, size=(args.users, 16))
    item_factors = rng.normal(scale=0.1, size=(args.items, 16))
    target = train.toarray().astype(np.float64)
    rows = []
    for epoch in range(1, args.epochs + 1):
        for _ in range(20):                                          # full-batch gradient steps on squared error
            error = user_factors @ item_factors.T - target
            user_factors, item_factors = (user_factors - 0.01 * (error @ item_factors + 0.01 * user_factors),
                                          item_factors - 0.001 * (error.T @ user_factors + 0.01 * item_factors))
        accumulator.reset()
        for lo in range(0, args.users, 500):                         # scored and measured in batches of users
            accumulator.update(user_factors[lo:lo + 500] @ item_factors.T, offset=lo)
        rows.append((epoch, accumulator.compute().aggregated))
    width = max(map(len, measures))
    print(f'{"measure":{width}s}  ' + '  '.join(f'epoch {epoch:<2d}' for epoch, _ in rows))
    for m in measures:
        print(f'{m:{width}s}  ' + '  '.join(f'{aggregated[m]:8.4f}' for _, aggregated in rows))
    scores = np.where(train.toarray() > 0, -np.inf, user_factors @ item_factors.T)    # training items masked
    top20 = np.argsort(-scores, axis=1)[:, :20]                       # a top-k array gives the same numbers
    same = irm.calc_aggregate(measures[:3], held_out, top20)
    print('the top 20 as an array, last epoch:', ', '.join(f'{m} {v:.4f}' for m, v in same.items()))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
