"""Two rankings given by the user, as columns: the common input of the rank correlations and of RBO.

A ranking is given either as a mapping ``{item: value}`` (a system ranking: ``{system: mean AP}``,
higher value = better, equal values are tied) or as a sequence of items, best first (a document
ranking: position = rank, no ties).  :func:`ranking` turns either into a :class:`Ranking` (item ids
and a value per item, higher = better); :func:`paired` keeps the items two rankings share, for the
coefficients that pair items (Kendall's tau, tau_AP), and says what it left out.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, warn

#: The fewest common items a rank correlation is reported for: two items have one pair, whose
#: coefficient is +1, -1 (or undefined for a tie) whatever the rankings, so it says nothing.
FEWEST_ITEMS = 3


@dataclass(frozen=True)
class Ranking:
    """Items (``ids``, text) with a value each (``values``, higher = ranked better)."""

    ids: tuple[str, ...]
    values: np.ndarray


def ranking(given: Any, name: str) -> Ranking:
    """``given`` (a mapping ``{item: value}`` or a sequence of items, best first) as a :class:`Ranking`;
    an :class:`~irmetrics.InputError` naming the argument ``name`` for anything else, a repeated item,
    or a value that is not a finite number."""
    if isinstance(given, Mapping):
        ids, array = tuple(str(k) for k in given), _scores(given, name)
    elif isinstance(given, (str, bytes)) or not isinstance(given, (Sequence, np.ndarray)):
        raise InputError(f'{name}: expected a mapping {{item: value}} (higher = better) or a sequence of items, '
                         f'best first; got {type(given).__name__}')
    else:
        floats = next((item for item in given if isinstance(item, (float, np.floating))), None)
        if floats is not None:
            raise InputError(f'{name}: a sequence is a ranking of items, best first, and {floats!r} is a score: give '
                             f'scores as a mapping {{item: score}}')
        ids = tuple(str(item) for item in given)
        array = -np.arange(len(ids), dtype=np.float64)           # position = rank: the first is the best
    if len(set(ids)) < len(ids):
        twice = next(i for k, i in enumerate(ids) if i in ids[:k])
        raise InputError(f'{name}: item {twice!r} occurs twice; a ranking holds each item once')
    if not ids:
        raise InputError(f'{name}: the ranking is empty')
    return Ranking(ids, array)


def _scores(given: Mapping[Any, Any], name: str) -> np.ndarray:
    """The values of the mapping ``given`` (``{item: value}``), each a finite number."""
    values = []
    for key, value in given.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise InputError(f'{name}: the value of {key!r} is {value!r}; expected a finite number '
                             f'(a mapping {{item: value}}, higher = better)')
        values.append(float(value))
    return np.asarray(values, dtype=np.float64)


def paired(a: Any, b: Any, names: tuple[str, str] = ('a', 'b')) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The items ``a`` and ``b`` share (in ``a``'s order) and their values in each; an error when they
    share none, a warning naming how many items of each were left out."""
    ra, rb = ranking(a, names[0]), ranking(b, names[1])
    where_b = {item: i for i, item in enumerate(rb.ids)}
    in_a = np.array([i for i, item in enumerate(ra.ids) if item in where_b], dtype=np.int64)
    if in_a.size == 0:
        raise InputError(f'{names[0]} and {names[1]} have no item in common: a rank correlation compares the '
                         f'order of the same items (rbo compares rankings of different items)')
    common = tuple(ra.ids[i] for i in in_a)
    in_b = np.array([where_b[item] for item in common], dtype=np.int64)
    only_a, only_b = len(ra.ids) - len(common), len(rb.ids) - len(common)
    if only_a or only_b:
        warn(f'{names[0]} and {names[1]} share {len(common)} items: {only_a} only in {names[0]} and {only_b} only '
             f'in {names[1]} are left out of the correlation (rbo counts them)')
    return common, ra.values[in_a], rb.values[in_b]


def enough(n: int, what: str) -> bool:
    """Whether ``n`` common items are enough for ``what``; warns (the caller reports NaN) when not."""
    if n >= FEWEST_ITEMS:
        return True
    warn(f'{what} of {n} item{"s" if n != 1 else ""} is NaN: a rank correlation needs {FEWEST_ITEMS} items or more '
         f'(with two, it is +1 or -1 whatever the rankings)')
    return False
