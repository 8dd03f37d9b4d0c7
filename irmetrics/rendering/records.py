"""A table of records (named columns of text and numbers, :class:`Table`) in every format of
:data:`~.formats.FORMATS`: an aligned table, TSV, CSV, JSON, JSON lines, Markdown, a booktabs LaTeX table and a
self-contained HTML page.  The one family of format renderers: the results that are a table of their own
(:mod:`.result`), the aggregates of an evaluation (:class:`~irmetrics.MeasureValues`) and the tables the
formats people read show of an evaluation (:mod:`.evaluation`) all render here.

Numbers print with ``places`` decimals (< 0: every digit); by default (None) with 4 in the formats people read
and with every digit in CSV, JSON and JSON lines.  JSON writes NaN and infinities as null, and yes/no (the
other formats' words for booleans) as true/false.  ``notes`` (what the columns hold) follow the table in the
formats people read (the aligned table, Markdown, LaTeX, HTML), never in the formats programs read.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .formats import checked_format, checked_places, delimited, text_cell
from .markup import html_escape, html_page, html_table, latex_escape, latex_tabular, markdown_escape, markdown_table
from .text import printable, text_table
from .values import json_number, number

__all__ = ['Table', 'render_records', 'render_table']
DEFAULT_PLACES = 4


class Table(NamedTuple):
    """What a result prints: ``columns``, ``rows`` (one value per column: text, int, float, bool or None),
    the first column right-aligned as a number (``numeric_from``), ``notes``: lines saying what the
    columns hold, printed under the table in the formats people read, and the HTML page's ``title``."""

    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    numeric_from: int = 1
    notes: str = ''
    title: str = 'irmetrics'


def _text(value: Any, places: int | None) -> str:
    """A cell as text: None empty, booleans yes and no, integers whole, floats by :func:`.values.number`."""
    if isinstance(value, bool) or value is None:
        return '' if value is None else ('yes' if value else 'no')
    if isinstance(value, float):
        return number(value, places)
    return str(value)


def render_table(table: Table, fmt: str, places: int | None = None) -> str:
    """``table`` in ``fmt`` (see :func:`render_records`)."""
    return render_records(table.columns, table.rows, fmt, places, table.numeric_from, table.notes, table.title)


def render_records(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int | None = None,
                   numeric_from: int = 1, notes: str = '', title: str = 'irmetrics') -> str:
    """``rows`` (one value a column: text, int, float, bool or None) under ``columns`` in ``fmt``, one of
    :data:`FORMATS`; the formats people read right-align the columns from ``numeric_from`` on and put ``notes``
    (lines saying what the columns hold) after the table; ``title`` is the HTML page's."""
    checked_format(fmt)
    places = checked_places(places)
    if places is None:
        places = -1 if fmt in ('csv', 'json', 'jsonl') else DEFAULT_PLACES
    if fmt in ('json', 'jsonl'):
        return _json(columns, rows, fmt, places)
    if fmt in ('csv', 'tsv'):
        return _delimited(columns, rows, fmt, places)
    cells = [[_text(v, places) for v in row] for row in rows]
    if fmt == 'table':
        shown = '\n'.join(map(printable, notes.split('\n')))                 # the names in the notes: shown, not obeyed
        return text_table(list(columns), cells, numeric_from=numeric_from) + shown
    if fmt == 'markdown':
        return _markdown(columns, cells, numeric_from, notes)
    if fmt == 'latex':
        return _latex(columns, cells, numeric_from, notes)
    table = html_table([html_escape(c) for c in columns], [[html_escape(c) for c in row] for row in cells],
                       html_escape(' '.join(notes.split())), set(range(numeric_from, len(columns))))
    return html_page(title, [table])


def _json(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int) -> str:
    """JSON (one array of records) or JSON lines (one record a line)."""
    import json
    records = [{c: json_number(v, places) for c, v in zip(columns, row, strict=True)} for row in rows]
    return json.dumps(records, indent=2) + '\n' if fmt == 'json' else ''.join(json.dumps(r) + '\n' for r in records)


def _markdown(columns: Sequence[str], cells: list[list[str]], numeric_from: int, notes: str) -> str:
    """A Markdown table, the notes as a paragraph under it."""
    table = markdown_table([markdown_escape(c) for c in columns],
                           [[markdown_escape(c) for c in row] for row in cells], numeric_from=numeric_from)
    return table + (f'\n{markdown_escape(" ".join(notes.split()))}\n' if notes.strip() else '')


def _delimited(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int) -> str:
    """CSV or TSV: text cells (the column names among them) as :func:`.formats.text_cell` writes them."""
    lines = [[text_cell(c) for c in columns]]
    lines += [[text_cell(v) if isinstance(v, str) else _text(v, places) for v in row] for row in rows]
    return delimited(lines, fmt)


def _latex(columns: Sequence[str], cells: list[list[str]], numeric_from: int, notes: str) -> str:
    """A booktabs ``tabular``, the notes as a comment and a paragraph under it."""
    align = ''.join('l' if j < numeric_from else 'r' for j in range(len(columns)))
    escaped = [list(map(latex_escape, row)) for row in cells]
    lines = latex_tabular(' & '.join(map(latex_escape, columns)), escaped, align)
    if notes.strip():
        lines += ['', latex_escape(' '.join(notes.split()))]
    return '\n'.join(lines) + '\n'
