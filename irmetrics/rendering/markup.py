"""Markdown, LaTeX and HTML building blocks: escaping, tables, a page."""
from __future__ import annotations

import html

from .text import printable


def markdown_escape(text: str) -> str:
    """``text`` with Markdown's special characters backslash-escaped, and its control characters first
    written as :func:`~.text.printable` writes them (a newline as ``\\n``): a table cell stays one cell, and
    its row one row."""
    text = printable(text)
    for ch in '\\|*_`<>[]':
        text = text.replace(ch, '\\' + ch)
    return text


def html_escape(text: str) -> str:
    """``text`` with HTML's special characters escaped, its control characters first written as
    :func:`~.text.printable` writes them (a page shows what a name holds, as the other formats do)."""
    return html.escape(printable(text))


def markdown_table(header: list[str], rows: list[list[str]], numeric_from: int = 1) -> str:
    """A GitHub-flavoured Markdown table of cells already escaped; columns from ``numeric_from`` on
    right-aligned."""
    align = ''.join(':---|' if j < numeric_from else '---:|' for j in range(len(header)))
    lines = ['| ' + ' | '.join(header) + ' |', '|' + align] + ['| ' + ' | '.join(row) + ' |' for row in rows]
    return '\n'.join(lines) + '\n'


LATEX_SPECIAL = {'\\': r'\textbackslash{}', '&': r'\&', '%': r'\%', '$': r'\$', '#': r'\#', '_': r'\_',
                 '{': r'\{', '}': r'\}', '~': r'\textasciitilde{}', '^': r'\textasciicircum{}',
                 # in LaTeX's default font encoding (OT1) these three print as other glyphs (¡ ¿ —)
                 '<': r'\textless{}', '>': r'\textgreater{}', '|': r'\textbar{}'}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped, its control characters first written as
    :func:`~.text.printable` writes them (a blank line would end a tabular's row with a paragraph, and TeX
    refuses ESC)."""
    return ''.join(LATEX_SPECIAL.get(ch, ch) for ch in printable(text))


def latex_tabular(header: str, rows: list[list[str]], align: str, indent: str = '') -> list[str]:
    """The lines of a booktabs ``tabular`` (columns aligned by ``align``, ``l`` or ``r`` each): ``header`` a row
    already written, ``rows`` cells already escaped; the environment indented by ``indent``, its rows by two
    more spaces (inside a ``table`` float, a caption above it)."""
    inner = indent + '  '
    return [f'{indent}\\begin{{tabular}}{{{align}}}', rf'{inner}\toprule', f'{inner}{header} \\\\', rf'{inner}\midrule',
            *(inner + ' & '.join(row) + r' \\' for row in rows), rf'{inner}\bottomrule', f'{indent}\\end{{tabular}}']


HTML_STYLE = '''body{font-family:system-ui,sans-serif;margin:2em auto;max-width:96em;color:#222;padding:0 1em}
.wide{overflow-x:auto}table{border-collapse:collapse;margin:1em 0 .4em}
th,td{padding:.3em .6em;text-align:left;vertical-align:top}td{white-space:nowrap}.n{text-align:right}
th{font-weight:600}small{color:#555}
thead th{border-bottom:2px solid #444;vertical-align:bottom}tbody tr:nth-child(even){background:#f4f4f4}
.legend{color:#555;max-width:60em;margin-top:0}.yes{color:#0a6b2d;font-weight:bold}figure{margin:0}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(36em,1fr));gap:1.5em}
svg{max-width:100%;height:auto}'''


def html_table(header: list[str], rows: list[list[str]], legend: str, numeric: set[int]) -> str:
    """A table (columns in ``numeric`` right-aligned) that scrolls sideways when too wide, and its legend."""
    def cells(tag: str, row: list[str]) -> str:
        return ''.join(f'<{tag} class="n">{c}</{tag}>' if j in numeric else f'<{tag}>{c}</{tag}>'
                       for j, c in enumerate(row))
    body = ''.join(f'<tr>{cells("td", row)}</tr>' for row in rows)
    return (f'<div class="wide"><table><thead><tr>{cells("th", header)}</tr></thead><tbody>{body}</tbody>'
            f'</table></div>\n<p class="legend">{legend}</p>\n')


def html_page(title: str, parts: list[str]) -> str:
    """A self-contained HTML page: ``title`` (escaped here) and ``parts`` (HTML already)."""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html_escape(title)}'
            f'</title>\n<style>\n{HTML_STYLE}\n</style>\n</head>\n<body>\n' + '\n'.join(parts)
            + '\n</body>\n</html>\n')
