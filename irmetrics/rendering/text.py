"""Plain-text tables, aligned for a terminal."""
from __future__ import annotations

from collections.abc import Sequence


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int | None = None) -> str:
    """An aligned text table; columns from ``numeric_from`` on (numbers) are right-aligned."""
    table = [list(header)] + [list(r) for r in rows]
    widths = [max(len(row[j]) for row in table) for j in range(len(header))]
    lines = []
    for row in table:
        cells = [cell.rjust(w) if numeric_from is not None and j >= numeric_from else cell.ljust(w)
                 for j, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append('  '.join(cells).rstrip())
    return '\n'.join(lines) + '\n'
