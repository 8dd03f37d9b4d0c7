"""trec_eval's z-scores (``irmetrics trec_eval -Z FILE``): each per-query value as standard deviations from
a reference mean.

The file holds one line ``query_id measure mean stddev`` per query and measure (four fields separated by
white space, nothing else on the line: no blank or comment lines), the means and deviations of the
measure's values over some reference runs (NIST's test/make_zscore_file.py writes one).  trec_eval 10
(get_zscores.c, convert_zscores.c) turns a query's value ``v`` of the line named ``measure`` into

    z = (v - mean) / stddev           (stddev != 0)
    z = 0                             (stddev == 0 and v == mean)
    z = -1000000                      (stddev == 0 and v != mean; or no line for the query and measure)

before the summary, which it then computes from the z-scores as from the values (the mean of the z-scores,
their sum for counts, exp of the mean z-score of the logarithms for gm_map and gm_bpref; num_q still the
number of queries, num_rel under ``-c`` still the judgments of grade >= 1).  A query of the qrels with no
line at all has -1000000 everywhere.

trec_eval looks a query and a measure up by binary search over the sorted lines, searching one entry past
the end of the list (its ``end`` starts at the count, not the count less one).  So a measure missing from a
query's lines whose name sorts after all of them is compared with the first line (in byte order) of the
next query, and takes that line's mean and deviation if the names are equal; this module does the same.
Where that entry is past the end of trec_eval's table (the last query's lines, or a query id sorting after
every query of the file) trec_eval reads memory it never wrote (it crashed when tried): irmetrics refuses
the file there, and a query and measure given twice (which line trec_eval finds depends on its C
library's sort).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..data.trec.format import number_or_none
from ..errors import InputError

#: What trec_eval prints for a value it cannot convert (trec_eval.h's MISSING_ZSCORE_VALUE).
MISSING_ZSCORE = -1000000.0


@dataclass(frozen=True)
class QueryZScores:
    """One query's lines: measure name (bytes) -> (mean, stddev), and the name sorting last."""

    lines: dict[bytes, tuple[float, float]]
    last: bytes
    first: bytes


@dataclass(frozen=True)
class ZScores:
    """A z-scores file, read as trec_eval reads it."""

    path: str
    queries: dict[bytes, QueryZScores]
    order: list[bytes]                      # the query ids, byte-sorted (trec_eval's table)

    def reference(self, query_id: str, name: str) -> tuple[float, float] | None:
        """(mean, stddev) trec_eval finds for ``name`` of ``query_id`` (None: it finds none); raises where
        trec_eval's search reads past the end of its table."""
        qid, key = query_id.encode('utf-8', 'surrogateescape'), name.encode('utf-8', 'surrogateescape')
        found = self.queries.get(qid)
        if found is None:
            if qid > self.order[-1]:
                raise InputError(f'query {query_id!r} has no line and its id sorts after every query id of the '
                                 f'file: trec_eval 10 reads past the end of its table there (undefined; it '
                                 f'crashes): give the query a line, or a query id that sorts after it', self.path)
            return None
        if key in found.lines:
            return found.lines[key]
        if key < found.last:
            return None
        position = self.order.index(qid) + 1
        if position == len(self.order):
            raise InputError(f'{name!r} has no line for query {query_id!r} (the last query id of the file) and sorts '
                             f'after all of its measures: trec_eval 10 reads past the end of its table there '
                             f'(undefined; it crashes): give the query a line for {name!r}', self.path)
        following = self.queries[self.order[position]]
        return following.lines[key] if key == following.first else None      # trec_eval's one-past-the-end probe

    def convert(self, name: str, query_ids: list[str], values: np.ndarray) -> np.ndarray:
        """The z-scores of one line's per-query ``values`` (queries ``query_ids``, in any order)."""
        found = [self.reference(qid, name) for qid in query_ids]
        hit = np.array([f is not None for f in found], dtype=bool)
        mean = np.array([f[0] if f is not None else 0.0 for f in found], dtype=np.float64)
        stddev = np.array([f[1] if f is not None else 1.0 for f in found], dtype=np.float64)
        with np.errstate(divide='ignore', invalid='ignore'):
            z = np.where(stddev != 0, (values - mean) / np.where(stddev != 0, stddev, 1.0),
                         np.where(values == mean, 0.0, MISSING_ZSCORE))
        return np.where(hit, z, MISSING_ZSCORE)


def read_zscores(path: str | os.PathLike[str]) -> ZScores:
    """Read a z-scores file (the module's format); each bad line is one error naming the file and line."""
    name = os.fspath(path)
    try:
        with open(name, 'rb') as f:
            data = f.read()
    except OSError as ex:
        raise InputError(f'cannot read the z-scores file: {ex.strerror}', name) from None
    if not data:
        raise InputError('the z-scores file is empty (0 bytes); trec_eval refuses it too', name)
    if b'\0' in data:
        raise InputError('the z-scores file holds a NUL byte', name, data[:data.index(b'\0')].count(b'\n') + 1)
    rows: dict[tuple[bytes, bytes], tuple[float, float]] = {}
    for number, line in enumerate(data.removesuffix(b'\n').split(b'\n'), 1):
        fields = line.split()                      # bytes.split(): C's isspace bytes, as trec_eval splits
        if len(fields) != 4:
            raise InputError(f'expected 4 fields (query_id measure mean stddev), found {len(fields)}: '
                             f'{line.decode("utf-8", "backslashreplace")[:80]!r}', name, number)
        qid, measure, mean, stddev = fields
        numbers = [number_or_none(text.decode('ascii', 'replace')) for text in (mean, stddev)]
        for what, text, value in zip(('mean', 'stddev'), (mean, stddev), numbers, strict=True):
            if value is None:
                raise InputError(f'{what} {text.decode("utf-8", "backslashreplace")!r} is not a number', name, number)
        if (qid, measure) in rows:
            raise InputError(f'query {qid.decode("utf-8", "surrogateescape")!r} and measure '
                             f'{measure.decode("utf-8", "surrogateescape")!r} are given twice (which line '
                             f'trec_eval 10 takes depends on its C library\'s sort)', name, number)
        rows[qid, measure] = (numbers[0], numbers[1])          # type: ignore[assignment]
    grouped: dict[bytes, dict[bytes, tuple[float, float]]] = {}
    for (qid, measure), pair in sorted(rows.items()):
        grouped.setdefault(qid, {})[measure] = pair
    queries = {qid: QueryZScores(lines, max(lines), min(lines)) for qid, lines in grouped.items()}
    return ZScores(name, queries, sorted(queries))
