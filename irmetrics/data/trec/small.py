"""Splitting small canonical TREC text with Python's string methods (no pyarrow import)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...errors import InputError
from .. import ids
from .format import Layout, integers_of_text, numbers_of_text, row_lines


def split(text: bytes, name: str, layout: Layout) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """The columns of canonical ``text`` (every non-empty line has exactly the layout's fields)."""
    try:
        decoded, valid = text.decode('utf-8'), True
    except UnicodeDecodeError:
        decoded, valid = text.decode('utf-8', 'surrogateescape'), False
    rows = [line for line in decoded.split('\n') if line]
    tokens = ' '.join(rows).split(' ') if rows else []
    width = layout.width

    def lines() -> np.ndarray:
        return row_lines(text)

    out: dict[str, object] = {}
    for c in layout.keep:
        values = tokens[layout.names.index(c)::width]
        if c in layout.numbers:
            out[c] = numbers_of_text(values, c, name, lines)
        elif c in layout.integers:
            out[c] = integers_of_text(values, c, name, lines, layout.grades)
        else:
            if not valid:
                _check_utf8(values, name, lines)
            out[c] = ids.column(values)
    return out, lines


def _check_utf8(values: list[str], name: str, lines: Callable[[], np.ndarray]) -> None:
    """Ids decoded with ``surrogateescape`` must hold no undecodable byte (ids hold no space)."""
    joined = ' '.join(values)
    try:
        joined.encode('utf-8')
    except UnicodeEncodeError as ex:
        raise InputError('ids must be valid UTF-8 text', name, int(lines()[joined.count(' ', 0, ex.start)])) from None
