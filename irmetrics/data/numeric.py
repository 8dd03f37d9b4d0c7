"""Numeric columns of any input (scores, grades), checked once, for :class:`.Qrels` and :class:`.Run`."""
from __future__ import annotations

import reprlib
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InputError
from .locate import RowLocator


def column(values: Any, what: str, where: RowLocator) -> np.ndarray:
    """``values``, one number per row, as a 1-D numpy array of booleans, integers or floats.

    Numbers of Python, numpy and pandas are taken as they are (a boolean is 0 or 1); other objects and
    text become floats as ``float()`` converts them (``Decimal('1.5')``, ``'2'``).  Anything else (a value
    that is no number, a list in a row, a column of dates or complex numbers) is an error naming
    ``where``'s source, and the row when one is to blame.
    """
    try:
        array = np.asarray(values)
        if array.dtype.kind in 'OUS':
            array = array.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        array = None
    if array is None or array.ndim != 1:
        row, problem = _first_non_number(values)
        raise where.error(InputError, f'{what} {problem}', row)
    if array.dtype.kind not in 'biuf':
        raise where.error(InputError, f'{what} values must be numbers (got {array.dtype})')
    return array


def _first_non_number(values: Iterable[Any]) -> tuple[int | None, str]:
    """The first row that holds no number, and what is wrong with it."""
    for row, value in enumerate(values):
        if np.ndim(value) != 0:
            return row, f'{reprlib.repr(value)} is not a number'
        try:
            float(value)
        except OverflowError:
            return row, f'{reprlib.repr(value)} is too large for a float'
        except (TypeError, ValueError):
            return row, f'{reprlib.repr(value)} is not a number'
    return None, 'values must be numbers, one per row'
