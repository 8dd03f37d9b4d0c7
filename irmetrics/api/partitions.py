"""The partition function: a run held in pandas partitions of complete queries (Spark's
``applyInPandas``, Dask), evaluated part by part with one :class:`~.evaluator.Evaluator`.

    >>> parts = irmetrics.Partitions(irmetrics.evaluator(['AP', 'nDCG@10'], 'examples/qrels.txt'))
    >>> frame = irmetrics.read_trec_run('examples/run_bm25.txt').to_dataframe()
    >>> halves = frame.groupby(frame.query_id.astype(int) % 2)         # in Spark: groupBy('bucket').applyInPandas(
    >>> per_query = [parts.calc(half) for _, half in halves]           #     parts.calc, schema=parts.schema)
    >>> parts.combine(per_query).aggregated
    {'AP': 0.4086513386923678, 'nDCG@10': 0.4361483952026271}

A query's values depend on its own rows and judgments only, so each part gives exactly the values
the whole run gives; :meth:`Partitions.combine` aggregates them in the qrels' order, as in memory.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..data.python_objects import frame_column
from ..errors import InputError
from .evaluator import Evaluator
from .results import CalcResults, QueryValues


class Partitions:
    """An evaluator's per-query values as pandas DataFrames: ``query_id`` and one float column per
    measure (named ``str(measure)``), one row per qrels query of a part.  Pickles with its evaluator,
    so it can be broadcast to a cluster's workers."""

    def __init__(self, evaluator: Evaluator):
        self.evaluator = evaluator

    def calc(self, part: Any, *, duplicates: str = 'error') -> Any:
        """The per-query values of ``part`` (any run input: a pandas DataFrame, an Arrow table, ...),
        a part of a run that holds complete queries, as a pandas DataFrame."""
        return self.to_frame(self.evaluator.calc_queries(part, duplicates=duplicates))

    @property
    def schema(self) -> str:
        """The columns :meth:`calc` returns, as a SQL schema (what Spark's ``applyInPandas`` asks for)."""
        return ', '.join(['query_id string'] + [f'`{m}` double' for m in self.evaluator.measures])

    def to_frame(self, values: QueryValues) -> Any:
        """Per-query values as :meth:`calc` returns them (a pandas DataFrame), in qrels order, indexed
        by each query's position in the qrels (``qrels_position``: unique across the parts, so the
        frames of all parts concatenate and ``sort_index()`` puts them in qrels order)."""
        import numpy as np
        import pandas as pd
        order = np.argsort(values.codes, kind='stable')
        codes = values.codes[order]
        columns = {str(m): values.values[order, j] for j, m in enumerate(self.evaluator.measures)}
        query_ids = self.evaluator.qrels.query_ids.take(codes).to_list()
        frame = pd.DataFrame({'query_id': pd.Series(query_ids, dtype=str), **columns})     # pandas' string type
        frame.index = pd.Index(codes, name='qrels_position')
        return frame

    def combine(self, frames: Any, source: str = 'run') -> CalcResults:
        """The results of the whole run from DataFrames as :meth:`calc` returns them (or one DataFrame
        of them all; any order): see :meth:`Evaluator.combine`."""
        return self.evaluator.combine(self._values(frames), source)

    def _values(self, frames: Any) -> Iterator[QueryValues]:
        columns = [str(m) for m in self.evaluator.measures]
        for frame in [frames] if hasattr(frames, 'columns') else frames:
            codes = self.evaluator.engines.codes_of(frame_column(frame['query_id']))
            unknown = np.flatnonzero(codes < 0)
            if len(unknown):
                raise InputError(f'query {frame["query_id"].iloc[int(unknown[0])]!r} of a part is not in the qrels')
            yield QueryValues(codes, frame[columns].to_numpy(dtype=np.float64))
