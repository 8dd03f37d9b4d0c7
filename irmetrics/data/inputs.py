"""Every supported input becomes a columnar :class:`Qrels` or :class:`Run`, once.

Accepted for both: a path to a TREC file (plain, ``.gz``, ``.bz2``, ``.xz``) or raw TREC text, a
Parquet file (a path ending in ``.parquet``) or a directory of Parquet files, an already converted
object, a pandas DataFrame, an Arrow table or a polars DataFrame (columns named as in
:mod:`.columns`), a dict of dicts (``{query_id: {doc_id: relevance_or_score}}``), or an iterable of
named tuples or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
ir_datasets' record types among them).  Arrow, polars and Parquet inputs are read by
:mod:`.tables` and :mod:`.parquet`, imported only then.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InputError
from . import ids
from .columns import ID_COLUMNS, find_columns
from .ids import Ids
from .locate import RowLocator
from .qrels import Qrels
from .records import Qrel, ScoredDoc
from .run import Run
from .trec.reader import read_trec_qrels, read_trec_run


def to_qrels(obj: Any, duplicates: str = 'error') -> Qrels:
    """Convert any supported qrels input (see the module docstring) to :class:`Qrels` (``duplicates``:
    see :func:`read_trec_qrels`)."""
    if isinstance(obj, Qrels):
        return obj
    if is_source(obj):
        if is_parquet(obj):
            from .parquet import read_parquet_qrels
            return read_parquet_qrels(obj, duplicates)
        return read_trec_qrels(obj, duplicates)
    if is_table(obj):
        from .tables import as_table, kind_name, qrels_from_table
        return qrels_from_table(as_table(obj), f'qrels {kind_name(obj)}', duplicates=duplicates)
    if _is_dataframe(obj):
        cols = _frame_columns(obj, 'qrels')
        return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols.get('iteration'),
                                  source='qrels DataFrame', duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, r = _flatten_dict(obj, 'qrels')
        return Qrels.from_columns(q, d, _numbers(r, 'relevance', 'qrels dict'), source='qrels dict',
                                  duplicates=duplicates)
    rows = _rows(obj, Qrel, 'qrels')
    q, d, r, it = rows
    return Qrels.from_columns(q, d, _numbers(r, 'relevance', 'qrels records'), it, source='qrels records',
                              duplicates=duplicates)


def to_run(obj: Any, duplicates: str = 'error') -> Run:
    """Convert any supported run input (see the module docstring) to :class:`Run`."""
    if isinstance(obj, Run):
        return obj
    if is_source(obj):
        if is_parquet(obj):
            from .parquet import read_parquet_run
            return read_parquet_run(obj, duplicates)
        return read_trec_run(obj, duplicates=duplicates)
    if is_table(obj):
        from .tables import as_table, kind_name, run_from_table
        return run_from_table(as_table(obj), f'run {kind_name(obj)}', duplicates=duplicates)
    if _is_dataframe(obj):
        return run_from_dataframe(obj, duplicates)
    if isinstance(obj, dict):
        q, d, s = _flatten_dict(obj, 'run')
        return Run.from_columns(q, d, _numbers(s, 'score', 'run dict'), source='run dict', duplicates=duplicates)
    q, d, s = _rows(obj, ScoredDoc, 'run')
    return Run.from_columns(q, d, _numbers(s, 'score', 'run records'), source='run records', duplicates=duplicates)


def run_from_dataframe(frame: Any, duplicates: str = 'error', where: RowLocator | None = None) -> Run:
    """A run of a pandas DataFrame (columns named as in :mod:`.columns`); ``where`` locates its rows
    for messages (by default row ``i`` is item ``i + 1``)."""
    cols = _frame_columns(frame, 'run')
    return Run.from_columns(cols['query_id'], cols['doc_id'], _numbers(cols['score'], 'score', 'run DataFrame'),
                            source='run DataFrame', duplicates=duplicates, where=where)


def is_source(obj: Any) -> bool:
    """A path, raw text or bytes (not an object holding the rows)."""
    return isinstance(obj, (str, bytes, os.PathLike))


def is_parquet(source: Any) -> bool:
    """A path ending in ``.parquet`` (any case), or a directory (of Parquet files)."""
    if isinstance(source, bytes) or (isinstance(source, str) and '\n' in source):
        return False
    path = os.fspath(source)
    return path.lower().endswith('.parquet') or os.path.isdir(path)


def is_table(obj: Any) -> bool:
    """An Arrow ``Table``/``RecordBatch`` or a polars ``DataFrame``/``LazyFrame`` (told by their type's
    module, so that neither library is imported to ask)."""
    kind = type(obj)
    return (kind.__module__.startswith('pyarrow') and kind.__name__ in ('Table', 'RecordBatch')) or \
        (kind.__module__.startswith('polars') and kind.__name__ in ('DataFrame', 'LazyFrame'))


def _is_dataframe(obj: Any) -> bool:
    return hasattr(obj, 'columns') and hasattr(obj, 'itertuples')


def _numbers(values: Any, what: str, source: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64) if what == 'score' else np.asarray(values)
        if arr.dtype == object:
            arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(f'{what} values must be numbers', source) from None
    return arr


def _frame_columns(frame: Any, kind: str) -> dict[str, Any]:
    """The columns of a pandas DataFrame, by canonical name (see :mod:`.columns`)."""
    out = {}
    for canonical, name in find_columns(frame.columns, kind, f'{kind} DataFrame').items():
        column = frame_column(frame[name])
        out[canonical] = ids.column(column) if canonical in ID_COLUMNS else np.asarray(column)
    return out


def frame_column(series: Any) -> Any:
    """A pandas column's values: the Arrow array of an Arrow-backed column (no copy through Python
    objects), else a numpy array."""
    to_arrow = getattr(getattr(series, 'array', None), '__arrow_array__', None)
    if to_arrow is not None and series.dtype.kind not in 'iufb':
        return to_arrow()
    return series.to_numpy()


def _flatten_dict(obj: dict[Any, Any], kind: str) -> tuple[Ids, Ids, list[Any]]:
    q: list[Any] = []
    d: list[Any] = []
    v: list[Any] = []
    for qid, docs in obj.items():
        if not isinstance(docs, dict):
            raise InputError(f'{kind} dict must map query ids to dicts of {{doc_id: value}}; '
                             f'query {qid!r} maps to {type(docs).__name__}')
        q.extend([qid] * len(docs))
        d.extend(docs.keys())
        v.extend(docs.values())
    return ids.column(q), ids.column(d), v


def _rows(obj: Iterable[Any], record: Any, kind: str) -> list[Any]:
    """Columns of an iterable of records (named tuples by field name, else tuples by position)."""
    try:
        items = list(obj)
    except TypeError:
        raise InputError(f'cannot read {kind} from {type(obj).__name__}: expected a path, raw text, a '
                         f'DataFrame, a dict of dicts or an iterable of {record.__name__} records') from None
    fields = record._fields
    cols: list[list[Any]]
    if not items:
        cols = [[] for _ in fields]
    elif all(hasattr(items[0], f) for f in fields if f not in record._field_defaults):
        cols = [[getattr(r, f) for r in items] if hasattr(items[0], f)
                else [record._field_defaults[f]] * len(items) for f in fields]
    else:
        width = len(fields) - len(record._field_defaults)
        bad = next((i for i, r in enumerate(items) if not isinstance(r, (tuple, list)) or
                    not width <= len(r) <= len(fields)), None)
        if bad is not None:
            raise InputError(f'{kind} item {bad + 1} is not a record of ({", ".join(fields)}): {items[bad]!r}')
        defaults = record._field_defaults
        cols = [[r[i] if i < len(r) else defaults[f] for r in items] for i, f in enumerate(fields)]
    out = []
    for f, col in zip(fields, cols, strict=True):
        out.append(ids.column(col) if f in ('query_id', 'doc_id', 'iteration') else col)
    return out
