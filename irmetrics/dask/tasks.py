"""What the workers run: functions of pandas partitions and the shared :class:`~irmetrics.Evaluator`.

Each evaluation task ends in :meth:`Evaluator.calc_queries` on rows holding complete queries,
the engine-neutral partition function; the rest only brings the rows of a query together
(:mod:`.layout` for a run grouped by query, a shuffle otherwise).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from irmetrics.api.evaluator import Evaluator
from irmetrics.api.partitions import Partitions
from irmetrics.api.results import QueryValues
from irmetrics.data.locate import RowLocator
from irmetrics.data.python_objects import run_from_dataframe
from irmetrics.data.run import Run
from irmetrics.errors import InputError

from .layout import Summary, split
from .sums import ExactSum, column_sums

#: how messages name a Dask run's rows (a partition's rows cannot be numbered in the whole run)
SOURCE = 'run (Dask DataFrame)'
ORDER = ['_partition', '_row']
NOT_GROUPED = ('the run is not grouped by query (a query has rows in two places), so its partitions do not hold '
               'complete queries: pass shuffle=True to shuffle it by query id')


def run_of(part: pd.DataFrame, duplicates: str) -> Run:
    return run_from_dataframe(part, duplicates, where=RowLocator(SOURCE, located=False))


class PartResult(NamedTuple):
    """A partition of a grouped run evaluated: its inner queries' values, its edge rows, its summary."""
    values: QueryValues
    edges: list[pd.DataFrame]
    summary: Summary


def evaluate_part(ev: Evaluator, part: pd.DataFrame, duplicates: str) -> PartResult:
    """The queries strictly inside a partition (whole if the run is grouped), and what the rest needs."""
    inner, edges, summary = split(part)
    return PartResult(ev.calc_queries(run_of(inner, duplicates)), edges, summary)


def values_of(result: PartResult) -> QueryValues:
    return result.values


def summary_of(result: PartResult) -> Summary:
    return result.summary


def edges_of(result: PartResult) -> list[pd.DataFrame]:
    return result.edges


def evaluate_edges(ev: Evaluator, duplicates: str, *edges: list[pd.DataFrame]) -> QueryValues:
    """The queries at the partitions' edges (each partition's edge rows, in run order): whole if the run
    is grouped."""
    frames = [frame for part in edges for frame in part]
    if not frames:
        return ev.calc_queries(Run.from_columns([], [], []))
    return ev.calc_queries(run_of(pd.concat(frames, ignore_index=True), duplicates))


def is_grouped(summary: Summary) -> bool:
    return summary.grouped


def checked(values: QueryValues, summary: Summary) -> QueryValues:
    """``values``, once the run is known to be grouped by query (else they may be wrong: an error)."""
    if not summary.grouped:
        raise InputError(NOT_GROUPED)
    return values


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
    return ev.engines.missing(np.concatenate([np.zeros(0, dtype=np.int64), *present]))


def to_frame(ev: Evaluator, values: QueryValues) -> pd.DataFrame:
    return Partitions(ev).to_frame(values)


def write_part(ev: Evaluator, values: QueryValues, path: str) -> None:
    Partitions(ev).to_frame(values).to_parquet(path, index=False)


def sums(ev: Evaluator, values: QueryValues) -> list[ExactSum]:
    return column_sums(ev.measures, values.values)
