"""trec_eval's output layout, written once for ``irmetrics trec_eval`` and ``irmetrics --trec-eval``.

A line is ``%-22s<TAB>query<TAB>value``: the value as ``%6.4f``, counts as integers (``%ld``), ``-nan``
where trec_eval divides 0 by 0, a quoted string for ``relstring``, the run's tag for ``runid``.  The
per-query lines come query by query, in trec_eval's order (query ids compared byte-wise), each query's
lines in the order of the columns; then the summary lines (query ``all``) in the same order.

Summaries are computed as trec_eval computes them: a mean adds the per-query values one after another in
the printed order (so a mean exactly between two printed values rounds as trec_eval rounds it), a
geometric mean adds their logarithms (each value floored at 1e-5) the same way.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..algebra.params import GEOMETRIC_MEAN_FLOOR
from ..rendering.evaluation import SUMMARY_QID

NAME_WIDTH = 22
_CHUNK = 4096                 # queries formatted and written at a time


class Column(NamedTuple):
    """One measure of the output: its printed name, per-query cells and summary.

    ``values`` holds one float per query (in the order of the queries given to :func:`write`), or one
    string per query (``relstring``), or is None (no per-query lines); ``summary`` is the summary value
    or text (None: no summary line).  ``integer`` prints values as integers; ``omit`` marks the queries
    that have no line (a measure undefined there).
    """

    name: str
    values: np.ndarray | Sequence[str] | None
    summary: float | str | None
    integer: bool = False
    omit: np.ndarray | None = None


#: trec_eval's 0/0, as C's printf prints it with ``%6.4f``.
NAN_TEXT = '  -nan'
#: ``places`` for every digit: 17 significant (``%.17g``), as a trec_eval rebuilt to print them prints a value.
EVERY_DIGIT = -1


def _spec(places: int) -> str:
    """The ``%`` conversion of a value: ``%6.<places>f``, or ``%.17g`` for :data:`EVERY_DIGIT`."""
    return '%.17g' if places == EVERY_DIGIT else f'%6.{places}f'


def trec_order(query_ids: Sequence[str]) -> np.ndarray:
    """Indices of ``query_ids`` in trec_eval's order: byte-wise (UTF-8 preserves code point order)."""
    return np.argsort(np.array(query_ids, dtype=object), kind='stable') if len(query_ids) else \
        np.zeros(0, dtype=np.int64)


def sequential_summary(aggregation: str, values: np.ndarray, skip_undefined: bool = False) -> float:
    """The summary of per-query ``values`` as trec_eval computes it: ``'mean'``, ``'gmean'`` and ``'sum'`` add
    one value after another in the given order.  With ``skip_undefined`` NaN values are left
    out (measures undefined on some queries); the mean of no value is NaN."""
    values = np.asarray(values, dtype=np.float64)
    if skip_undefined:
        values = values[~np.isnan(values)]
    if not len(values):
        return 0.0 if aggregation == 'sum' else math.nan
    if aggregation == 'sum':
        return float(np.cumsum(values)[-1]) + 0.0          # counts: exact; -Z's z-scores: trec_eval's order
    if aggregation == 'gmean':
        return math.exp((float(np.cumsum(floored_logs(values))[-1]) + 0.0) / len(values))
    return (float(np.cumsum(values)[-1]) + 0.0) / len(values)        # + 0.0: a sum of -0.0 is 0.0 in C


def floored_logs(values: np.ndarray) -> np.ndarray:
    """The logarithm of each value floored at 1e-5, as trec_eval's geometric means take them (libm's log)."""
    return np.array([math.log(v if v > GEOMETRIC_MEAN_FLOOR else GEOMETRIC_MEAN_FLOOR)
                     for v in np.asarray(values, dtype=np.float64).tolist()], dtype=np.float64)


def cell(value: float, integer: bool = False, places: int = 4) -> str:
    """One value as trec_eval prints it (``places``: decimals, or :data:`EVERY_DIGIT`)."""
    if value != value:
        return NAN_TEXT.strip() if places == EVERY_DIGIT else NAN_TEXT
    return f'{value:.0f}' if integer else _spec(places) % value


def write(out: Callable[[str], object], query_ids: Sequence[str], columns: Sequence[Column],
          by_query: bool = True, summary: bool = True, places: int = 4) -> None:
    """Write the lines of ``columns`` for ``query_ids`` (already in output order) with ``out``."""
    if by_query:
        _write_queries(out, query_ids, [c for c in columns if c.values is not None], places)
    if summary:
        out(''.join(_line(c.name, SUMMARY_QID, c.summary if isinstance(c.summary, str)
                          else cell(c.summary, c.integer, places))
                    for c in columns if c.summary is not None))


def _line(name: str, qid: str, text: str) -> str:
    return f'{padded(name)}\t{qid}\t{text}\n'


def padded(name: str) -> str:
    """``name`` padded to :data:`NAME_WIDTH` bytes, as C's ``%-22s`` pads (a character beyond ASCII is
    several bytes in UTF-8)."""
    return name + ' ' * max(0, NAME_WIDTH - len(name.encode('utf-8', 'surrogateescape')))


def _write_queries(out: Callable[[str], object], query_ids: Sequence[str], columns: Sequence[Column],
                   places: int) -> None:
    """Per query, one line per column: a ``%`` template filled once per query (C-level formatting)."""
    if not columns:
        return
    omit = np.zeros(len(query_ids), dtype=bool)
    for c in columns:
        if c.omit is not None:
            omit |= c.omit
    for start in range(0, len(query_ids), _CHUNK):
        stop = min(start + _CHUNK, len(query_ids))
        specs, cells = zip(*(_cells(c, start, stop, places) for c in columns), strict=True)
        template = ''.join(padded(c.name).replace('%', '%%') + f'\t%s\t{spec}\n'
                           for c, spec in zip(columns, specs, strict=True))
        arguments: list[Any] = [None] * (2 * len(columns))
        block = []
        for i, (qid, row) in enumerate(zip(query_ids[start:stop], zip(*cells, strict=True), strict=True)):
            if omit[start + i]:
                kept = [(c, v, spec) for c, v, spec in zip(columns, row, specs, strict=True)
                        if c.omit is None or not c.omit[start + i]]
                block.append(''.join(_line(c.name, qid, spec % v) for c, v, spec in kept))
                continue
            arguments[0::2] = [qid] * len(columns)
            arguments[1::2] = row
            block.append(template % tuple(arguments))
        out(''.join(block))


def _cells(column: Column, start: int, stop: int, places: int) -> tuple[str, list[Any]]:
    """The ``%`` conversion and the cells of rows ``start:stop`` of a column: numbers as they are,
    or, for strings and numbers with a NaN among them, text."""
    values = column.values
    if not isinstance(values, np.ndarray):
        return '%s', list(values[start:stop])                       # type: ignore[index]
    part = values[start:stop]
    if np.isnan(part).any():
        return '%s', [cell(v, column.integer, places) for v in part.tolist()]
    return ('%d' if column.integer else _spec(places)), part.tolist()
