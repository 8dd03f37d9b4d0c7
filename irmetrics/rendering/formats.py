"""The formats every result renders to, named once: ``render(format)`` of every result and ``-f FORMAT`` of every
command take these names.

``table`` (aligned columns), ``markdown``, ``latex`` and ``html`` are read by people: they round to 4 decimals
by default and carry the notes and warnings beside the numbers; ``tsv``, ``csv``, ``json`` and ``jsonl`` are
read by programs: every column, every digit by default in CSV and JSON.  A text cell of CSV and TSV (a run
name, a query id) is written so that a spreadsheet shows it as text (:func:`text_cell`).
"""
from __future__ import annotations

import re

from ..errors import OptionError

FORMATS = ('table', 'tsv', 'csv', 'json', 'jsonl', 'markdown', 'latex', 'html')
#: The formats read by people (the others are read by programs).
READ_BY_PEOPLE = ('table', 'markdown', 'latex', 'html')
#: how a spreadsheet's formula may start (OWASP's list for CSV injection)
_FORMULA_START = ('=', '+', '-', '@', '\t', '\r')
_NUMBER = re.compile(r'[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?')


def checked_format(format: str) -> str:
    """``format`` when it is one of :data:`FORMATS`, else one :class:`~irmetrics.errors.OptionError`."""
    if format not in FORMATS:
        raise OptionError(f'unknown format {format!r}: one of {", ".join(FORMATS)}')
    return format


def text_cell(text: str) -> str:
    """A text cell of CSV or TSV (a run name, a query id, a column name) that a spreadsheet shows as text:
    one that starts as a formula may (``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a single
    quote before it, as OWASP's guidance on CSV injection says, unless it is a number (``-1``, ``-0.5``),
    which no spreadsheet reads as a formula.  Number cells are never text cells."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text
