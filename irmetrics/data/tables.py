"""Arrow tables (and polars DataFrames, Parquet files) as qrels and runs, column by column.

No value goes through a Python object: id columns go into the Arrow id layout as they are
(strings, dictionary-encoded strings; integers and floats become their text, as in DataFrames),
numeric columns become numpy views of the Arrow buffers.  Column names are those of
:mod:`.columns`; a missing column, a column of the wrong type or a missing value is an
:class:`InputError` naming the column.  Imported only when such an input arrives (it imports pyarrow).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputError
from . import ids
from .arrow_arrays import arrow_array, numbers
from .columns import find_columns
from .ids import Ids
from .locate import RowLocator
from .qrels import Qrels
from .run import Run


def as_table(obj: Any) -> pa.Table:
    """An Arrow table of an Arrow ``Table`` or ``RecordBatch``, or of a polars ``DataFrame`` or
    ``LazyFrame`` (polars' ``to_arrow`` shares its buffers)."""
    if type(obj).__module__.startswith('polars'):
        if hasattr(obj, 'collect'):
            obj = obj.collect()
        obj = obj.to_arrow()
    if isinstance(obj, pa.RecordBatch):
        obj = pa.Table.from_batches([obj])
    return obj


def kind_name(obj: Any) -> str:
    """How a message names a tabular input: 'Arrow table' or 'polars DataFrame'."""
    return 'polars DataFrame' if type(obj).__module__.startswith('polars') else 'Arrow table'


def canonical_table(table: pa.Table, kind: str, what: str, source: str | None = None) -> pa.Table:
    """The columns of ``kind`` ('run' or 'qrels') under their canonical names, others dropped."""
    names = find_columns(table.column_names, kind, what, source)
    return pa.table({canonical: table.column(name) for canonical, name in names.items()})


def run_from_table(table: pa.Table, what: str, source: str | None = None, duplicates: str = 'error',
                   where: RowLocator | None = None) -> Run:
    """A :class:`Run` of an Arrow table with run columns (see :mod:`.columns`)."""
    named = canonical_table(table, 'run', what, source)
    label = source or what
    where = where or RowLocator(label)
    return Run.from_columns(id_column(named, 'query_id', where), id_column(named, 'doc_id', where),
                            number_column(named, 'score', where), source=label,
                            duplicates=duplicates, where=where)


def qrels_from_table(table: pa.Table, what: str, source: str | None = None, duplicates: str = 'error') -> Qrels:
    """A :class:`Qrels` of an Arrow table with qrels columns (see :mod:`.columns`)."""
    named = canonical_table(table, 'qrels', what, source)
    label = source or what
    where = RowLocator(label)
    iteration = id_column(named, 'iteration', where) if 'iteration' in named.column_names else None
    return Qrels.from_columns(id_column(named, 'query_id', where), id_column(named, 'doc_id', where),
                              number_column(named, 'relevance', where), iteration,
                              source=label, duplicates=duplicates)


def id_column(table: pa.Table, name: str, where: RowLocator) -> Ids:
    """An id column: strings (plain, large, views or dictionary-encoded), integers or floats; a missing
    or empty id is an error naming the column, the first such row (by ``where``) and how many there are."""
    column = table.column(name)
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)
            or pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        raise InputError(f'column {name} must hold strings or integers, not {_described(column.type)}', where.source)
    _no_missing(column, name, where)
    if pa.types.is_string_view(kind):
        large = column.nbytes >= 2 ** 31 - 1
        column = column.cast(pa.large_string() if large else pa.string())
    return where.ids(column, name)


def number_column(table: pa.Table, name: str, where: RowLocator) -> np.ndarray:
    """A numeric column as numpy (a view where the column is one chunk): integers or floats (grades given
    as floats are checked to be finite by :class:`Qrels`, and kept real-valued where some is not whole)."""
    column = table.column(name)
    if not (pa.types.is_integer(column.type) or pa.types.is_floating(column.type)):
        raise InputError(f'column {name} must hold numbers (integers or floats), not {_described(column.type)}',
                         where.source)
    _no_missing(column, name, where)
    return numbers(column)


def _described(kind: pa.DataType) -> str:
    """A type as a message names it (the three string types of Arrow are all 'string')."""
    plain = kind.value_type if pa.types.is_dictionary(kind) else kind
    if pa.types.is_string(plain) or pa.types.is_large_string(plain) or pa.types.is_string_view(plain):
        return 'string'
    return str(kind)


def _no_missing(column: pa.ChunkedArray, name: str, where: RowLocator) -> None:
    if column.null_count:
        row = pc.index(pc.is_null(column), True).as_py()
        raise where.error(InputError, f'{name} is missing (null){where.such_rows(column.null_count)}', row)



def run_blocks(obj: Any, rows: int, duplicates: str = 'error') -> Iterator[Run] | None:
    """The run of an Arrow table or polars DataFrame as the runs of consecutive blocks of complete
    queries, about ``rows`` rows each, when it has more rows than that and each query's rows are
    together, as a model writes them (in any order within a query); None otherwise.

    Each block is built and evaluated on its own, so memory follows a block, not the table; a faulty
    row is named by its item number in the whole table.
    """
    table = as_table(obj)
    if table.num_rows <= rows:
        return None
    what = f'run {kind_name(obj)}'
    named = canonical_table(table, 'run', what)
    starts = id_column(named, 'query_id', RowLocator(what)).run_starts()   # where each run of one query starts
    if len(ids.column(named.column('query_id').take(arrow_array(starts))).encode()[0]) != len(starts):
        return None                                                      # a query in several places
    cuts = np.searchsorted(starts, np.arange(rows, table.num_rows, rows))
    bounds = np.unique(np.concatenate(([0], starts[cuts[cuts < len(starts)]], [table.num_rows])))

    def blocks() -> Iterator[Run]:
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            where = RowLocator(what, items=lambda lo=lo, hi=hi: np.arange(lo + 1, hi + 1))
            yield run_from_table(named.slice(lo, hi - lo), what, duplicates=duplicates, where=where)
    return blocks()
