"""A partition's queries: the ones it holds whole, the two at its edges, and whether the run is grouped.

In a run *grouped* by query (each query's rows together, as runs are written), only the first and
the last query of a partition can have rows in another partition.  So each partition evaluates
the queries strictly inside it and hands over its edge rows (:func:`split`); the edge rows of all
partitions, in order, hold the other queries whole.  Whether the run is grouped is checked in the
same pass: each partition is summarised (:class:`Summary`: its first and last query, and the
sorted fingerprints of its queries) and a tree of :func:`merge` steps checks that no query has
rows in two places, without gathering the query ids anywhere.
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
    queries = np.unique(heads)
    summary = Summary(len(part), int(heads[0]), int(heads[-1]), len(queries) == len(heads), queries)
    if len(starts) == 1:
        return Split(part.iloc[:0], [part], summary)
    first_end, last_start = int(starts[1]), int(starts[-1])
    return Split(part.iloc[first_end:last_start], [part.iloc[:first_end], part.iloc[last_start:]], summary)


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
