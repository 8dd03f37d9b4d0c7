"""Every supported input becomes a columnar :class:`Qrels` or :class:`Run`, once.

Accepted for both: a path to a TREC file (plain, ``.gz``, ``.bz2``, ``.xz``) or raw TREC text, a
Parquet file (a path ending in ``.parquet``) or a directory of Parquet files, an already converted
object, a pandas DataFrame, an Arrow table or a polars DataFrame (columns named as in
:mod:`.columns`), a dict of dicts (``{query_id: {doc_id: relevance_or_score}}``), or an iterable of
named tuples or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
ir_datasets' record types among them).  Arrow, polars and Parquet inputs are read by
:mod:`.tables` and :mod:`.parquet`, imported only then; arrays (a top-k or score matrix, a grade
matrix, dense or scipy.sparse) by :mod:`.arrays`.
"""
from __future__ import annotations

import os
import reprlib
from collections.abc import Iterable
from typing import Any

from ..errors import InputError, warn
from .arrays import is_array, is_array_pair, qrels_from_matrix, run_from_arrays
from .columns import find_columns
from .locate import RowLocator
from .qrels import Qrels
from .ranx_objects import is_ranx, ranx_dict
from .records import Qrel, ScoredDoc
from .run import Run
from .trec.reader import is_text, read_trec_qrels, read_trec_run


def to_qrels(obj: Any, *, duplicates: str = 'error') -> Qrels:
    """Convert any supported qrels input (see the module docstring; a ``ranx.Qrels`` too) to :class:`Qrels`
    (``duplicates``: see :func:`read_trec_qrels`)."""
    if isinstance(obj, Qrels):
        return obj
    if is_array(obj):
        return qrels_from_matrix(obj, duplicates)
    if is_source(obj):
        if is_parquet(obj):
            from .parquet import read_parquet_qrels
            return read_parquet_qrels(obj, duplicates)
        return read_trec_qrels(obj, duplicates=duplicates)
    if is_table(obj):
        from .tables import as_table, kind_name, qrels_from_table
        return qrels_from_table(as_table(obj), f'qrels {kind_name(obj)}', duplicates=duplicates)
    if _is_dataframe(obj):
        cols = _frame_columns(obj, 'qrels')
        return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols.get('iteration'),
                                  source='qrels DataFrame', duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, r = _flatten_dict(obj, 'qrels')
        return Qrels.from_columns(q, d, r, source='qrels dict', duplicates=duplicates)
    if is_ranx(obj):
        return to_qrels(ranx_dict(obj, 'qrels'), duplicates=duplicates)
    q, d, r, it = _rows(obj, Qrel, 'qrels')
    return Qrels.from_columns(q, d, r, it, source='qrels records', duplicates=duplicates)


def to_run(obj: Any, *, duplicates: str = 'error', depth: int | None = None) -> Run:
    """Convert any supported run input (see the module docstring; a ``ranx.Run`` too) to :class:`Run`.

    ``depth``: rankings given as arrays may be ranked only this deep (what the measures read).
    """
    if isinstance(obj, Run):
        return obj
    if is_array(obj) or is_array_pair(obj):
        return run_from_arrays(obj, duplicates, depth)
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
        return Run.from_columns(q, d, s, source='run dict', duplicates=duplicates)
    if is_ranx(obj):
        return to_run(ranx_dict(obj, 'run'), duplicates=duplicates)
    q, d, s = _rows(obj, ScoredDoc, 'run')
    return Run.from_columns(q, d, s, source='run records', duplicates=duplicates)


def run_from_dataframe(frame: Any, duplicates: str = 'error', where: RowLocator | None = None) -> Run:
    """A run of a pandas DataFrame (columns named as in :mod:`.columns`); ``where`` locates its rows
    for messages (by default row ``i`` is item ``i + 1``)."""
    cols = _frame_columns(frame, 'run')
    return Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source='run DataFrame',
                            duplicates=duplicates, where=where)


def is_source(obj: Any) -> bool:
    """A path, raw text or bytes (not an object holding the rows)."""
    return isinstance(obj, (str, bytes, os.PathLike))


def is_parquet(source: Any) -> bool:
    """A path ending in ``.parquet`` (any case), or a directory (of Parquet files)."""
    if isinstance(source, bytes) or is_text(source):
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


def _frame_columns(frame: Any, kind: str) -> dict[str, Any]:
    """The columns of a pandas DataFrame, by canonical name (see :mod:`.columns`), as arrays
    (:func:`frame_column`); the ids and numbers are checked when the qrels or run is built."""
    return {canonical: frame_column(frame[name])
            for canonical, name in find_columns(frame.columns, kind, f'{kind} DataFrame').items()}


def frame_column(series: Any) -> Any:
    """A pandas column's values: the Arrow array of an Arrow-backed column (no copy through Python
    objects), else a numpy array."""
    to_arrow = getattr(getattr(series, 'array', None), '__arrow_array__', None)
    if to_arrow is not None and series.dtype.kind not in 'iufb':
        return to_arrow()
    return series.to_numpy()


def _flatten_dict(obj: dict[Any, Any], kind: str) -> tuple[list[Any], list[Any], list[Any]]:
    q: list[Any] = []
    d: list[Any] = []
    v: list[Any] = []
    for qid, docs in obj.items():
        if not isinstance(docs, dict):
            raise InputError(f'must map query ids to dicts of {{doc_id: value}}; query {qid!r} maps to '
                             f'{type(docs).__name__}', f'{kind} dict')
        q.extend([qid] * len(docs))
        d.extend(docs.keys())
        v.extend(docs.values())
    empty = [qid for qid, docs in obj.items() if not docs]
    if empty:
        what = 'retrieves no document: it scores 0' if kind == 'run' else 'has no judgment: it is not evaluated'
        warn(f'{len(empty)} quer{"y" if len(empty) == 1 else "ies"} of the {kind} dict '
             f'({", ".join(map(repr, empty[:5]))}{", ..." if len(empty) > 5 else ""}) {what}')
    return q, d, v


def _rows(obj: Iterable[Any], record: Any, kind: str) -> list[list[Any]]:
    """Columns of an iterable of records: named tuples by field name when the first item has the
    fields (then every item must have them), else tuples by position."""
    try:
        items = list(obj)
    except TypeError:
        raise InputError(f'cannot read {kind} from {type(obj).__name__}: expected a path, raw text, a '
                         f'DataFrame, a dict of dicts or an iterable of {record.__name__} records') from None
    fields, defaults = record._fields, record._field_defaults
    required = [f for f in fields if f not in defaults]
    by_name = bool(items) and all(hasattr(items[0], f) for f in required)

    def is_record(item: Any) -> bool:
        if by_name:
            return all(hasattr(item, f) for f in required)
        return isinstance(item, (tuple, list)) and len(required) <= len(item) <= len(fields)

    bad = next((i for i, item in enumerate(items) if not is_record(item)), None)
    if bad is not None:
        raise InputError(f'item {bad + 1} is not a record of ({", ".join(fields)}): {reprlib.repr(items[bad])}',
                         f'{kind} records')
    if by_name:
        return [[getattr(item, f, defaults.get(f)) for item in items] for f in fields]
    return [[item[i] if i < len(item) else defaults[f] for item in items] for i, f in enumerate(fields)]
