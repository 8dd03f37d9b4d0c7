"""Numeric columns of any input (scores, grades), checked once, for :class:`.Qrels` and :class:`.Run`."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from .locate import RowLocator


def column(values: Any, what: str, where: RowLocator) -> np.ndarray:
    """``values``, one number per row, as a 1-D numpy array of booleans, integers or floats.

    Numbers of Python, numpy and pandas are taken as they are (a boolean is 0 or 1); other objects and
    text become floats as numpy converts them (``Decimal('1.5')``, ``'2'``).  Anything else (a value
    that is no number, a list per row, dates, complex numbers) is an error naming ``where``'s source.
    """
    try:
        array = np.asarray(values)
        if array.dtype.kind in 'OUS':
            array = array.astype(np.float64)
    except OverflowError:
        raise where.error(InputError, f'{what} values must be numbers within the range of a float') from None
    except (TypeError, ValueError):
        raise where.error(InputError, f'{what} values must be numbers') from None
    if array.ndim != 1 or array.dtype.kind not in 'biuf':
        shape = f'{array.ndim}-dimensional ' if array.ndim != 1 else ''
        raise where.error(InputError, f'{what} values must be numbers, one per row (got {shape}{array.dtype})')
    return array
