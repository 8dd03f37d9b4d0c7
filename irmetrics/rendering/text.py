"""Plain-text tables, aligned for a terminal, and text made safe to print on one."""
from __future__ import annotations

import re
from collections.abc import Sequence

#: What a terminal obeys rather than shows: the C0 controls (ESC starts the sequences that clear the screen,
#: set the title, hide text or add links; CR and BS overwrite), DEL, the C1 controls (CSI, OSC) and Unicode's
#: bidirectional overrides and isolates (which reorder the text around them).
_CONTROLS = re.compile('[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]')
_SHORT = {'\t': '\\t', '\n': '\\n', '\r': '\\r'}


def _escaped(match: re.Match[str]) -> str:
    ch = match.group()
    return _SHORT.get(ch) or (f'\\x{ord(ch):02x}' if ord(ch) < 0x100 else f'\\u{ord(ch):04x}')


def printable(text: str) -> str:
    """``text`` with every control character (:data:`_CONTROLS`) written as Python writes it in a string's repr
    (``\\x1b``, ``\\n``, ``\\u202e``), so that a run name or query id printed for people shows what it
    holds, on one line, and a terminal obeys nothing in it; other text, backslashes included, is unchanged."""
    return _CONTROLS.sub(_escaped, text)


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int | None = None,
               numeric_to: int | None = None) -> str:
    """An aligned text table of :func:`printable` cells; the columns from ``numeric_from`` on (numbers), up
    to ``numeric_to`` (excluded; default: the last), are right-aligned."""
    table = [[printable(c) for c in header]] + [[printable(c) for c in r] for r in rows]
    widths = [max(len(row[j]) for row in table) for j in range(len(header))]
    right = range(len(header))[numeric_from:numeric_to] if numeric_from is not None else range(0)
    lines = []
    for row in table:
        cells = [cell.rjust(w) if j in right else cell.ljust(w)
                 for j, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append('  '.join(cells).rstrip())
    return '\n'.join(lines) + '\n'


def _shared_widths(table: list[list[str]], width: int) -> tuple[int, list[int]]:
    """The first column's width, and each other column's: its longest word (at most 20) and a share of the room
    left by how much it holds beyond that word."""
    columns = len(table[0])
    first = max(len(row[0]) for row in table)
    natural = [max(len(row[j]) for row in table) for j in range(1, columns)]
    words = [min(20, max(len(word) for row in table for word in (row[j].split() or [''])))
             for j in range(1, columns)]
    room = max(width - first - 2 * (columns - 1) - sum(words), 0)
    spare = [n - w for n, w in zip(natural, words, strict=True)]        # what each column holds beyond a word
    return first, [w + (room * x // max(sum(spare), 1)) for w, x in zip(words, spare, strict=True)]


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
    table = [[printable(c) for c in header]] + [[printable(c) for c in r] for r in rows]
    first, share = _shared_widths(table, width)
    lines = []
    for row in table:
        wrapped = [textwrap.wrap(cell, w, break_on_hyphens=False) or ['']         # a word over 20 is cut
                   for cell, w in zip(row[1:], share, strict=True)]
        for i in range(max(map(len, wrapped))):
            cells = [(row[0] if i == 0 else '').ljust(first)]
            cells += [(col[i] if i < len(col) else '').ljust(w) for col, w in zip(wrapped, share, strict=True)]
            lines.append('  '.join(cells).rstrip())
    return '\n'.join(lines) + '\n'
