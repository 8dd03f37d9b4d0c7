"""Evaluating a run held in a Dask DataFrame: the plan, the task graph, and the results.

1. The qrels are read and checked once, on the client, into an :class:`~irmetrics.Evaluator`, which
   is scattered to every worker (broadcast; without a distributed client, one key of the graph).
2. One pass over the run, assuming it is grouped by query (:mod:`.layout`): each partition evaluates
   the queries strictly inside it; the rows of every partition's first and last query, in run order,
   are evaluated together (only they can have rows in another partition); the same pass checks that
   the run is grouped.  If it is not, :meth:`DaskEvaluator.calc` evaluates it again after a shuffle
   by query id (each row tagged with its place, so that rows come back in run order and
   ``duplicates='first'`` or ``'last'`` keep what they keep in memory); ``shuffle=True`` goes there
   at once.
3. Every evaluation task ends in :meth:`Evaluator.calc_queries` on complete queries: per-query values
   exactly as in memory.  :meth:`DaskEvaluator.calc` gathers them (a float per query and measure) and
   aggregates on the client in the qrels' order, as in memory: the same numbers, to the last bit.
   :meth:`DaskEvaluator.calc_on_cluster` gathers nothing (:class:`DaskResults`).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

import dask
import dask.dataframe as dd
from dask.delayed import Delayed, delayed

from irmetrics.algebra.measure import Measure
from irmetrics.api.evaluator import Evaluator, MeasuresLike
from irmetrics.api.options import Options
from irmetrics.api.results import CalcResults, MeasureValues, Metric, QueryValues
from irmetrics.data.columns import find_columns
from irmetrics.data.input_kinds import PARQUET, TREC_FILE, InputKind, find_kind
from irmetrics.errors import InputError, MeasureError, OptionError

from . import layout, tasks
from .results import DaskResults
from .trec import read_trec_run

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from irmetrics.api.options import EvaluationOptions

#: summaries merged per task when checking that a run is grouped by query
FAN_IN = 16


class DaskEvaluator:
    """Measures and qrels prepared once, evaluated against runs held in Dask DataFrames."""

    def __init__(self, measures: MeasuresLike, qrels: Any, **options: Unpack[EvaluationOptions]):
        """``options``: the shared options (:class:`~irmetrics.api.options.Options`); ``duplicates`` is what
        every run gets unless its call says otherwise.  ``memory_limit`` is refused: each partition is read
        whole by its worker, whose memory Dask manages."""
        given = Options.of(options, 'irmetrics.dask.evaluator')
        if given.memory_limit is not None:
            raise OptionError('memory_limit: a Dask run is read partition by partition, each whole, on workers '
                              'whose memory Dask manages: leave it out (or repartition the run)')
        self.evaluator = Evaluator(measures, qrels, **given.given())
        if self.evaluator.run_measures:
            whole = self.evaluator.run_measures[0]
            raise MeasureError(f'{whole!r} is computed from a whole run ({whole.definition.scope!r}): Dask '
                               f'evaluates a run partition by partition; evaluate it in memory')
        self._scattered: dict[str, Any] = {}

    @property
    def measures(self) -> list[Measure]:
        return self.evaluator.measures

    def calc(self, run: Any, *, duplicates: str | None = None, shuffle: bool | None = None) -> CalcResults:
        """Per-query values and aggregates of ``run`` (a Dask DataFrame, or a path to a TREC run, a
        Parquet file or a directory of Parquet files): the in-memory numbers to the last bit.

        ``shuffle``: None to shuffle only a run that is not grouped by query (one pass is spent
        finding out), True to shuffle without looking; ``duplicates`` None: the evaluator's.
        """
        duplicates = duplicates or self.evaluator.duplicates
        shared = self._shared()
        frame = _run_frame(run)
        if not shuffle:
            parts, grouped = _grouped_tasks(frame, shared, duplicates)
            computed, is_grouped = dask.compute(parts, delayed(tasks.is_grouped)(grouped))
            if is_grouped:
                return self.evaluator.combine(list(computed))
        values: tuple[QueryValues, ...] = dask.compute(*_shuffled_tasks(frame, shared, duplicates))
        return self.evaluator.combine(list(values))

    def calc_on_cluster(self, run: Any, *, duplicates: str | None = None, shuffle: bool | None = None) -> DaskResults:
        """Results of ``run`` whose per-query values stay on the cluster (:class:`DaskResults`): nothing
        is gathered until asked.  For a run not grouped by query, computing them is an error that says
        to pass ``shuffle=True`` (which shuffles without looking)."""
        duplicates = duplicates or self.evaluator.duplicates
        shared = self._shared()
        frame = _run_frame(run)
        if shuffle:
            parts = _shuffled_tasks(frame, shared, duplicates)
        else:
            found, grouped = _grouped_tasks(frame, shared, duplicates)
            parts = [delayed(tasks.checked)(part, grouped) for part in found]
        return DaskResults(self.evaluator, shared, parts)

    def calc_aggregate(self, run: Any, *, duplicates: str | None = None,
                       shuffle: bool | None = None) -> MeasureValues:
        """Each measure's aggregate for ``run`` (:class:`~irmetrics.MeasureValues`): :meth:`calc`'s aggregates."""
        return self.calc(run, duplicates=duplicates, shuffle=shuffle).aggregated

    def iter_calc(self, run: Any, *, duplicates: str | None = None, shuffle: bool | None = None) -> Iterator[Metric]:
        """``Metric(query_id, measure, value)`` for every qrels query and measure."""
        return self.calc(run, duplicates=duplicates, shuffle=shuffle).iter_metrics()

    def _shared(self) -> Any:
        """The evaluator where the tasks find it: scattered to every worker of the distributed client
        (once per client), else a key of the graph."""
        client = _client()
        if client is None:
            return delayed(self.evaluator, name=f'irmetrics-evaluator-{id(self.evaluator)}')
        if client.id not in self._scattered:
            self._scattered[client.id] = client.scatter(self.evaluator, broadcast=True, hash=False)
        return self._scattered[client.id]


def _grouped_tasks(frame: dd.DataFrame, shared: Any, duplicates: str) -> tuple[list[Delayed], Delayed]:
    """The tasks of a run grouped by query (:mod:`.layout`): the values of each partition's inner
    queries, then of the queries at the edges; and the run's summary (is it grouped?)."""
    results = [delayed(tasks.evaluate_part)(shared, part, duplicates) for part in frame.to_delayed()]
    edges = delayed(tasks.evaluate_edges)(shared, duplicates, *[delayed(tasks.edges_of)(r) for r in results])
    level = [delayed(tasks.summary_of)(r) for r in results]
    while len(level) > 1:
        level = [delayed(layout.merge)(*level[i:i + FAN_IN]) for i in range(0, len(level), FAN_IN)]
    return [*[delayed(tasks.values_of)(r) for r in results], edges], level[0]


def _shuffled_tasks(frame: dd.DataFrame, shared: Any, duplicates: str) -> list[Delayed]:
    """The tasks of any run: shuffled by query id, each row tagged with its place to restore run order."""
    ordered = frame.map_partitions(tasks.with_order, meta=tasks.with_order(frame._meta))
    shuffled = ordered.shuffle(on='query_id', npartitions=frame.npartitions)
    return [delayed(tasks.evaluate_shuffled)(shared, part, duplicates) for part in shuffled.to_delayed()]


#: How Dask reads a run given as a file, by its input kind (:mod:`irmetrics.data.input_kinds`).
_READERS: dict[InputKind | None, Callable[[str], dd.DataFrame]] = {PARQUET: dd.read_parquet, TREC_FILE: read_trec_run}


def _run_frame(run: Any) -> dd.DataFrame:
    """The run's columns under their canonical names (a path is read: TREC text or Parquet)."""
    reader = _READERS.get(find_kind(run))
    if reader is not None:
        run = reader(os.fspath(run))
    if not isinstance(run, dd.DataFrame):
        raise InputError(f'expected a Dask DataFrame or a path as the run, not {type(run).__name__} '
                         f'(irmetrics.calc evaluates runs in memory)')
    names = find_columns(run.columns, 'run', 'run Dask DataFrame')
    frame = run[list(names.values())]
    renamed = {name: canonical for canonical, name in names.items() if name != canonical}
    return cast(dd.DataFrame, frame.rename(columns=renamed) if renamed else frame)


def _client() -> Any:
    try:
        from distributed import default_client
        return default_client()
    except (ImportError, ValueError):          # distributed not installed, or no client
        return None


def evaluator(measures: MeasuresLike, qrels: Any, **options: Unpack[EvaluationOptions]) -> DaskEvaluator:
    """A :class:`DaskEvaluator`: qrels read, checked and prepared once, shared by every run evaluated
    (``options``: the shared options, as :func:`irmetrics.evaluator` takes them)."""
    return DaskEvaluator(measures, qrels, **options)


def calc(measures: MeasuresLike, qrels: Any, run: Any, *, shuffle: bool | None = None,
         **options: Unpack[EvaluationOptions]) -> CalcResults:
    """Per-query values and aggregates of a Dask run (see :meth:`DaskEvaluator.calc`)."""
    return DaskEvaluator(measures, qrels, **options).calc(run, shuffle=shuffle)


def calc_on_cluster(measures: MeasuresLike, qrels: Any, run: Any, *, shuffle: bool | None = None,
                    **options: Unpack[EvaluationOptions]) -> DaskResults:
    """Results of a Dask run whose per-query values stay on the cluster (see
    :meth:`DaskEvaluator.calc_on_cluster`)."""
    return DaskEvaluator(measures, qrels, **options).calc_on_cluster(run, shuffle=shuffle)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any, *, shuffle: bool | None = None,
                   **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """``{measure: aggregate}`` of a Dask run, the in-memory numbers to the last bit."""
    return DaskEvaluator(measures, qrels, **options).calc_aggregate(run, shuffle=shuffle)
