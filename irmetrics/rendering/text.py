"""Plain-text tables, aligned for a terminal."""
from __future__ import annotations

from collections.abc import Sequence


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int | None = None,
               numeric_to: int | None = None) -> str:
    """An aligned text table; the columns from ``numeric_from`` on (numbers), up to ``numeric_to``
    (excluded; default: the last), are right-aligned."""
    table = [list(header)] + [list(r) for r in rows]
    widths = [max(len(row[j]) for row in table) for j in range(len(header))]
    right = range(len(header))[numeric_from:numeric_to] if numeric_from is not None else range(0)
    lines = []
    for row in table:
        cells = [cell.rjust(w) if j in right else cell.ljust(w)
                 for j, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append('  '.join(cells).rstrip())
    return '\n'.join(lines) + '\n'


def wrapped_table(header: Sequence[str], rows: Sequence[Sequence[str]], width: int,
                  numeric_from: int | None = None) -> str:
    """An aligned text table at most ``width`` columns wide (when its first column and the longest word
    of each other column fit): the first column whole, the others wrapped at spaces into widths shared
    out by how much each holds (a word over 20 characters may be cut); a row takes as many lines as its
    tallest cell.  The plain :func:`text_table` when it fits."""
    import textwrap
    plain = text_table(header, rows, numeric_from)
    if max(map(len, plain.splitlines())) <= width:
        return plain
    table = [list(header)] + [list(r) for r in rows]
    first = max(len(row[0]) for row in table)
    natural = [max(len(row[j]) for row in table) for j in range(1, len(header))]
    words = [min(20, max(len(word) for row in table for word in (row[j].split() or [''])))
             for j in range(1, len(header))]
    room = max(width - first - 2 * (len(header) - 1) - sum(words), 0)
    spare = [n - w for n, w in zip(natural, words, strict=True)]        # what each column holds beyond a word
    share = [w + (room * x // max(sum(spare), 1)) for w, x in zip(words, spare, strict=True)]
    lines = []
    for row in table:
        wrapped = [textwrap.wrap(cell, w, break_on_hyphens=False) or ['']         # a word over 20 is cut
                   for cell, w in zip(row[1:], share, strict=True)]
        for i in range(max(map(len, wrapped))):
            cells = [(row[0] if i == 0 else '').ljust(first)]
            cells += [(col[i] if i < len(col) else '').ljust(w) for col, w in zip(wrapped, share, strict=True)]
            lines.append('  '.join(cells).rstrip())
    return '\n'.join(lines) + '\n'
