"""Results whose per-query values stay on the cluster (:func:`~irmetrics.dask.calc_on_cluster`).

The per-query values are a Dask DataFrame (``query_id`` and a column per measure, the qrels'
queries missing from the run in a last partition), to write out or reduce without gathering it.
The aggregates are computed from exact per-partition sums (:mod:`.sums`): the correctly rounded
mean, which may differ from the in-memory (pairwise summed) mean in the last digits.
"""
from __future__ import annotations

import os
from typing import Any, cast

import dask
import dask.dataframe as dd
import numpy as np
from dask.delayed import Delayed, delayed

from irmetrics.algebra.measure import Measure
from irmetrics.api.evaluator import Evaluator
from irmetrics.api.partitions import Partitions
from irmetrics.api.results import MeasureValues, QueryValues

from . import sums, tasks


class DaskResults:
    """Per-query values as a Dask DataFrame (:attr:`per_query`) and their aggregates (:attr:`aggregated`)."""

    def __init__(self, evaluator: Evaluator, shared: Any, parts: list[Delayed]):
        self.evaluator = evaluator
        self.measures = evaluator.measures
        self._shared = shared
        present = [delayed(tasks.codes)(part) for part in parts]
        self.parts = [*parts, delayed(tasks.missing)(shared, *present)]

    @property
    def per_query(self) -> dd.DataFrame:
        """One row per qrels query: ``query_id`` and one float column per measure (lazy)."""
        empty = QueryValues(np.zeros(0, dtype=np.int64), np.zeros((0, len(self.measures))))
        return cast(dd.DataFrame, dd.from_delayed([delayed(tasks.to_frame)(self._shared, part) for part in self.parts],
                                                  meta=Partitions(self.evaluator).to_frame(empty), verify_meta=False))

    def aggregates(self) -> Delayed:
        """The aggregates, lazily (compute them in one ``dask.compute`` with other uses of the parts)."""
        return cast(Delayed, delayed(_aggregates)(self.measures,
                                                  *[delayed(tasks.sums)(self._shared, p) for p in self.parts]))

    def to_parquet(self, path: str | os.PathLike[str]) -> MeasureValues:
        """Write the per-query values as a directory of Parquet files (one per partition, written by the
        workers: ``path`` must be where they can write) and return the aggregates: one evaluation of
        the run for both."""
        directory = os.fspath(path)
        os.makedirs(directory, exist_ok=True)
        writes = [delayed(tasks.write_part)(self._shared, part, os.path.join(directory, f'part-{i:05d}.parquet'))
                  for i, part in enumerate(self.parts)]
        aggregated, *_ = dask.compute(self.aggregates(), *writes)
        return MeasureValues(aggregated)

    @property
    def aggregated(self) -> MeasureValues:
        """Each measure's aggregate (:class:`~irmetrics.MeasureValues`; computes the run's values)."""
        return MeasureValues(self.aggregates().compute())

    def persist(self) -> DaskResults:
        """The same results with the per-query values computed and held in the cluster's memory."""
        out = object.__new__(DaskResults)
        out.evaluator, out.measures, out._shared = self.evaluator, self.measures, self._shared
        out.parts = list(dask.persist(*self.parts))
        return out

    def __repr__(self) -> str:
        return f'<DaskResults: {len(self.measures)} measures, {len(self.parts)} partitions>'


def _aggregates(measures: list[Measure], *parts: list[sums.ExactSum]) -> dict[Measure, float]:
    totals = [sums.ExactSum(0, 0, 0.0)] * len(measures)
    for part in parts:
        totals = [sums.add(a, b) for a, b in zip(totals, part, strict=True)]
    return {m: sums.aggregate(m, s) for m, s in zip(measures, totals, strict=True)}
