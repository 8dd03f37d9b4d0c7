"""A partition's queries: the ones it holds whole, the two at its edges, and whether the run is grouped.

In a run *grouped* by query (each query's rows together, as runs are written), only the first and
the last query of a partition can have rows in another partition.  So each partition evaluates
the queries strictly inside it and hands over its edge rows (:func:`split`); the edge rows of all
partitions, in order, hold the other queries whole.  Whether the run is grouped is checked in the
same pass: each partition is summarised (:class:`Summary`: its first and last query, and the
sorted fingerprints of its queries) and a tree of :func:`merge` steps checks that no query has
rows in two places, without gathering the query ids anywhere (on the client).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from irmetrics.data import ids
from irmetrics.data.python_objects import frame_column
from irmetrics.data.segments import distinct


class Summary(NamedTuple):
    """A partition (or consecutive partitions): rows, first and last query (fingerprints), whether
    each query's rows are together, and the sorted fingerprints of its queries."""
    rows: int
    first: int
    last: int
    grouped: bool
    queries: np.ndarray


class Split(NamedTuple):
    """A partition cut at its edges: its rows (``inner``) of the queries it holds whole if the run is
    grouped, the rows of its first and last query (``edges``, one frame when they are one query)."""
    inner: Any
    edges: list[Any]
    summary: Summary


def split(part: Any) -> Split:
    """:class:`Split` of a partition (a pandas DataFrame with a ``query_id`` column)."""
    column = ids.column(frame_column(part['query_id']))
    starts = column.run_starts()
    heads = column.take(starts).fingerprint()
    if len(heads) == 0:
        return Split(part, [], Summary(0, 0, 0, True, heads))
    queries = distinct(heads)
    summary = Summary(len(part), int(heads[0]), int(heads[-1]), len(queries) == len(heads), queries)
    if len(starts) == 1:
        return Split(part.iloc[:0], [part], summary)
    first_end, last_start = int(starts[1]), int(starts[-1])
    # the edge rows are taken (copied): a slice would keep the whole partition's buffers alive until
    # every partition's edges are evaluated
    edges = [part.take(np.arange(first_end)), part.take(np.arange(last_start, len(part)))]
    return Split(part.iloc[first_end:last_start], edges, summary)


def merge(*summaries: Summary) -> Summary:
    """The summary of consecutive partitions: grouped if each is and a query found in two of them is
    only ever the last of one and the first of the next (a query over several partitions is that at
    each of its boundaries).  One sort of their queries' fingerprints, whatever their number."""
    parts = [s for s in summaries if s.rows]
    if not parts:
        return summaries[0]
    queries = np.sort(np.concatenate([s.queries for s in parts]))
    again = queries[1:] == queries[:-1]
    joints = np.sort(np.array([a.last for a, b in zip(parts, parts[1:], strict=False) if a.last == b.first],
                              dtype=np.uint64))
    grouped = all(s.grouped for s in parts) and np.array_equal(queries[1:][again], joints)
    return Summary(sum(s.rows for s in parts), parts[0].first, parts[-1].last, grouped,
                   queries[np.concatenate(([True], ~again))])
