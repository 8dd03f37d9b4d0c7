"""The one ranking rule every native kernel sees (trec_eval 10's).

Within a query, documents are ordered by score descending, scores compared as
doubles; equal scores are ordered by document id descending, compared byte-wise
(``strcmp``).  The run's rank column is ignored, as trec_eval ignores it.
"""
from __future__ import annotations

from typing import cast

import numpy as np

from .ids import Ids
from .segments import ranges


def canonical_order(qidx: np.ndarray, scores: np.ndarray, doc_ids: Ids) -> np.ndarray:
    """Row indices in trec_eval order: query code ascending, score descending, doc id descending.

    Runs are usually written grouped by query and sorted by score; that case is
    detected in linear time and only the tied rows are reordered.  Other runs are sorted by
    :func:`by_query_then_score`.
    """
    n = len(qidx)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    same_query = qidx[1:] == qidx[:-1]
    if np.all(qidx[1:] >= qidx[:-1]) and np.all(~same_query | (scores[1:] <= scores[:-1])):
        order, s = np.arange(n, dtype=np.int64), scores
    else:
        order = by_query_then_score(qidx, scores)
        same_query = qidx[order][1:] == qidx[order][:-1]
        s = scores[order]
    tied = same_query & (s[1:] == s[:-1])          # row i ties with row i + 1
    if tied.any():
        _order_ties_by_doc_desc(order, tied, doc_ids)
    return order


def tie_starts(run_scores: np.ndarray, order: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Over a run's ranked positions (``order``, query segments ``offsets``), True where a group of documents
    with equal scores starts: at every ranking's first document and wherever the score changes."""
    ranked = run_scores[order]
    first = np.zeros(len(ranked), dtype=bool)
    first[offsets[:-1][np.diff(offsets) > 0]] = True
    first[1:] |= ranked[1:] != ranked[:-1]
    return first


def by_query_then_score(qidx: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Row indices by query code ascending, then score descending (tied scores in any order).

    Cheaper than a sort on two keys: rows are grouped by query with a stable sort of the codes (a
    radix sort; nothing to do when a model wrote each query's rows together), then each query's
    scores are sorted on their own, side by side as the rows of a matrix padded with infinity when
    the queries' sizes allow (the usual case: top-k lists of one length), else by one sort of every
    score followed by a stable regrouping by query.
    """
    n = len(qidx)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    grouped = bool(np.all(qidx[1:] >= qidx[:-1]))
    by_query = np.arange(n, dtype=np.int64) if grouped else np.argsort(qidx, kind='stable').astype(np.int64)
    query = qidx[by_query]
    negated = -scores[by_query]
    sizes = np.bincount(query)
    if grouped and len(sizes) and sizes.min() == sizes.max():          # top-k lists of one length
        k = int(sizes[0])
        return (np.argsort(negated.reshape(-1, k), axis=1) + np.arange(0, n, k)[:, None]).ravel()
    if len(sizes) * int(sizes.max()) <= 2 * n + 1024:
        padded = np.full((len(sizes), int(sizes.max())), np.inf)
        position = ranges(sizes)
        padded[query, position] = negated
        within = np.argsort(padded, axis=1)[query, position]           # the padding sorts last
        return cast(np.ndarray, by_query[within + (np.cumsum(sizes) - sizes)[query]])
    order = np.argsort(negated)
    return by_query[order[np.argsort(query[order], kind='stable')]]


def _order_ties_by_doc_desc(order: np.ndarray, tied: np.ndarray, doc_ids: Ids) -> None:
    """Reorder, in place, each run of tied rows of ``order`` by doc id descending."""
    edge = np.diff(np.concatenate(([False], tied, [False])).astype(np.int8))
    starts = np.flatnonzero(edge == 1)             # first row of each tie group
    sizes = np.flatnonzero(edge == -1) + 1 - starts
    pairs = starts[sizes == 2]                      # the common case: swap when first < second
    if len(pairs):
        swap = pairs[doc_ids.take(order[pairs]).less(doc_ids.take(order[pairs + 1]))]
        order[swap], order[swap + 1] = order[swap + 1], order[swap].copy()
    big = sizes > 2
    if big.any():
        positions = np.repeat(starts[big], sizes[big]) + ranges(sizes[big])
        groups = np.repeat(np.arange(int(big.sum())), sizes[big])
        within = doc_ids.take(order[positions]).order_within_groups(groups)
        order[positions] = order[positions[within]]
