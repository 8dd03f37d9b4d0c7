"""Runs and qrels written back: Arrow tables, pandas DataFrames, Parquet and TREC files.

Each form reads back to the same :class:`~.run.Run` or :class:`~.qrels.Qrels`: the same ids, grades
and iterations, and scores to the last bit (Parquet stores the doubles; TREC text writes each score's
shortest decimal form that reads back to the same double, Arrow's conversion).  A run's rows come in
ranked order (trec_eval's: query, score descending, docno descending), with their rank from 1; a
qrels' rows in their order, query by query.

TREC text cannot hold an id with white space in it (fields are separated by it), nor an empty one:
:func:`write_trec` refuses such an id, naming it, and points to Parquet, which holds any id.
"""
from __future__ import annotations

import os
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputError
from .ids.arrow_ids import ArrowIds
from .output_files import writing
from .segments import ranges

#: The bytes that end a TREC field or line (C's isspace), which no id written as TREC text may hold.
_WHITE = r'[ \t\n\v\f\r]'


def run_table(run: Any) -> pa.Table:
    """``query_id, doc_id, score, rank``: every row of a :class:`~.run.Run` in ranked order, ranks from 1."""
    order = run.order
    sizes = np.diff(run.offsets)
    return pa.table({'query_id': _strings(run.query_ids).take(pa.array(run.qidx[order])),
                     'doc_id': _strings(run.doc_ids).take(pa.array(order)),
                     'score': pa.array(run.scores[order]),
                     'rank': pa.array(ranges(sizes) + 1)})


def qrels_table(qrels: Any) -> pa.Table:
    """``query_id, iteration, doc_id, relevance``: every judgment of a :class:`~.qrels.Qrels`, in its order."""
    return pa.table({'query_id': _strings(qrels.query_ids).take(pa.array(qrels.qidx)),
                     'iteration': _strings(qrels.iteration), 'doc_id': _strings(qrels.doc_ids),
                     'relevance': pa.array(qrels.relevance)})


def write_parquet(table: pa.Table, path: str | os.PathLike[str]) -> None:
    """The table as a Parquet file, written as :mod:`.output_files` says (never over a link or a device)."""
    import pyarrow.parquet as pq
    with writing(path) as into:
        pq.write_table(table, into)


def write_trec(table: pa.Table, path: str | os.PathLike[str], tag: str | None = None) -> None:
    """The table as a TREC file: a run (``tag`` in the last field) or qrels, one line a row, written as
    :mod:`.output_files` says."""
    lines = _trec_lines(table, tag)
    with writing(path) as into:
        _write_lines(lines, into)


def write_trec_to(table: pa.Table, into: BinaryIO, tag: str | None = None) -> None:
    """The table as TREC text (as :func:`write_trec` writes it) into an open binary stream: standard output,
    which is no file to replace."""
    _write_lines(_trec_lines(table, tag), into)


def _trec_lines(table: pa.Table, tag: str | None) -> pa.Table:
    """The columns of the TREC lines of ``table``, its ids checked first (nothing is written when one fails)."""
    ids = ['query_id', 'doc_id'] + (['iteration'] if tag is None else [])
    for column in ids:
        _check_text(table.column(column), column)
    if tag is None:
        return table.select(['query_id', 'iteration', 'doc_id', 'relevance'])
    _check_text(pa.chunked_array([pa.array([tag])]), 'run tag')
    n = len(table)
    return pa.table({'query_id': table.column('query_id'), 'Q0': pa.array(np.full(n, 'Q0')),
                     'doc_id': table.column('doc_id'), 'rank': table.column('rank'),
                     'score': pc.cast(table.column('score'), pa.string()), 'tag': pa.array(np.full(n, tag))})


def _write_lines(lines: pa.Table, into: BinaryIO) -> None:
    import pyarrow.csv as pa_csv
    pa_csv.write_csv(lines, into, pa_csv.WriteOptions(include_header=False, delimiter=' ', quoting_style='none'))


def _strings(ids: Any) -> pa.Array:
    """Ids as a plain Arrow string array (not dictionary-encoded, not large)."""
    values = ArrowIds.adopt(ids).values
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    return values.cast(pa.string()) if pa.types.is_large_string(values.type) else values


def _check_text(column: pa.ChunkedArray, what: str) -> None:
    """An id TREC text cannot hold (white space inside, or empty) is an error naming it."""
    bad = pc.or_(pc.match_substring_regex(column, _WHITE), pc.equal(pc.binary_length(column), 0))
    if pc.any(bad).as_py():
        first = column.filter(bad)[0].as_py()
        raise InputError(f'{what} {first!r} cannot be written as TREC text (fields are separated by white space, '
                         f'and none may be empty): write Parquet instead (to_parquet)')
