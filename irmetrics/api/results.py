"""Result types: one per-query value, and a whole evaluation's results.

:class:`CalcResults` renders to pandas (tidy and wide per-query DataFrames; pandas is imported
only then) and to a text table of the aggregates (``print(results)``).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..algebra.measure import Measure
from ..algebra.params import GEOMETRIC_MEAN_FLOOR


class Metric(NamedTuple):
    """The value of one measure for one query."""
    query_id: str
    measure: Measure
    value: float


class QueryValues(NamedTuple):
    """Per-query values of some of an evaluator's queries: ``codes`` index the qrels' query ids
    (ascending), ``values`` has one row per code and one column per measure.  What one part of a
    run (a chunk, a partition) evaluates to; :meth:`~irmetrics.Evaluator.combine` joins the parts."""
    codes: np.ndarray
    values: np.ndarray


def aggregate(measure: Measure, values: np.ndarray) -> float:
    """Aggregate per-query values as the measure says (:attr:`Measure.aggregation`): the mean, the
    geometric mean of the values floored at :data:`GEOMETRIC_MEAN_FLOOR`, or the sum (counts).

    The mean of no queries is NaN (nothing was evaluated); a sum of none is 0.  Queries where a
    measure that ``skips_undefined`` is undefined (NaN) are left out.
    """
    if measure.definition.skips_undefined:
        values = values[~np.isnan(values)]
    how = measure.aggregation
    if how == 'sum':
        total = float(values.sum())
        return int(total) if total.is_integer() else total
    if not len(values):
        return math.nan
    if how == 'gmean':
        return float(np.exp(np.log(np.maximum(values, GEOMETRIC_MEAN_FLOOR)).mean()))
    return float(values.mean())


class CalcResults:
    """Per-query values of several measures (a query x measure matrix) and their aggregates.

    Unpacks like ir_measures' ``CalcResults``: ``aggregated, per_query = results``.
    """

    def __init__(self, query_ids: list[str], measures: list[Measure], values: np.ndarray):
        self.query_ids = query_ids
        self.measures = measures
        self.values = values          # shape (len(query_ids), len(measures))

    @property
    def aggregated(self) -> dict[Measure, float]:
        return {m: aggregate(m, self.values[:, j]) for j, m in enumerate(self.measures)}

    @property
    def per_query(self) -> list[Metric]:
        return list(self.iter_metrics())

    def iter_metrics(self) -> Iterator[Metric]:
        """Every (query, measure) value, except where a measure that skips undefined queries is undefined."""
        rows = self.values.tolist()
        skips = [m.definition.skips_undefined for m in self.measures]
        for qid, row in zip(self.query_ids, rows, strict=True):
            for m, v, skip in zip(self.measures, row, skips, strict=True):
                if not (skip and v != v):
                    yield Metric(qid, m, v)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.aggregated, self.per_query))

    # --- renderers ---------------------------------------------------------------------------
    def to_dataframe(self, wide: bool = False, run: str | None = None) -> Any:
        """Per-query values as a pandas DataFrame, measures labelled by their string (``'nDCG@10'``).

        Tidy (default): columns ``query_id, measure, value``, one row per (query, measure), without
        the rows :meth:`iter_metrics` leaves out.  ``wide=True``: one row per query (index
        ``query_id``), one column per measure, NaN where a measure is undefined.  ``run`` labels the
        rows with a run name (a first ``run`` column; in the wide frame an index level), so the
        frames of several runs concatenate: ``pd.concat([ev.calc(r).to_dataframe(run=n) for ...])``.
        """
        import pandas as pd
        names = [str(m) for m in self.measures]
        if wide:
            frame = pd.DataFrame(self.values, columns=names, index=pd.Index(self.query_ids, name='query_id'))
            frame.columns.name = 'measure'
            if run is not None:
                frame = pd.concat({run: frame}, names=['run'])
            return frame
        n_q, n_m = self.values.shape
        keep = ~(np.isnan(self.values) & np.array([m.definition.skips_undefined for m in self.measures],
                                                     dtype=bool)).ravel()
        columns = {
            'query_id': np.repeat(np.array(self.query_ids, dtype=object), n_m)[keep],
            'measure': np.tile(np.array(names, dtype=object), n_q)[keep],
            'value': self.values.ravel()[keep],
        }
        if run is not None:
            columns = {'run': np.full(int(keep.sum()), run, dtype=object), **columns}
        return pd.DataFrame(columns)

    def to_table(self, places: int = 4) -> str:
        """The aggregates as an aligned text table (``measure  value``); also what ``print`` shows."""
        rows = [[str(m), format_value(m, v, places)] for m, v in self.aggregated.items()]
        return text_table(['measure', 'value'], rows, numeric_from=1)

    def __str__(self) -> str:
        return self.to_table()

    def __repr__(self) -> str:
        return f'<CalcResults: {len(self.measures)} measures x {len(self.query_ids)} queries>'


def format_value(measure: Measure, value: float, places: int | None = 4) -> str:
    """A value as text: counts as integers, others with ``places`` decimals (None or < 0: every digit)."""
    if value != value:
        return 'nan'
    if measure.definition.aggregate == 'sum' and float(value).is_integer():
        return str(int(value))
    if places is None or places < 0:
        return repr(float(value))
    return f'{value:.{places}f}'


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
