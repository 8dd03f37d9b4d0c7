"""Every supported input becomes a columnar :class:`Qrels` or :class:`Run`, once.

Accepted for both: a path (plain, ``.gz``, ``.bz2``, ``.xz``) or raw TREC text,
an already converted object, a pandas DataFrame, a dict of dicts
(``{query_id: {doc_id: relevance_or_score}}``), or an iterable of named tuples
or plain tuples in ``Qrel`` / ``ScoredDoc`` field order (ir_measures' and
ir_datasets' record types among them).
"""
from __future__ import annotations

import os
import reprlib
from collections.abc import Iterable
from typing import Any

from ..errors import InputError, warn
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
        cols = _frame_columns(obj, Qrel._fields, optional=('iteration',), source='qrels DataFrame')
        return Qrels.from_columns(cols['query_id'], cols['doc_id'], cols['relevance'], cols.get('iteration'),
                                  source='qrels DataFrame', duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, r = _flatten_dict(obj, 'qrels')
        return Qrels.from_columns(q, d, r, source='qrels dict', duplicates=duplicates)
    if is_ranx(obj):
        return to_qrels(ranx_dict(obj, 'qrels'), duplicates)
    q, d, r, it = _rows(obj, Qrel, 'qrels')
    return Qrels.from_columns(q, d, r, it, source='qrels records', duplicates=duplicates)


def to_run(obj: Any, duplicates: str = 'error') -> Run:
    """Convert any supported run input (see the module docstring; a ``ranx.Run`` too) to :class:`Run`."""
    if isinstance(obj, Run):
        return obj
    if _is_source(obj):
        return read_trec_run(obj, duplicates=duplicates)
    if _is_dataframe(obj):
        cols = _frame_columns(obj, ScoredDoc._fields, optional=(), source='run DataFrame')
        return Run.from_columns(cols['query_id'], cols['doc_id'], cols['score'], source='run DataFrame',
                                duplicates=duplicates)
    if isinstance(obj, dict):
        q, d, s = _flatten_dict(obj, 'run')
        return Run.from_columns(q, d, s, source='run dict', duplicates=duplicates)
    if is_ranx(obj):
        return to_run(ranx_dict(obj, 'run'), duplicates)
    q, d, s = _rows(obj, ScoredDoc, 'run')
    return Run.from_columns(q, d, s, source='run records', duplicates=duplicates)


def _is_source(obj: Any) -> bool:
    return isinstance(obj, (str, bytes, os.PathLike))


def _is_dataframe(obj: Any) -> bool:
    return hasattr(obj, 'columns') and hasattr(obj, 'itertuples')


def _frame_columns(frame: Any, fields: tuple[str, ...], optional: tuple[str, ...], source: str) -> dict[str, Any]:
    missing = [f for f in fields if f not in frame.columns and f not in optional]
    if missing:
        raise InputError(f'lacks column(s) {", ".join(missing)} (has {", ".join(map(str, frame.columns))})', source)
    return {f: frame[f].to_numpy() for f in fields if f in frame.columns}


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
