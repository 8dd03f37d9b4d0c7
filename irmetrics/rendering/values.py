"""How a value prints: the one rule every format follows."""
from __future__ import annotations

import math
from typing import Any


def format_value(measure: Any, value: float, places: int | None = 4) -> str:
    """A value as text: counts as integers, others with ``places`` decimals (None or < 0: every digit)."""
    if value != value:
        return 'nan'
    if measure.definition.aggregate == 'sum' and float(value).is_integer():
        return str(int(value))
    if places is None or places < 0:
        return repr(float(value))
    return f'{value:.{places}f}'


def fixed(value: float, places: int, sign: str = '') -> str:
    """``value`` with ``places`` decimals, or every digit (Python's shortest repr) when ``places`` < 0; ``sign``
    '+' writes the sign of a positive value too."""
    return f'{value:{sign}}' if places < 0 else f'{value:{sign}.{places}f}'


def json_value(measure: Any, value: float, places: int | None) -> Any:
    """A value as a JSON number (None for NaN or infinity), rounded only when ``places`` is given;
    counts (summed measures) as integers."""
    if value != value or math.isinf(value):
        return None
    if measure.definition.aggregate == 'sum' and float(value).is_integer():
        return int(value)
    return round(float(value), places) if places is not None and places >= 0 else float(value)
