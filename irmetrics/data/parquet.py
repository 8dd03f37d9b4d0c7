"""Parquet files as qrels and runs: one file, or a directory of Parquet files (as Spark and Dask write).

Only the needed columns are read (named as in :mod:`.columns`, PyTerrier's names included), and
they go into :class:`Qrels` / :class:`Run` as Arrow columns (:mod:`.tables`); an error names the
file, and the row as ``item N`` (1-based, in the order the files list the rows).  Imported only
when a Parquet input arrives.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from ..errors import InputError
from .arrow_arrays import arrow_array
from .columns import find_columns
from .locate import RowLocator
from .qrels import Qrels
from .run import Run
from .tables import id_column, qrels_from_table, run_from_table


def dataset(source: Any) -> tuple[ds.Dataset, str]:
    """The Parquet dataset of a file or directory (files starting with '.' or '_' left out), and its name."""
    path = os.fspath(source)
    if not os.path.exists(path):
        raise InputError('no such file', path)
    try:
        found = ds.dataset(path, format='parquet')
    except (pa.ArrowException, OSError) as ex:
        raise InputError(f'cannot read as Parquet: {ex}', path) from None
    if not found.files:
        raise InputError('is a directory without Parquet files (qrels and runs are files, or directories of '
                         'Parquet files)', path)
    return found, path


def columns(found: ds.Dataset, kind: str, path: str) -> dict[str, str]:
    """``{canonical name: column name}`` of a dataset's ``kind`` ('run' or 'qrels') columns."""
    return find_columns(found.schema.names, kind, f'Parquet {kind}', path)


def read_table(source: Any, kind: str) -> tuple[pa.Table, str]:
    """The ``kind`` columns of a Parquet file or directory, under their canonical names, and its name."""
    found, path = dataset(source)
    names = columns(found, kind, path)
    try:
        table = found.to_table(columns=list(names.values()))
    except (pa.ArrowException, OSError) as ex:
        raise InputError(f'cannot read as Parquet: {ex}', path) from None
    return table.rename_columns(list(names)), path


def read_parquet_run(source: Any, duplicates: str = 'error') -> Run:
    """A run from a Parquet file or directory (``query_id, doc_id, score`` or ``qid, docno, score``)."""
    table, path = read_table(source, 'run')
    return run_from_table(table, 'Parquet run', path, duplicates)


def read_parquet_qrels(source: Any, duplicates: str = 'error') -> Qrels:
    """Qrels from a Parquet file or directory (``query_id, doc_id, relevance[, iteration]`` or
    ``qid, docno, label``)."""
    table, path = read_table(source, 'qrels')
    return qrels_from_table(table, 'Parquet qrels', path, duplicates)


def run_rows(source: Any) -> int:
    """The number of rows of a Parquet run (from the files' footers, without reading the data)."""
    found, path = dataset(source)
    try:
        return sum(pq.ParquetFile(f).metadata.num_rows for f in found.files)
    except (pa.ArrowException, OSError) as ex:
        raise InputError(f'cannot read as Parquet: {ex}', path) from None


def run_batches(source: Any, rows: int) -> Iterator[pa.Table]:
    """The run's rows in order, as tables of at most ``rows`` rows with the canonical run columns and
    ``position`` (each row's 1-based item number).  The files are read one batch at a time, in the
    dataset's order, with nothing read ahead: memory holds one batch, however slow its consumer."""
    found, path = dataset(source)
    names = columns(found, 'run', path)
    start = 1
    try:
        for file in found.files:
            for batch in pq.ParquetFile(file).iter_batches(batch_size=rows, columns=list(names.values())):
                table = pa.Table.from_batches([batch]).rename_columns(list(names))
                positions = np.arange(start, start + len(table), dtype=np.int64)
                # a faulty query id is named here, where its item is known: chunks hash and group the ids
                id_column(table, 'query_id', RowLocator(path, items=positions, part=True))
                yield table.append_column('position', arrow_array(positions))
                start += len(table)
    except (pa.ArrowException, OSError) as ex:
        raise InputError(f'cannot read as Parquet: {ex}', path) from None
