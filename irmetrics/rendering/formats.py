"""The formats every result renders to, named once: ``render(format)`` of every result and ``-f FORMAT`` of every
command take these names.

``table`` (aligned columns), ``markdown``, ``latex`` and ``html`` are read by people: they round to 4 decimals
by default and carry the notes and warnings beside the numbers; ``tsv``, ``csv``, ``json`` and ``jsonl`` are
read by programs: every column, every digit by default in CSV and JSON.
"""
from __future__ import annotations

from ..errors import OptionError

FORMATS = ('table', 'tsv', 'csv', 'json', 'jsonl', 'markdown', 'latex', 'html')
#: The formats read by people (the others are read by programs).
READ_BY_PEOPLE = ('table', 'markdown', 'latex', 'html')


def checked_format(format: str) -> str:
    """``format`` when it is one of :data:`FORMATS`, else one :class:`~irmetrics.errors.OptionError`."""
    if format not in FORMATS:
        raise OptionError(f'unknown format {format!r}: one of {", ".join(FORMATS)}')
    return format
