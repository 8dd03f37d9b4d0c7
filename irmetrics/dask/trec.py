"""TREC run files as a Dask DataFrame, read on the workers block by block.

A plain file is cut into blocks of about ``blocksize`` bytes; a block holds the lines that start in
its byte range, so every line is in exactly one block.  A compressed file (.gz, .bz2, .xz) cannot
be cut and is one block.  Each block is read by the in-memory reader's own path
(:mod:`irmetrics.data.trec.blocks`, then :mod:`irmetrics.data.trec.format`): the rows are the same,
and an error names the file and the line counted from the start of the file.
"""
from __future__ import annotations

import glob
import os
from typing import Any, cast

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

from irmetrics.data.budget import parse_size
from irmetrics.data.paths import compression_of
from irmetrics.data.trec.blocks import block_table, range_block
from irmetrics.data.trec.reader import load
from irmetrics.errors import InputError

DEFAULT_BLOCKSIZE = 128 << 20
Block = tuple[str, int, int]


def read_trec_run(paths: Any, blocksize: int | str | None = DEFAULT_BLOCKSIZE) -> dd.DataFrame:
    """A Dask DataFrame (``query_id, doc_id, score``) of TREC run files: a path, a glob pattern, or a
    list of those; ``blocksize`` (bytes, or ``'64MiB'``; None: a partition per file) cuts plain files
    into partitions.  Every row is read as :func:`irmetrics.read_trec_run` reads it.
    """
    size = None if blocksize is None else parse_size(blocksize, 'blocksize')
    blocks = [block for path in _files(paths) for block in _blocks(path, size)]
    return cast(dd.DataFrame, dd.from_map(read_block, blocks, meta=_frame(_EMPTY), label='read-trec-run',
                                          enforce_metadata=False))


def read_block(block: Block) -> pd.DataFrame:
    """The rows of one block (a partition), as a pandas DataFrame."""
    path, start, end = block
    if compression_of(path) is not None:
        data, _ = load(path)
        assert isinstance(data, bytes)
        return _frame(block_table(data, path, 1, file_start=True, positions=False))
    data, first_line = range_block(path, start, end)
    return _frame(block_table(data, path, first_line, file_start=start == 0, positions=False))


def _files(paths: Any) -> list[str]:
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files: list[str] = []
    for item in [os.fspath(i) for i in items]:
        matched = sorted(glob.glob(item)) if glob.has_magic(item) else [item]
        if not matched:
            raise InputError('no file matches this pattern', item)
        for path in matched:
            if not os.path.isfile(path):
                raise InputError('no such file' if not os.path.exists(path) else 'is not a file', path)
        files += matched
    if not files:
        raise InputError('no run file given')
    return files


def _blocks(path: str, size: int | None) -> list[Block]:
    length = os.path.getsize(path)
    if size is None or compression_of(path) is not None or length <= size:
        return [(path, 0, length)]
    return [(path, start, min(start + size, length)) for start in range(0, length, size)]


_EMPTY = pa.table({'query_id': pa.array([], pa.string()), 'doc_id': pa.array([], pa.string()),
                   'score': pa.array([], pa.float64())})


def _frame(table: pa.Table) -> pd.DataFrame:
    """A block's table as pandas: plain Arrow-backed strings (the query ids' dictionary decoded)."""
    query_id = table.column('query_id')
    if pa.types.is_dictionary(query_id.type):
        table = table.set_column(0, 'query_id', query_id.cast(query_id.type.value_type))
    return table.select(['query_id', 'doc_id', 'score']).to_pandas()
