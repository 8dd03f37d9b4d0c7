"""Every supported input becomes a columnar :class:`Qrels` or :class:`Run`, once.

Accepted for both: a path (plain, ``.gz``, ``.bz2``, ``.xz``) or raw TREC text,
an already converted object, a pandas DataFrame, a dict of dicts
(``{query_id: {doc_id: relevance_or_score}}``), or an iterable of named tuples
or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
ir_datasets' record types among them).
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InputError, warn
from . import ids
from .ids import Ids
from .qrels import Qrels
from .ranx_objects import is_ranx, ranx_dict
from .records import Qrel, ScoredDoc
from .run import Run
from .trec.reader import read_trec_qrels, read_trec_run


def to_qrels(obj: Any, duplicates: str = 'error') -> Qrels:
    """Convert any supported qrels input (see the module docstring; a ``ranx.Qrels`` too) to :class:`Qrels`
    (``duplicates``: see :func:`read_trec_qrels`)."""
    if isinstance(obj, Qrels):
        return obj
    if _is_source(obj):
        return read_trec_qrels(obj, duplicates)
    if _is_dataframe(obj):
        cols = _frame_columns(obj, Qrel._fields, optional=('iteration',), kind='qrels')
        return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols.get('iteration'),
                                  source='qrels DataFrame', duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, r = _flatten_dict(obj, 'qrels')
        return Qrels.from_columns(q, d, _numbers(r, 'relevance', 'qrels dict'), source='qrels dict',
                                  duplicates=duplicates)
    if is_ranx(obj):
        return to_qrels(ranx_dict(obj, 'qrels'), duplicates)
    rows = _rows(obj, Qrel, 'qrels')
    q, d, r, it = rows
    return Qrels.from_columns(q, d, _numbers(r, 'relevance', 'qrels records'), it, source='qrels records',
                              duplicates=duplicates)


def to_run(obj: Any, duplicates: str = 'error') -> Run:
    """Convert any supported run input (see the module docstring; a ``ranx.Run`` too) to :class:`Run`."""
    if isinstance(obj, Run):
        return obj
    if _is_source(obj):
        return read_trec_run(obj, duplicates=duplicates)
    if _is_dataframe(obj):
        cols = _frame_columns(obj, ScoredDoc._fields, optional=(), kind='run')
        return Run.from_columns(cols['query_id'], cols['doc_id'], _numbers(cols['score'], 'score', 'run DataFrame'),
                                source='run DataFrame', duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, s = _flatten_dict(obj, 'run')
        return Run.from_columns(q, d, _numbers(s, 'score', 'run dict'), source='run dict', duplicates=duplicates)
    if is_ranx(obj):
        return to_run(ranx_dict(obj, 'run'), duplicates)
    q, d, s = _rows(obj, ScoredDoc, 'run')
    return Run.from_columns(q, d, _numbers(s, 'score', 'run records'), source='run records', duplicates=duplicates)


def _is_source(obj: Any) -> bool:
    return isinstance(obj, (str, bytes, os.PathLike))


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


def _frame_columns(frame: Any, fields: tuple[str, ...], optional: tuple[str, ...], kind: str) -> dict[str, Any]:
    missing = [f for f in fields if f not in frame.columns and f not in optional]
    if missing:
        raise InputError(f'{kind} DataFrame lacks column(s) {", ".join(missing)} '
                         f'(has {", ".join(map(str, frame.columns))})')
    out = {}
    for f in fields:
        if f in frame.columns:
            col = frame[f].to_numpy()
            out[f] = ids.column(col) if f in ('query_id', 'doc_id', 'iteration') else col
    return out


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
    empty = [qid for qid, docs in obj.items() if not docs]
    if empty:
        what = 'retrieves no document: it scores 0' if kind == 'run' else 'has no judgment: it is not evaluated'
        warn(f'{len(empty)} quer{"y" if len(empty) == 1 else "ies"} of the {kind} dict '
             f'({", ".join(map(repr, empty[:5]))}{", ..." if len(empty) > 5 else ""}) {what}')
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
