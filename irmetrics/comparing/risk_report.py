"""The risk table of a comparison made with ``risk=alpha`` (:class:`~.risk.RiskColumns`), in the report's
formats: one row per measure and run, columns URisk, TRisk, its p-value and GeoRisk, and a legend saying
what they are.  :mod:`.report` adds it under the comparison's tables; the baseline's URisk and TRisk cells
are empty (it is the baseline)."""
from __future__ import annotations

from typing import Any

from .base import Cell, ComparisonError, Table, latex_escape, number
from .vocabulary import ComparisonView, letter

HEADER = ['measure', 'run', 'URisk', 'TRisk', 'TRisk p', 'GeoRisk']


def _columns(cmp: ComparisonView) -> Any:
    if cmp.risk is None:
        raise ComparisonError('the comparison has no risk columns: compare(..., baseline=..., risk=alpha) adds them')
    return cmp.risk


def rows(cmp: ComparisonView, places: int) -> list[list[str | Cell]]:
    """The table's cells: a significant TRisk starred."""
    columns = _columns(cmp)
    out = []
    for j, m in enumerate(cmp.measures):
        for r, run in enumerate(cmp.runs):
            k = next((k for k, (_, o) in enumerate(cmp.pairs) if o == r), None)
            cells: list[str | Cell] = ['', '', '']
            if k is not None:
                cells = [number(columns.urisk[k, j], places, sign='+'),
                         Cell(number(columns.trisk[k, j], places), star=bool(columns.significant[k, j])),
                         f'{columns.pvalue[k, j]:.3g}']
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


def table(cmp: ComparisonView, places: int, label: str = 'tab:comparison') -> Table:
    """The risk table with its legend (in LaTeX a float, the legend its caption, the p of the header in math)."""
    notes = legend(cmp)
    return Table(HEADER, rows(cmp, places), 2, notes, heading='Risk against the baseline',
                 caption=latex_escape(' '.join(notes)), label=f'{label}-risk',
                 latex_header=' & '.join(HEADER[:4]) + r' & TRisk $p$ & GeoRisk')
