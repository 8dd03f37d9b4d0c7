"""What the workers run: functions of pandas partitions and the shared :class:`~irmetrics.Evaluator`.

Each evaluation task ends in :meth:`Evaluator.calc_queries` on rows holding complete queries,
the engine-neutral partition function; the rest only brings the rows of a query together.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from irmetrics.core.api import Evaluator
from irmetrics.core.results import QueryValues
from irmetrics.data.inputs import run_from_dataframe
from irmetrics.data.locate import RowLocator
from irmetrics.data.run import Run

from .layout import first_run_end
from .sums import ExactSum, column_sums

#: how messages name a Dask run's rows (a partition's rows cannot be numbered in the whole run)
SOURCE = 'run (Dask DataFrame)'
ORDER = ['_partition', '_row']


def run_of(part: pd.DataFrame, duplicates: str) -> Run:
    return run_from_dataframe(part, duplicates, where=RowLocator(SOURCE, located=False))


def evaluate_owned(ev: Evaluator, part: pd.DataFrame, *continuations: pd.DataFrame, drop_head: bool,
                   duplicates: str) -> QueryValues:
    """The queries a partition of a grouped run owns: its rows, less a first query begun in an earlier
    partition (``drop_head``), plus the first rows of the partitions that end its last query."""
    if drop_head:
        part = part.iloc[first_run_end(part):]
    if continuations:
        part = pd.concat([part, *continuations], ignore_index=True)
    return ev.calc_queries(run_of(part, duplicates))


def head(part: pd.DataFrame) -> pd.DataFrame:
    """The rows of a partition's first query (what an earlier partition needs to complete it)."""
    return part.iloc[:first_run_end(part)]


def with_order(part: pd.DataFrame, partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """The partition with each row's place in the run (partition, row), to restore after a shuffle."""
    number = partition_info['number'] if partition_info else 0
    return part.assign(_partition=np.int64(number), _row=np.arange(len(part), dtype=np.int64))


def evaluate_shuffled(ev: Evaluator, part: pd.DataFrame, duplicates: str) -> QueryValues:
    """A partition of a run shuffled by query id (complete queries), its rows back in run order."""
    return ev.calc_queries(run_of(part.sort_values(ORDER, kind='stable'), duplicates))


def codes(values: QueryValues) -> np.ndarray:
    return values.codes


def missing(ev: Evaluator, *present: np.ndarray) -> QueryValues:
    """The qrels queries that no partition evaluated: missing from the run."""
    return ev.calc_missing(np.concatenate([np.zeros(0, dtype=np.int64), *present]))


def to_frame(ev: Evaluator, values: QueryValues) -> pd.DataFrame:
    return ev.to_frame(values)


def write_part(ev: Evaluator, values: QueryValues, path: str) -> None:
    ev.to_frame(values).to_parquet(path, index=False)


def sums(ev: Evaluator, values: QueryValues) -> list[ExactSum]:
    return column_sums(ev.measures, values.values)
