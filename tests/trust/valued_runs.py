"""Runs whose P@10 on each query is chosen: the inputs of the tests of irmetrics.trust.

Every query has ten relevant documents (r0..r9) and ten judged non-relevant ones (n0..n9); run r retrieves
``levels[r, q]`` relevant documents and then non-relevant ones, ten in all, so its P@10 on query q is
``levels[r, q] / 10`` exactly.
"""
import numpy as np


def precision_runs(levels, names=None):
    """(qrels, {name: run}) as dicts of dicts for a (runs x queries) array of integers 0..10."""
    levels = np.asarray(levels)
    queries = [f'q{q}' for q in range(levels.shape[1])]
    qrels = {q: {**{f'r{i}': 1 for i in range(10)}, **{f'n{i}': 0 for i in range(10)}} for q in queries}
    names = names or [f'run{r}' for r in range(levels.shape[0])]
    runs = {}
    for name, row in zip(names, levels, strict=True):
        runs[name] = {q: {doc: 20.0 - i for i, doc in enumerate([f'r{j}' for j in range(k)] +
                                                                 [f'n{j}' for j in range(10 - k)])}
                      for q, k in zip(queries, row, strict=True)}
    return qrels, runs
