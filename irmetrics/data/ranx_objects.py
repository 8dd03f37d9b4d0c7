"""ranx's ``Qrels`` and ``Run`` objects as inputs, told by their type's module so that ranx is never imported.

Both hold a dict of dicts (``{query_id: {doc_id: relevance_or_score}}``) in numba's typed dicts;
``to_dict()`` gives it as Python dicts, which :mod:`.inputs` reads as any dict of dicts.
"""
from __future__ import annotations

from typing import Any

from ..errors import InputError

_KINDS = {'Qrels': 'qrels', 'Run': 'run'}


def is_ranx(obj: Any) -> bool:
    """A ``ranx.Qrels`` or ``ranx.Run``."""
    kind = type(obj)
    return kind.__module__.partition('.')[0] == 'ranx' and kind.__name__ in _KINDS


def ranx_dict(obj: Any, kind: str) -> dict[str, dict[str, Any]]:
    """The dict of dicts of a ranx object, which must be of ``kind`` (``'qrels'`` or ``'run'``)."""
    found = _KINDS[type(obj).__name__]
    if found != kind:
        expected = 'qrels are' if kind == 'qrels' else 'a run is'
        raise InputError(f'a ranx {type(obj).__name__} was given where {expected} expected')
    as_dict: dict[str, dict[str, Any]] = obj.to_dict()
    return as_dict
