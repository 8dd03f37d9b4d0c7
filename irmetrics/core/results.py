"""Result types: one per-query value, and a whole evaluation's results."""
from __future__ import annotations

import math
from typing import Iterator, NamedTuple

import numpy as np

from .measure import Measure


class Metric(NamedTuple):
    """The value of one measure for one query."""
    query_id: str
    measure: Measure
    value: float


def aggregate(measure: Measure, values: np.ndarray) -> float:
    """Aggregate per-query values as the measure's definition says (mean, or sum for counts).

    The mean of no queries is NaN (nothing was evaluated); a sum of none is 0.  Queries where a
    measure that ``skips_undefined`` is undefined (NaN) are left out.
    """
    if measure.definition.skips_undefined:
        values = values[~np.isnan(values)]
    if measure.definition.aggregate == 'sum':
        total = float(values.sum())
        return int(total) if total.is_integer() else total
    return float(values.mean()) if len(values) else math.nan


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
        for qid, row in zip(self.query_ids, rows):
            for m, v, skip in zip(self.measures, row, skips):
                if not (skip and v != v):
                    yield Metric(qid, m, v)

    def __iter__(self):
        return iter((self.aggregated, self.per_query))

    def __repr__(self) -> str:
        return f'<CalcResults: {len(self.measures)} measures x {len(self.query_ids)} queries>'
