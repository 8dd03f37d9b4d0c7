"""A table of records (named columns of text and numbers) in the formats of the command line: an aligned
table, TSV, CSV, JSON and Markdown.  For results that are a table of their own (the checks of
:mod:`irmetrics.trust`), where :mod:`.evaluation` renders the results of runs.

Numbers print with ``places`` decimals (< 0: every digit); by default (None) with 4 in the table, TSV and
Markdown and with every digit in CSV and JSON.  JSON writes NaN and infinities as null, and yes/no (the
other formats' words for booleans) as true/false.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .evaluation import tsv_field
from .markup import markdown_escape, markdown_table
from .text import text_table

FORMATS = ('table', 'tsv', 'csv', 'json', 'markdown')
DEFAULT_PLACES = 4


def _text(value: Any, places: int | None) -> str:
    if isinstance(value, bool) or value is None:
        return '' if value is None else ('yes' if value else 'no')
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        if places is None or places < 0:
            return repr(float(value))
        return f'{value + 0.0 if round(value, places) else 0.0:.{places}f}'     # never "-0.0000" for a residue
    return str(value)


def _json(value: Any, places: int | None) -> Any:
    if isinstance(value, float) and not isinstance(value, bool):
        if math.isnan(value) or math.isinf(value):
            return None
        return round(float(value), places) if places is not None and places >= 0 else float(value)
    return value


def render_records(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int | None = None,
                   numeric_from: int = 1, legend: str = '') -> str:
    """``rows`` (one value a column: text, int, float, bool or None) under ``columns`` in ``fmt``, one of
    :data:`FORMATS`; the table and Markdown right-align the columns from ``numeric_from`` on, and the
    aligned table has ``legend`` (lines saying what the columns hold) under it."""
    if places is None:
        places = -1 if fmt in ('csv', 'json') else DEFAULT_PLACES
    if fmt == 'json':
        import json
        return json.dumps([{c: _json(v, places) for c, v in zip(columns, row, strict=True)} for row in rows],
                          indent=2) + '\n'
    if fmt == 'csv':
        import csv
        import io
        out = io.StringIO()
        writer = csv.writer(out, lineterminator='\n')
        writer.writerow(columns)
        writer.writerows([_text(v, places) for v in row] for row in rows)
        return out.getvalue()
    cells = [[_text(v, places) for v in row] for row in rows]
    if fmt == 'table':
        return text_table(list(columns), cells, numeric_from=numeric_from) + legend
    if fmt == 'markdown':
        return markdown_table([markdown_escape(c) for c in columns],
                              [[markdown_escape(c) for c in row] for row in cells], numeric_from=numeric_from)
    if fmt == 'tsv':
        return ''.join('\t'.join(map(tsv_field, row)) + '\n' for row in [list(columns), *cells])
    raise ValueError(f'unknown format {fmt!r}: one of {", ".join(FORMATS)}')
