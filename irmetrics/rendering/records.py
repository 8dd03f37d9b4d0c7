"""A table of records (named columns of text and numbers, :class:`Table`) in every format of
:data:`~.formats.FORMATS`: an aligned table, TSV, CSV, JSON, JSON lines, Markdown, a booktabs LaTeX table and a
self-contained HTML page.  The one family of format renderers: the results that are a table of their own
(:mod:`.result`), the aggregates of an evaluation (:class:`~irmetrics.MeasureValues`) and the tables the
formats people read show of an evaluation (:mod:`.evaluation`) all render here.

Numbers print with ``places`` decimals (< 0: every digit); by default (None) with 4 in the formats people read
and with every digit in CSV, JSON and JSON lines.  JSON writes NaN and infinities as null, and yes/no (the
other formats' words for booleans) as true/false.  ``notes`` (what the columns hold) follow the table in the
formats people read (the aligned table, Markdown, LaTeX, HTML), never in the formats programs read.  A
:class:`Cell` (a bold value, significance letters, a star) is written by each of those formats its own way and
is its text in the others; :func:`render_document` prints several tables with their warnings (a comparison's
report).
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .formats import checked_format, checked_places, delimited, text_cell
from .markup import html_escape, html_page, html_table, latex_escape, latex_tabular, markdown_escape, markdown_table
from .text import printable, text_table
from .values import json_number, number

__all__ = ['Cell', 'Table', 'render_document', 'render_records', 'render_table']
DEFAULT_PLACES = 4
#: Notes given as lines wrap at this many columns in the aligned table.
NOTES_WIDTH = 100


class Cell(NamedTuple):
    """A cell with more than text, each format writing it its own way: ``text`` (in bold where ``bold``: the best
    value of a column), ``marks`` (letters, superscript where the format has it: the runs a value is significantly
    better than), a ``star`` (a significant value) and text ``after`` them (a difference, a p-value)."""

    text: str
    bold: bool = False
    marks: Sequence[str] = ()
    star: bool = False
    after: str = ''


class Table(NamedTuple):
    """What a result prints: ``columns``, ``rows`` (one value per column: text, int, float, bool, None or a
    :class:`Cell`), the first column right-aligned as a number (``numeric_from``), ``notes``: what the
    columns hold, printed under the table in the formats people read (a text, its spaces and line breaks
    squeezed except in the aligned table, or a list of lines, each kept as it is and wrapped under a rule in the
    aligned table), and the HTML page's ``title``.  ``heading`` (HTML) precedes the table; with ``caption``
    (LaTeX source, saying what the notes say) LaTeX writes the table as a float with that caption and ``label``;
    ``latex_header`` (LaTeX source) replaces the column names there where one needs math."""

    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    numeric_from: int = 1
    notes: str | Sequence[str] = ''
    title: str = 'irmetrics'
    heading: str = ''
    caption: str = ''
    label: str = ''
    latex_header: str = ''


class _Style(NamedTuple):
    """How a markup format writes a :class:`Cell`: its escaping, bold and marks (templates) and star."""

    escape: Callable[[str], str]
    bold: str
    marks: str
    star: str


_MARKDOWN = _Style(markdown_escape, '**{}**', '<sup>{}</sup>', '\\*')
_LATEX = _Style(latex_escape, '\\textbf{{{}}}', '$^{{{}}}$', '$^{*}$')
_HTML = _Style(html_escape, '<b>{}</b>', '<sup>{}</sup>', ' *')


def _written(cell: str | Cell, style: _Style) -> str:
    """A cell as ``style`` writes it."""
    if isinstance(cell, str):
        return style.escape(cell)
    text = style.escape(cell.text)
    return ((style.bold.format(text) if cell.bold else text)
            + (style.marks.format(style.escape(','.join(cell.marks))) if cell.marks else '')
            + (style.star if cell.star else '') + style.escape(cell.after))


def _lines(notes: str | Sequence[str]) -> list[str]:
    """The notes as lines: a text one line of its words, lines as they are."""
    if isinstance(notes, str):
        return [' '.join(notes.split())] if notes.strip() else []
    return list(notes)


def _text(value: Any, places: int | None) -> str | Cell:
    """A cell as text: None empty, booleans yes and no, integers whole, floats by :func:`.values.number`; a
    :class:`Cell` as it is (each format writes it)."""
    if isinstance(value, bool) or value is None:
        return '' if value is None else ('yes' if value else 'no')
    if isinstance(value, float):
        return number(value, places)
    return value if isinstance(value, Cell) else str(value)


def _plain(value: Any) -> Any:
    """A :class:`Cell` as the formats programs read hold it, its text (what it adds is for people); any other
    value as it is."""
    return value.text if isinstance(value, Cell) else value


def render_records(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int | None = None,
                   numeric_from: int = 1, notes: str | Sequence[str] = '', title: str = 'irmetrics') -> str:
    """``rows`` (one value a column: text, int, float, bool, None or a :class:`Cell`) under ``columns`` in
    ``fmt``, one of :data:`FORMATS`; the formats people read right-align the columns from ``numeric_from`` on and
    put ``notes`` (what the columns hold) after the table; ``title`` is the HTML page's."""
    return render_table(Table(columns, rows, numeric_from, notes, title), fmt, places)


def render_table(table: Table, fmt: str, places: int | None = None) -> str:
    """``table`` in ``fmt`` (see :func:`render_records`); HTML a page of its own."""
    checked_format(fmt)
    places = checked_places(places)
    if places is None:
        places = -1 if fmt in ('csv', 'json', 'jsonl') else DEFAULT_PLACES
    if fmt in ('json', 'jsonl'):
        return _json(table.columns, table.rows, fmt, places)
    if fmt in ('csv', 'tsv'):
        return _delimited(table.columns, table.rows, fmt, places)
    if fmt == 'html':
        return html_page(table.title, [_read(table, fmt, places)])
    return _read(table, fmt, places)


def render_document(tables: Sequence[Table], fmt: str, places: int | None = None,
                    warnings: Sequence[str] = ()) -> str:
    """``tables`` one after the other in ``fmt``, one of the formats people read, with ``warnings`` (lines): after
    the last table in the aligned table (wrapped) and Markdown (quoted), as comments before the first in LaTeX (for
    the author, not the reader), as a list before the first in HTML.  HTML is the tables' part of a page."""
    places = DEFAULT_PLACES if places is None or places < 0 else places
    shown = [_read(table, fmt, places) for table in tables]
    if fmt == 'table':
        return '\n'.join(shown) + ''.join(_wrapped(line) + '\n' for line in warnings)
    if fmt == 'markdown':
        return '\n'.join(shown + ([''.join(f'> {markdown_escape(line)}\n' for line in warnings)] if warnings else []))
    if fmt == 'latex':
        return '\n'.join(([''.join(f'% {line}\n' for line in warnings)] if warnings else []) + shown)
    items = ''.join(f'<li>{html_escape(line)}</li>' for line in warnings)
    return ''.join(([f'<ul class="warnings">{items}</ul>'] if warnings else []) + shown)


def _read(table: Table, fmt: str, places: int) -> str:
    """``table`` in ``fmt``, one of the formats people read (HTML: its heading and table, no page)."""
    cells = [[_text(v, places) for v in row] for row in table.rows]
    if fmt == 'table':
        return _aligned(table, cells)
    if fmt == 'markdown':
        return _markdown(table.columns, cells, table.numeric_from, _lines(table.notes))
    if fmt == 'latex':
        return _latex(table, cells)
    heading = f'<h2>{html_escape(table.heading)}</h2>' if table.heading else ''
    return heading + html_table(
        [html_escape(c) for c in table.columns], [[_written(c, _HTML) for c in row] for row in cells],
        ' '.join(map(html_escape, _lines(table.notes))), set(range(table.numeric_from, len(table.columns))))


def _wrapped(line: str) -> str:
    """A line of notes wrapped at :data:`NOTES_WIDTH`, its names shown, not obeyed."""
    return textwrap.fill(printable(line), NOTES_WIDTH, subsequent_indent='  ')


def _aligned(table: Table, cells: list[list[str | Cell]]) -> str:
    """The aligned table: a :class:`Cell`'s marks after its text, padded to the longest of the column (its
    letters line up); notes as a text under it as they are, notes as lines wrapped under a rule."""
    marks = [max((len(','.join(c.marks)) for row in cells if isinstance(c := row[j], Cell)), default=0)
             for j in range(len(table.columns))]
    texts = [[c if isinstance(c, str) else
              c.text + (' ' + ','.join(c.marks).ljust(w) if w else '') + (' *' if c.star else '') + c.after
              for c, w in zip(row, marks, strict=True)] for row in cells]
    shown = text_table(list(table.columns), texts, numeric_from=table.numeric_from)
    if isinstance(table.notes, str):
        return shown + '\n'.join(map(printable, table.notes.split('\n')))  # the names in the notes: shown, not obeyed
    rule = '-' * max(map(len, shown.splitlines()))                       # the notes belong to the table above
    return shown + rule + '\n' + ''.join(_wrapped(line) + '\n' for line in table.notes)


def _json(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int) -> str:
    """JSON (one array of records) or JSON lines (one record a line)."""
    import json
    records = [{c: json_number(_plain(v), places) for c, v in zip(columns, row, strict=True)} for row in rows]
    return json.dumps(records, indent=2) + '\n' if fmt == 'json' else ''.join(json.dumps(r) + '\n' for r in records)


def _markdown(columns: Sequence[str], cells: list[list[str | Cell]], numeric_from: int, notes: list[str]) -> str:
    """A Markdown table, the notes as a paragraph under it."""
    table = markdown_table([markdown_escape(c) for c in columns],
                           [[_written(c, _MARKDOWN) for c in row] for row in cells], numeric_from=numeric_from)
    return table + (f'\n{" ".join(map(markdown_escape, notes))}\n' if notes else '')


def _delimited(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, places: int) -> str:
    """CSV or TSV: text cells (the column names among them) as :func:`.formats.text_cell` writes them."""
    lines = [[text_cell(c) for c in columns]]
    lines += [[text_cell(_plain(v)) if isinstance(v, str | Cell) else str(_text(v, places)) for v in row]
              for row in rows]
    return delimited(lines, fmt)


def _latex(table: Table, cells: list[list[str | Cell]]) -> str:
    """A booktabs ``tabular``, the notes as a paragraph under it; with a caption, a ``table`` float with the
    caption (the notes left out: it says what they say) and the label."""
    align = ''.join('l' if j < table.numeric_from else 'r' for j in range(len(table.columns)))
    escaped = [[_written(c, _LATEX) for c in row] for row in cells]
    header = table.latex_header or ' & '.join(map(latex_escape, table.columns))
    if table.caption:
        lines = [r'\begin{table}[t]', r'  \centering', f'  \\caption{{{table.caption}}}',
                 f'  \\label{{{table.label}}}', *latex_tabular(header, escaped, align, '  '), r'\end{table}']
        return '\n'.join(lines) + '\n'
    lines = latex_tabular(header, escaped, align)
    notes = _lines(table.notes)
    if notes:
        lines += ['', latex_escape(' '.join(notes))]
    return '\n'.join(lines) + '\n'
