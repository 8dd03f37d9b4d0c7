"""Is a partitioned run grouped by query, and which partitions must join at their boundaries?

One pass over the query id column alone (Parquet reads nothing else) summarises each partition:
its rows, the fingerprints of its first and last query, and whether each of its queries' rows are
together.  A tree of :func:`merge` steps then checks, without gathering the query ids anywhere,
that no query has rows in two places of the run: then the run is *grouped*, and only a query cut
by a partition boundary needs rows of the next partition(s) (:class:`Plan`).  Otherwise the run is
shuffled by query id.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from irmetrics.data import ids
from irmetrics.data.inputs import frame_column


class Summary(NamedTuple):
    """A partition (or consecutive partitions): rows, first and last query (fingerprints), whether
    each query's rows are together, and the sorted fingerprints of its queries."""
    rows: int
    first: int
    last: int
    grouped: bool
    queries: np.ndarray


def first_run_end(part: Any) -> int:
    """The number of rows at the start of a partition that belong to its first query."""
    starts = ids.column(frame_column(part['query_id'])).run_starts()
    return int(starts[1]) if len(starts) > 1 else len(part)


def summarise(part: Any) -> Summary:
    """The :class:`Summary` of one partition (a pandas DataFrame with a ``query_id`` column)."""
    column = ids.column(frame_column(part['query_id']))
    starts = column.run_starts()
    heads = column.take(starts).fingerprint()
    if len(heads) == 0:
        return Summary(0, 0, 0, True, heads)
    queries = np.unique(heads)
    return Summary(len(part), int(heads[0]), int(heads[-1]), len(queries) == len(heads), queries)


def merge(a: Summary, b: Summary) -> Summary:
    """The summary of partitions ``a`` then ``b``: grouped if both are and they share at most the
    query that ends ``a`` and starts ``b``."""
    if a.rows == 0 or b.rows == 0:
        return b if a.rows == 0 else a
    shared = np.intersect1d(a.queries, b.queries, assume_unique=True)
    joined = len(shared) == 0 or (len(shared) == 1 and a.last == b.first == int(shared[0]))
    return Summary(a.rows + b.rows, a.first, b.last, a.grouped and b.grouped and joined,
                   np.union1d(a.queries, b.queries))


def merge_all(*summaries: Summary) -> Summary:
    """:func:`merge` of consecutive summaries, in order."""
    out = summaries[0]
    for s in summaries[1:]:
        out = merge(out, s)
    return out


def edges(s: Summary) -> tuple[int, int, int, bool]:
    """What the client needs of a partition's summary: rows, first and last query, one query only."""
    return s.rows, s.first, s.last, len(s.queries) == 1


class Plan(NamedTuple):
    """For each partition of a grouped run: whether its first query belongs to an earlier partition
    (``drop_head``), and the later partitions whose first rows complete its last query."""
    drop_head: list[bool]
    continued_by: list[list[int]]
    owns_nothing: list[bool]


def boundary_plan(partition_edges: list[tuple[int, int, int, bool]]) -> Plan:
    """Which rows move across partition boundaries, from each partition's :func:`edges` (empty ones skipped)."""
    n = len(partition_edges)
    continued_by: list[list[int]] = [[] for _ in range(n)]
    drop_head, owns_nothing = [False] * n, [False] * n
    nonempty = [i for i, e in enumerate(partition_edges) if e[0]]
    for k, i in enumerate(nonempty):
        _, first, last, single = partition_edges[i]
        if k and partition_edges[nonempty[k - 1]][2] == first:
            drop_head[i] = True
            owns_nothing[i] = single
        if owns_nothing[i]:
            continue
        for j in nonempty[k + 1:]:
            _, next_first, _, next_single = partition_edges[j]
            if next_first != last:
                break
            continued_by[i].append(j)
            if not next_single:
                break
    return Plan(drop_head, continued_by, owns_nothing)
