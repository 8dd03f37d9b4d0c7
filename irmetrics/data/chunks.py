"""A run too large for memory, in chunks of complete queries (every row of each of their queries).

The run's rows arrive in file order as Arrow tables of a bounded size (:func:`run_tables`:
``query_id, doc_id, score, position``, the position being the row's line in a TREC file or its
item number in a Parquet run).  Two ways to cut them into chunks of complete queries:

* :func:`aligned`, for a run grouped by query (each query's rows together, as TREC runs are
  written): a chunk ends where a query ends; the rows of a table's last query wait for the next
  table.  A query met again after its chunk was cut means the run is not grouped:
  :class:`NotGrouped` is raised (a set of the fingerprints of the queries seen so far tells).
* :func:`spilled`, for any run: a first pass writes every row to the temporary Parquet file of
  its query's hash bucket (rows keep their file order within a bucket), then each bucket file is
  a chunk.  Costs a write and a read of the run; needs that much free disk space (``TMPDIR``).

Peak memory is bounded by a chunk (a table, plus the rows of one query carried over), not the run.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError
from . import ids
from .trec.blocks import block_table, file_blocks
from .trec.format import BlankLines
from .trec.reader import warn_blank_lines


class NotGrouped(Exception):
    """The run's rows are not grouped by query: a query's rows are in two places."""


def run_tables(source: str, parquet: bool, rows: int, block_bytes: int) -> Iterator[pa.Table]:
    """The rows of a run file in order, as tables of about ``rows`` rows (Parquet) or of the lines of
    about ``block_bytes`` bytes of text (TREC, plain or compressed)."""
    if parquet:
        from .parquet import run_batches
        yield from run_batches(source, rows)
        return
    blanks = BlankLines()                       # one warning for the whole file, at its end
    for number, (block, first_line) in enumerate(file_blocks(source, block_bytes)):
        yield block_table(block, source, first_line, file_start=number == 0, blanks=blanks)
    warn_blank_lines(blanks, source)


def aligned(tables: Iterator[pa.Table], source: str, most: int) -> Iterator[pa.Table]:
    """Tables of complete queries from the tables of a run grouped by query (else :class:`NotGrouped`);
    a query whose rows alone pass ``most`` bytes is an error (no chunk could hold it)."""
    seen: set[int] = set()                      # fingerprints of the queries already cut
    carry: pa.Table | None = None
    for table in tables:
        if carry is not None:
            if carry.nbytes > most:
                query = ids.column(carry.column('query_id').slice(0, 1)).to_list()[0]
                raise InputError(f'query {query!r} alone takes more than a chunk of the memory budget '
                                 f'({carry.nbytes:,} bytes in {len(carry):,} rows so far, a chunk being {most:,}): '
                                 f'raise --memory-limit', source)
            table = pa.concat_tables([carry, table])
        column = ids.column(table.column('query_id'))
        starts = column.run_starts()
        if len(starts) == 0:
            continue
        heads = column.take(starts).fingerprint().tolist()          # each run of one query's rows
        cut = int(starts[-1])                                       # where the last query's final rows start
        carry = table.slice(cut)
        if cut:
            chunk = set(heads[:-1])
            if heads[-1] in chunk or not seen.isdisjoint(chunk):
                raise NotGrouped
            seen |= chunk
            yield table.slice(0, cut)
    if carry is not None and len(carry):
        if ids.column(carry.column('query_id').slice(0, 1)).fingerprint()[0] in seen:
            raise NotGrouped
        yield carry


#: Spill files open at once, at most (the least recently written is closed first; far below the usual
#: limit of 1,024 open files).
MAX_OPEN_SPILLS = 64


def spilled(tables: Iterator[pa.Table], buckets: int, directory: str) -> Iterator[pa.Table]:
    """Tables of complete queries of any run: each row to its query's bucket, then bucket by bucket.

    A bucket is one or more Parquet files (``B-K.parquet``, K = 0, 1, ...): at most
    :data:`MAX_OPEN_SPILLS` are open at once, and a bucket whose file was closed to make room goes on
    in a new one; its files are read back in order, so rows keep their file order within a bucket."""
    writers: dict[int, pq.ParquetWriter] = {}       # open, least recently written first
    parts: dict[int, int] = {}                      # files of each bucket so far
    try:
        for table in tables:
            bucket = (ids.column(table.column('query_id')).fingerprint() % np.uint64(buckets)).astype(np.int64)
            order = np.argsort(bucket, kind='stable')                  # file order kept within a bucket
            bounds = np.searchsorted(bucket[order], np.arange(buckets + 1))
            for b in np.flatnonzero(np.diff(bounds)).tolist():
                part = table.take(pa.array(order[bounds[b]:bounds[b + 1]]))
                writer = writers.pop(b, None)
                if writer is None:
                    if len(writers) >= MAX_OPEN_SPILLS:
                        writers.pop(next(iter(writers))).close()
                    parts[b] = parts.get(b, 0) + 1
                    writer = pq.ParquetWriter(_spill_path(directory, b, parts[b] - 1), part.schema)
                writers[b] = writer
                writer.write_table(part.cast(writer.schema))
    finally:
        for writer in writers.values():
            writer.close()
    for b in sorted(parts):
        paths = [_spill_path(directory, b, k) for k in range(parts[b])]
        table = pa.concat_tables([pq.read_table(path) for path in paths], promote_options='permissive')
        for path in paths:
            os.remove(path)
        yield table


def _spill_path(directory: str, bucket: int, part: int) -> str:
    return os.path.join(directory, f'{bucket}-{part}.parquet')
