"""Beyond accuracy, from the top k of every qrels query the run holds (judged or not): catalogue
coverage and the Gini index of exposure (one value per run); popularity, novelty, intra-list diversity
and the head/tail split of recall (per query), from what is known of the items (:class:`Items`)."""
from __future__ import annotations

import math
from typing import cast

import numpy as np

from ...algebra.measure import UNDEFINED, Measure
from ...data.ids import Ids
from ...data.items import Items
from ...data.locate import id_at
from ...data.segments import ranges
from ...errors import MeasureError
from ...measures import ARP, ILD, Coverage, Gini, HeadRecall, Novelty, TailRecall, TailShare
from .kernels import kernel, safe_divide
from .table import RankedTable


def _exposure(measure: Measure, t: RankedTable) -> np.ndarray:
    """The number of top-k slots of each item recommended at least once, ascending (the catalogue's other
    items have none: they are never held, so that a catalogue of any size costs the recommended items only)."""
    run, k, n = t.run, measure['cutoff'], measure['catalogue']
    in_qrels = run.query_ids.lookup(t.index.qrels.query_ids) >= 0            # per run query code
    query = run.qidx[run.order]
    chosen = run.order[in_qrels[query] & (np.arange(len(run.order)) - run.offsets[query] < k)]
    _, codes = run.doc_ids.take(chosen).encode()
    counts = np.bincount(codes) if len(codes) else np.zeros(0, dtype=np.int64)
    if len(counts) > n:
        raise MeasureError(f'{measure!r}: the run recommends {len(counts)} distinct items, more than the '
                           f'catalogue of {n} (catalogue=...)')
    return np.sort(counts)


@kernel(Coverage)
def coverage(measure: Measure, t: RankedTable) -> float:
    return cast(float, len(_exposure(measure, t)) / measure['catalogue'])


@kernel(Gini)
def gini(measure: Measure, t: RankedTable) -> float:
    """With the m recommended items' slots s_1 <= ... <= s_m last among the n = catalogue items' (the others
    have none), sum_i (2i - n - 1) c_i = (n - 2m - 1) sum_j s_j + 2 sum_j j s_j: integers, summed exactly and
    divided once."""
    slots = _exposure(measure, t)
    n, m, total = measure['catalogue'], len(slots), int(slots.sum())
    if total == 0:
        return 0.0
    weighted = int(np.dot(np.arange(1, m + 1, dtype=np.int64), slots))      # <= m * total: int64 holds it
    return cast(float, ((n - 2 * m - 1) * total + 2 * weighted) / (n * total))


# --- per user, from the top k and what is known of the items (Items) -------------------------------------

def _top(t: RankedTable, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``k`` rows of the ranking of every qrels query the run holds: the qrels query code of
    each row and its run row, sorted by query, in rank order within each."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        run = t.run
        qmap = run.query_ids.lookup(t.index.qrels.query_ids)              # run query -> qrels query, -1
        query = run.qidx[run.order]
        rank = np.arange(len(run.order)) - run.offsets[query]
        keep = np.flatnonzero((qmap[query] >= 0) & (rank < k))
        codes, rows = qmap[query[keep]], run.order[keep]
        by_query = np.argsort(codes, kind='stable')
        return codes[by_query], rows[by_query]
    return t.memo(('top', k), compute)


def _items(t: RankedTable) -> Items:
    items = t.index.qrels.items
    assert items is not None                   # the evaluator refuses these measures without items
    return items


def _mean_per_query(t: RankedTable, query: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per qrels query, the mean of ``values`` over its rows (0 for a query without rows)."""
    return safe_divide(np.bincount(query, weights=values, minlength=t.nq), np.bincount(query, minlength=t.nq))


def _popularity(t: RankedTable, rows: np.ndarray) -> np.ndarray:
    """The popularity of the items of run rows ``rows`` (0 for an item without one)."""
    popularity = _items(t).popularity
    assert popularity is not None
    at = popularity.rows_of(t.run.doc_ids.take(rows))
    return np.where(at >= 0, popularity.values[np.maximum(at, 0)], 0.0)


@kernel(ARP)
def arp(measure: Measure, t: RankedTable) -> np.ndarray:
    query, rows = _top(t, measure['cutoff'])
    return _mean_per_query(t, query, _popularity(t, rows))


@kernel(Novelty)
def novelty(measure: Measure, t: RankedTable) -> np.ndarray:
    query, rows = _top(t, measure['cutoff'])
    popularity = _popularity(t, rows)
    unknown = np.flatnonzero(popularity == 0)
    if measure['unseen'] == 'once':
        popularity[unknown] = 1.0
    elif len(unknown):
        row = rows[unknown[0]]
        raise MeasureError(f'{measure!r}: item {id_at(t.run.doc_ids, row)!r}, recommended to '
                           f'{id_at(t.index.qrels.query_ids, query[unknown[0]])!r}, has popularity 0: its '
                           f'self-information is infinite ({len(unknown)} such recommendation(s)): pass '
                           f"unseen='once' to count such an item as seen once, or give it a popularity")
    users = _items(t).users
    assert users is not None
    return _mean_per_query(t, query, -np.log2(popularity / users))


def _head(t: RankedTable, share: float) -> np.ndarray:
    """Per row of the popularity table, whether the item is in the head: the ceil(share * n) most popular
    of its n items, ties by item id descending as text (trec_eval's tie rule)."""
    popularity = _items(t).popularity
    assert popularity is not None

    def compute() -> np.ndarray:
        n = len(popularity.values)
        by_id = popularity.ids.order_within_groups(np.zeros(n, dtype=np.int64))
        order = by_id[np.argsort(-popularity.values[by_id], kind='stable')]
        head = np.zeros(n, dtype=bool)
        head[order[:math.ceil(round(share * n, 9))]] = True               # 0.2 * 30 is 6.000000000000001
        return head
    return t.index.cached(('head', share), compute)


def _in_head(t: RankedTable, share: float, items: Ids) -> np.ndarray:
    popularity = _items(t).popularity
    assert popularity is not None
    at = popularity.rows_of(items)
    return cast(np.ndarray, (at >= 0) & _head(t, share)[np.maximum(at, 0)])


@kernel(TailShare)
def tail_share(measure: Measure, t: RankedTable) -> np.ndarray:
    query, rows = _top(t, measure['cutoff'])
    tail = ~_in_head(t, measure['head'], t.run.doc_ids.take(rows))
    return _mean_per_query(t, query, tail.astype(np.float64))


def _group_recall(measure: Measure, t: RankedTable, head: bool) -> np.ndarray:
    index, rel, k = t.index, measure['rel'], measure['cutoff']
    in_head = _in_head(t, measure['head'], index.doc_vocab)                     # per judged document
    doc_of_judgment = index.keys % index.n_docs
    judged = (index.grades >= rel) & (in_head[doc_of_judgment] == head)
    found = (t.rank < k) & (t.grade >= rel) & (in_head[doc_of_judgment[t.judgment]] == head)
    total = np.bincount(index.query[judged], minlength=t.nq)
    values = safe_divide(t.count(found), total)
    values[total == 0] = UNDEFINED
    return values


@kernel(HeadRecall)
def head_recall(measure: Measure, t: RankedTable) -> np.ndarray:
    return _group_recall(measure, t, head=True)


@kernel(TailRecall)
def tail_recall(measure: Measure, t: RankedTable) -> np.ndarray:
    return _group_recall(measure, t, head=False)


@kernel(ILD)
def ild(measure: Measure, t: RankedTable) -> np.ndarray:
    query, rows = _top(t, measure['cutoff'])
    items = _items(t)
    known = items.features if items.features is not None else items.distances
    assert known is not None
    at = known.rows_of(t.run.doc_ids.take(rows))
    if (at < 0).any():
        bad = int(np.flatnonzero(at < 0)[0])
        raise MeasureError(f'{measure!r}: item {id_at(t.run.doc_ids, rows[bad])!r} has no '
                           f'{known.what}; give every recommended item {known.what}')
    size = np.bincount(query, minlength=t.nq).astype(np.float64)
    pairs = size * (size - 1) / 2
    if items.features is not None:
        norms = np.linalg.norm(known.values[at], axis=1)
        zero = np.flatnonzero(norms == 0)
        if len(zero):
            raise MeasureError(f'{measure!r}: item {id_at(t.run.doc_ids, rows[zero[0]])!r} has a zero feature '
                               f'vector: its cosine distance is undefined')
        total = pairs - _cosine_similarity_sums(known.values[at] / norms[:, None], query, t.nq)
    else:
        total = _distance_sums(known.values, at, query, t.nq)
    values = safe_divide(total, pairs)
    values[size < 2] = UNDEFINED
    return values


def _cosine_similarity_sums(unit: np.ndarray, query: np.ndarray, nq: int) -> np.ndarray:
    """Per query, the sum over its pairs of items of their cosine similarity, from the items' unit
    vectors ``unit``: with s their sum, sum_{i<j} cos(i, j) = (|s|^2 - n) / 2, linear in the items."""
    sums = np.zeros((nq, unit.shape[1]))
    np.add.at(sums, query, unit)
    return cast(np.ndarray, ((sums ** 2).sum(axis=1) - np.bincount(query, minlength=nq)) / 2)


def _distance_sums(distances: np.ndarray, at: np.ndarray, query: np.ndarray, nq: int) -> np.ndarray:
    """Per query, the sum of the given distances over its pairs of items (rows sorted by query)."""
    size = np.bincount(query, minlength=nq)
    position = ranges(size)
    later = np.repeat(size, size) - position - 1                    # items after each one in its list
    first = np.repeat(np.arange(len(query)), later)
    second = first + 1 + ranges(later)
    return np.bincount(query[first], weights=distances[at[first], at[second]], minlength=nq)
