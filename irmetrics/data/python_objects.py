"""Qrels and runs held in Python objects: pandas DataFrames, dicts of dicts, and iterables of records.

* A pandas DataFrame has the columns named as in :mod:`.columns` (PyTerrier's names too); its columns
  go into :class:`Qrels` / :class:`Run` as arrays, Arrow-backed columns without a copy through Python objects.
* A dict of dicts maps query ids to ``{doc_id: relevance_or_score}``.
* Records are named tuples or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
  ir_datasets' record types among them).
"""
from __future__ import annotations

import reprlib
from collections.abc import Iterable
from typing import Any

from ..errors import InputError, warn
from .columns import find_columns
from .locate import RowLocator
from .qrels import Qrels
from .records import Qrel, ScoredDoc
from .run import Run


def is_dataframe(obj: Any) -> bool:
    """A pandas DataFrame (or one that acts like it: named columns and ``itertuples``), told without
    importing pandas."""
    return hasattr(obj, 'columns') and hasattr(obj, 'itertuples')


def qrels_from_dataframe(frame: Any, duplicates: str = 'error') -> Qrels:
    """Qrels of a pandas DataFrame (columns named as in :mod:`.columns`)."""
    cols = _frame_columns(frame, 'qrels')
    return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols.get('iteration'),
                              source='qrels DataFrame', duplicates=duplicates)


def run_from_dataframe(frame: Any, duplicates: str = 'error', where: RowLocator | None = None) -> Run:
    """A run of a pandas DataFrame (columns named as in :mod:`.columns`); ``where`` locates its rows
    for messages (by default row ``i`` is item ``i + 1``)."""
    cols = _frame_columns(frame, 'run')
    return Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source='run DataFrame',
                            duplicates=duplicates, where=where)


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


def qrels_from_dict(obj: dict[Any, Any], duplicates: str = 'error') -> Qrels:
    """Qrels of a dict of dicts ``{query_id: {doc_id: relevance}}``."""
    q, d, r = _flatten_dict(obj, 'qrels')
    return Qrels.from_columns(q, d, r, source='qrels dict', duplicates=duplicates)


def run_from_dict(obj: dict[Any, Any], duplicates: str = 'error') -> Run:
    """A run of a dict of dicts ``{query_id: {doc_id: score}}``."""
    q, d, s = _flatten_dict(obj, 'run')
    return Run.from_columns(q, d, s, source='run dict', duplicates=duplicates)


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


def qrels_from_records(obj: Iterable[Any], duplicates: str = 'error') -> Qrels:
    """Qrels of an iterable of ``Qrel`` records (named tuples, or tuples in field order)."""
    q, d, r, it = _rows(obj, Qrel, 'qrels')
    return Qrels.from_columns(q, d, r, it, source='qrels records', duplicates=duplicates)


def run_from_records(obj: Iterable[Any], duplicates: str = 'error') -> Run:
    """A run of an iterable of ``ScoredDoc`` records (named tuples, or tuples in field order)."""
    q, d, s = _rows(obj, ScoredDoc, 'run')
    return Run.from_columns(q, d, s, source='run records', duplicates=duplicates)


def _rows(obj: Iterable[Any], record: Any, kind: str) -> list[list[Any]]:
    """Columns of an iterable of records: named tuples by field name when the first item has the
    fields (then every item must have them), else tuples by position."""
    items = list(obj)
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
