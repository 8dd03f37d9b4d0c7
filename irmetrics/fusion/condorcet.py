"""Condorcet fusion (Montague & Aslam, CIKM 2002): the candidates sorted by pairwise majority votes.

Run ``i`` votes (with weight ``w_i``) for ``d`` over ``e`` when it ranks ``d`` above ``e``; a run that ranks
one of them and not the other ranks that one above; a run that ranks neither abstains.  ``d`` comes before
``e`` when its votes are more; equal votes leave the two in their order so far.  The candidates are sorted
by this comparison with a stable merge sort (Python's), starting from document id descending
(trec_eval's tie order), as the paper sorts them; where the majorities form a cycle the order found is
one Hamiltonian path of the majority graph, as the paper says.  A candidate's fused score is ``C`` minus
its position (from 0).

This method compares pairs in Python: about ``C log C`` comparisons of the runs' ranks a query, for ``C``
candidates: seconds for thousands of queries of a few hundred candidates, not for MS MARCO's full depth.
"""
from __future__ import annotations

import functools

import numpy as np

from .candidates import Candidates, Ranked


def condorcet_points(candidates: Candidates, runs: tuple[Ranked, ...], weights: np.ndarray) -> np.ndarray:
    """Every candidate's Condorcet score (module docstring)."""
    unranked = np.iinfo(np.int64).max
    ranks = np.full((len(candidates), len(runs)), unranked, dtype=np.int64)
    for j, run in enumerate(runs):
        ranks[run.at, j] = run.ranks
    by_query = candidates.doc_ids.order_within_groups(candidates.query)   # query ascending, doc id descending
    sizes = np.bincount(candidates.query, minlength=candidates.num_queries)
    points = np.zeros(len(candidates))
    w = [float(x) for x in weights]
    start = 0
    for size in sizes.tolist():
        members = by_query[start:start + size].tolist()
        start += size
        table = {m: ranks[m].tolist() for m in members}
        ordered = sorted(members, key=functools.cmp_to_key(functools.partial(_before, table, w)))
        points[ordered] = size - np.arange(size)
    return points


def _before(table: dict[int, list[int]], weights: list[float], d: int, e: int) -> int:
    """-1 when the runs' votes put ``d`` before ``e``, 1 when after, 0 when they are equal."""
    for_d = for_e = 0.0
    for weight, rd, re in zip(weights, table[d], table[e], strict=True):
        if rd < re:
            for_d += weight
        elif re < rd:
            for_e += weight
    return -1 if for_d > for_e else (1 if for_e > for_d else 0)
