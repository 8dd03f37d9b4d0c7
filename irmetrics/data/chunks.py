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
  a chunk.  Costs a write and a read of the run (one more of each for more buckets than files are
  written at once, :data:`MAX_OPEN_SPILLS`, and again for more than its square); needs that much
  free disk space (``TMPDIR``).

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


#: Spill files written at once, at most (far below the usual limit of 1,024 open files).
MAX_OPEN_SPILLS = 64
#: Rows are spilled this many bytes at a time, at least (small tables, those of a small budget, are joined
#: first: a write per table and file would cost more than the rows)
SPILL_BATCH = 1 << 20


def spilled(tables: Iterator[pa.Table], buckets: int, directory: str) -> Iterator[pa.Table]:
    """Tables of complete queries of any run: each row to its query's bucket (of ``buckets``), then bucket
    by bucket.

    At most :data:`MAX_OPEN_SPILLS` files are written at once, every one until its rows end: the rows go to
    that many ranges of buckets (a Parquet file each), and a range of more than one bucket is split the same
    way again, read back a row group at a time, until each file holds one bucket.  So the run is written
    once for up to MAX_OPEN_SPILLS buckets, twice for up to its square, and no bucket's file is closed and
    reopened.  Rows keep their file order within a file at every step."""
    yield from _spill_range(tables, 0, buckets, buckets, directory)


def _spill_range(tables: Iterator[pa.Table], lo: int, hi: int, buckets: int, directory: str) -> Iterator[pa.Table]:
    """The buckets ``[lo, hi)`` of ``tables`` (whose rows are of those buckets only), bucket by bucket."""
    width = -(-(hi - lo) // MAX_OPEN_SPILLS)                    # buckets a file holds at this step
    files = _write_ranges(tables, lo, width, buckets, directory)
    for r, path in sorted(files.items()):
        start, end = lo + r * width, min(lo + (r + 1) * width, hi)
        if end - start == 1:
            table = pq.read_table(path)
            os.remove(path)
            yield table
        else:
            yield from _spill_range(_read_back(path), start, end, buckets, directory)


def _write_ranges(tables: Iterator[pa.Table], lo: int, width: int, buckets: int, directory: str) -> dict[int, str]:
    """Each row of ``tables`` to the file of its bucket's range (``(bucket - lo) // width``); the files written."""
    writers: dict[int, pq.ParquetWriter] = {}
    paths: dict[int, str] = {}
    try:
        for table in _joined(tables, SPILL_BATCH):
            bucket = (ids.column(table.column('query_id')).fingerprint() % np.uint64(buckets)).astype(np.int64)
            group = (bucket - lo) // width
            order = np.argsort(group, kind='stable')                   # file order kept within a range
            bounds = np.searchsorted(group[order], np.arange(int(group.max(initial=0)) + 2))
            for g in np.flatnonzero(np.diff(bounds)).tolist():
                part = table.take(pa.array(order[bounds[g]:bounds[g + 1]]))
                if g not in writers:
                    paths[g] = _spill_path(directory, lo + g * width, width)
                    writers[g] = pq.ParquetWriter(paths[g], part.schema)
                writers[g].write_table(part.cast(writers[g].schema))
    finally:
        for writer in writers.values():
            writer.close()
    return paths


def _joined(tables: Iterator[pa.Table], least: int) -> Iterator[pa.Table]:
    """``tables`` in order, consecutive ones joined until they hold ``least`` bytes (the last may hold fewer)."""
    pending: list[pa.Table] = []
    size = 0
    for table in tables:
        pending.append(table)
        size += table.nbytes
        if size >= least:
            yield pa.concat_tables(pending, promote_options='permissive')
            pending, size = [], 0
    if pending:
        yield pa.concat_tables(pending, promote_options='permissive')


def _read_back(path: str) -> Iterator[pa.Table]:
    """A spill file's rows in order, a row group at a time; the file is removed once read."""
    try:
        for batch in pq.ParquetFile(path).iter_batches():
            yield pa.Table.from_batches([batch])
    finally:
        os.remove(path)


def _spill_path(directory: str, first: int, width: int) -> str:
    """The file of the buckets ``first`` to ``first + width - 1`` (a name no other step of the spill takes)."""
    return os.path.join(directory, f'{first}-{width}.parquet')
