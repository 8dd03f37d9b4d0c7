"""The formats every result renders to, named once: ``render(format)`` of every result and ``-f FORMAT`` of every
command take these names.

``table`` (aligned columns), ``markdown``, ``latex`` and ``html`` are read by people: they round to 4 decimals
by default and carry the notes and warnings beside the numbers; ``tsv``, ``csv``, ``json`` and ``jsonl`` are
read by programs: every column, every digit by default in CSV and JSON.  A text cell of CSV and TSV (a run
name, a query id) is written so that a spreadsheet shows it as text (:func:`text_cell`).
"""
from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Sequence

from ..errors import OptionError

FORMATS = ('table', 'tsv', 'csv', 'json', 'jsonl', 'markdown', 'latex', 'html')
#: The formats read by people (the others are read by programs).
READ_BY_PEOPLE = ('table', 'markdown', 'latex', 'html')
#: The most decimal places a value prints with (17 digits show every digit a double holds below 10; -1 prints
#: every digit of any value, as Python's repr)
MAX_PLACES = 17
#: how a spreadsheet's formula may start (OWASP's list for CSV injection)
_FORMULA_START = ('=', '+', '-', '@', '\t', '\r')
_NUMBER = re.compile(r'[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?')


def checked_format(format: str) -> str:
    """``format`` when it is one of :data:`FORMATS`, else one :class:`~irmetrics.errors.OptionError`."""
    if format not in FORMATS:
        raise OptionError(f'unknown format {format!r}: one of {", ".join(FORMATS)}')
    return format


def checked_places(places: int | None) -> int | None:
    """``places`` when it is None (the format's default) or an integer from -1 (every digit) to
    :data:`MAX_PLACES`, else one :class:`~irmetrics.errors.OptionError`."""
    if places is None:
        return None
    if isinstance(places, bool) or not isinstance(places, numbers.Integral) or not -1 <= places <= MAX_PLACES:
        shown = repr(places) if not isinstance(places, int) or abs(places) < 10 ** 40 else 'a huge integer'
        raise OptionError(f'invalid value {shown} for option \'places\': expected an integer from 0 to {MAX_PLACES} '
                          f'decimal places, or -1 for every digit')
    return int(places)


def text_cell(text: str) -> str:
    """A text cell of CSV or TSV (a run name, a query id, a column name) that a spreadsheet shows as text:
    one that starts as a formula may (``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a single
    quote before it, as OWASP's guidance on CSV injection says, unless it is a number (``-1``, ``-0.5``),
    which no spreadsheet reads as a formula.  Number cells are never text cells."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


_TSV_ESCAPES = str.maketrans({'\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r'})


def tsv_field(text: str) -> str:
    """A field of a tab-separated line: a backslash, tab, newline or carriage return inside it (a run
    named by a file name that holds one) written as ``\\\\``, ``\\t``, ``\\n``, ``\\r``, so a row
    keeps its columns."""
    return text.translate(_TSV_ESCAPES)


_CSV_QUOTED = re.compile('[,"\n\r]')


def csv_field(text: str) -> str:
    """A field of a comma-separated line (RFC 4180): one holding a comma, a double quote, a newline or a
    carriage return in double quotes, its double quotes doubled.  (Python's csv module leaves a lone carriage
    return unquoted when lines end with a newline, and a reader then ends the row there.)"""
    return '"' + text.replace('"', '""') + '"' if _CSV_QUOTED.search(text) else text


def delimited(rows: Iterable[Sequence[str]], fmt: str) -> str:
    """Rows of cells already written as text, as TSV (fields by :func:`tsv_field`) or CSV (fields by
    :func:`csv_field`), a line each."""
    field = tsv_field if fmt == 'tsv' else csv_field
    return ''.join(('\t' if fmt == 'tsv' else ',').join(map(field, row)) + '\n' for row in rows)
