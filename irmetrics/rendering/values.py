"""How a number prints: the one rule every format and every result follows.

:func:`number` writes every number irmetrics prints with a fixed count of decimals (or every digit), and
:func:`json_number` every number a JSON document holds; :func:`format_value` and :func:`json_value` add the
one rule of a measure's value (a count prints as an integer).
"""
from __future__ import annotations

import math
from typing import Any


def number(value: float, places: int | None = None, *, sign: str = '', missing: str = 'nan') -> str:
    """``value`` with ``places`` decimals, or every digit (Python's shortest repr) when ``places`` is None or < 0;
    ``sign`` '+' writes the sign of a positive value too; NaN as ``missing``.  A value that rounds to zero prints
    as zero, never as ``-0.0000`` (a residue of floating point, or a negative zero, has no sign worth printing)."""
    if value != value:
        return missing
    if places is None or places < 0:
        return f'{float(value):{sign}}'
    return f'{value + 0.0 if round(value, places) else 0.0:{sign}.{places}f}'


def json_number(value: Any, places: int | None) -> Any:
    """A float as a JSON number: None for NaN or infinity, rounded only when ``places`` is given (>= 0); any
    other value (an int, a bool, text) as it is."""
    if not isinstance(value, float):
        return value
    if math.isnan(value) or math.isinf(value):
        return None
    return round(float(value), places) if places is not None and places >= 0 else float(value)


def _is_count(measure: Any, value: float) -> bool:
    """A value of a measure summed over queries (a count) that is a whole number: it prints as an integer."""
    return measure.definition.aggregate == 'sum' and float(value).is_integer()


def format_value(measure: Any, value: float, places: int | None = 4) -> str:
    """A measure's value as text: counts as integers, others by :func:`number`."""
    if value == value and _is_count(measure, value):
        return str(int(value))
    return number(value, places)


def json_value(measure: Any, value: float, places: int | None) -> Any:
    """A measure's value as a JSON number (:func:`json_number`); counts as integers."""
    if value == value and not math.isinf(value) and _is_count(measure, value):
        return int(value)
    return json_number(float(value), places)
