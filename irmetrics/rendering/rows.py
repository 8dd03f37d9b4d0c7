"""A table of plain values (text, integers, floats, yes/no) in the command line's formats: an aligned
table, TSV, CSV, JSON (a list of objects, numbers unrounded) and Markdown."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .evaluation import tsv_field
from .markup import markdown_escape, markdown_table
from .text import text_table

ROW_FORMATS = ('table', 'tsv', 'csv', 'json', 'markdown')


def cell_text(value: Any, places: int) -> str:
    """A value as text: floats with ``places`` decimals (``nan`` when undefined), booleans as yes/no."""
    if isinstance(value, bool):
        return 'yes' if value else 'no'
    if isinstance(value, float):
        return 'nan' if math.isnan(value) else f'{value:.{places}f}'
    return str(value)


def render_rows(header: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int = 4,
                numeric_from: int = 1) -> str:
    """``rows`` under ``header`` in ``fmt`` (:data:`ROW_FORMATS`); the columns from ``numeric_from`` on
    are right-aligned in the table and Markdown."""
    if fmt == 'json':
        import json
        return json.dumps([{h: _json(v) for h, v in zip(header, row, strict=True)} for row in rows], indent=2) + '\n'
    cells = [[cell_text(v, places) for v in row] for row in rows]
    if fmt == 'table':
        return text_table(header, cells, numeric_from=numeric_from)
    if fmt == 'markdown':
        return markdown_table([markdown_escape(h) for h in header], [[markdown_escape(c) for c in r] for r in cells],
                              numeric_from)
    if fmt == 'csv':
        import csv
        import io
        out = io.StringIO()
        writer = csv.writer(out, lineterminator='\n')
        writer.writerow(header)
        writer.writerows([[repr(float(v)) if isinstance(v, float) else c for v, c in zip(row, text, strict=True)]
                          for row, text in zip(rows, cells, strict=True)])
        return out.getvalue()
    return ''.join('\t'.join(map(tsv_field, row)) + '\n' for row in [list(header), *cells])


def _json(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
