"""The risk table of a comparison made with ``risk=alpha`` (:class:`~.risk.RiskColumns`), in the report's
formats: one row per measure and run, columns URisk, TRisk, its p-value and GeoRisk, and a legend saying
what they are.  :mod:`.report` adds it under the comparison's tables; the baseline's URisk and TRisk cells
are empty (it is the baseline)."""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from .base import (
    ComparisonError,
    html_escape,
    html_table,
    latex_escape,
    latex_tabular,
    markdown_escape,
    markdown_table,
    number,
    printable,
    text_table,
)
from .vocabulary import ComparisonView, letter

HEADER = ['measure', 'run', 'URisk', 'TRisk', 'TRisk p', 'GeoRisk']


def _columns(cmp: ComparisonView) -> Any:
    if cmp.risk is None:
        raise ComparisonError('the comparison has no risk columns: compare(..., baseline=..., risk=alpha) adds them')
    return cmp.risk


def rows(cmp: ComparisonView, places: int, mark: Callable[[str], str] = lambda s: s + ' *') -> list[list[str]]:
    """The table's cells as text: ``mark`` decorates a significant TRisk."""
    columns = _columns(cmp)
    out = []
    for j, m in enumerate(cmp.measures):
        for r, run in enumerate(cmp.runs):
            k = next((k for k, (_, o) in enumerate(cmp.pairs) if o == r), None)
            cells = ['', '', '']
            if k is not None:
                trisk = number(columns.trisk[k, j], places)
                cells = [number(columns.urisk[k, j], places, sign='+'),
                         mark(trisk) if columns.significant[k, j] else trisk, f'{columns.pvalue[k, j]:.3g}']
            georisk = number(columns.georisk[r, j], places, missing='')
            out.append([str(m), f'({letter(r)}) {run}', *cells, georisk])
    return out


def legend(cmp: ComparisonView) -> list[str]:
    """The sentences under the risk table."""
    columns = _columns(cmp)
    base = cmp.baselines[0]
    level = cmp.settings.alpha
    return [f'Risk against the baseline ({letter(cmp.runs.index(base))}) {base}, risk weight {columns.risk_weight:g}. '
            f'URisk: mean per-query difference from the baseline, each loss weighing 1 + risk weight = '
            f'{1 + columns.risk_weight:g} times a gain (Wang, Bennett & Collins-Thompson, SIGIR 2012); positive: more '
            f'gained than lost.',
            f'TRisk: URisk / its standard error, a t statistic (Dincer, Macdonald & Ounis, SIGIR 2014); above 2 '
            f'less risky, below -2 riskier than the baseline; * where its two-sided p-value is at most {level:g} '
            f'(not corrected for multiple comparisons; it needs {columns.fewest_queries} or more queries with a '
            f'difference).',
            f'GeoRisk: sqrt(mean x Phi(ZRisk / queries)) over all {len(cmp.runs)} runs, each a baseline of the '
            f'others (Dincer, Macdonald & Ounis, SIGIR 2016); higher is better.']


def render_text(cmp: ComparisonView, places: int, width: int) -> str:
    table = text_table(HEADER, rows(cmp, places), numeric_from=2)
    rule = '-' * max(map(len, table.splitlines()))
    notes = [textwrap.fill(printable(line), width, subsequent_indent='  ') for line in legend(cmp)]
    return table + rule + '\n' + ''.join(line + '\n' for line in notes)


def render_markdown(cmp: ComparisonView, places: int) -> str:
    cells = [[markdown_escape(c) if i < 2 else c for i, c in enumerate(row)]
             for row in rows(cmp, places, lambda s: s + '\\*')]
    return (markdown_table(HEADER, cells, numeric_from=2) + '\n' + ' '.join(map(markdown_escape, legend(cmp)))
            + '\n')


def render_latex(cmp: ComparisonView, places: int, label: str) -> str:
    caption = latex_escape(' '.join(legend(cmp)))
    marked = rows(cmp, places, lambda s: s + '$^{*}$')
    cells = [[latex_escape(c) if i < 2 else c for i, c in enumerate(row)] for row in marked]
    header = ' & '.join(HEADER[:4]) + r' & TRisk $p$ & GeoRisk'
    lines = [r'\begin{table}[t]', r'  \centering', f'  \\caption{{{caption}}}', f'  \\label{{{label}-risk}}',
             *latex_tabular(header, cells, 'llrrrr', '  '), r'\end{table}']
    return '\n'.join(lines) + '\n'


def render_html(cmp: ComparisonView, places: int) -> str:
    esc = html_escape
    cells = [[esc(c) if i < 2 else c for i, c in enumerate(row)] for row in rows(cmp, places)]
    return '<h2>Risk against the baseline</h2>' + html_table(HEADER, cells, esc(' '.join(legend(cmp))),
                                                             set(range(2, len(HEADER))))
