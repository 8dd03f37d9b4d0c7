"""The reusable :class:`Evaluator`: measures and qrels prepared once, evaluated against any number of runs.

The queries evaluated are those of the qrels (trec_eval ``-c``): a qrels query
missing from the run scores its measure's ``missing_value`` (0 for most; NumQ
and NumRel are computed on the empty ranking), queries only in the run are
ignored.  Per-query values aggregate by mean (sum for the counts).  Evaluation
never modifies its inputs.

How a run is read is the input kinds' business (:mod:`irmetrics.data.input_kinds`): the evaluator asks
for the run on its terms (:class:`~irmetrics.data.large.Reading`: the memory budget, the duplicates
policy, the depth) and evaluates what it gets, a whole :class:`Run` or :class:`RunParts`.  A run in parts
that each hold complete queries (every row of each of their queries): chunks of a file larger than
memory (``memory_limit``), blocks of a large Arrow table, arrays ranked block by block of users, or the
partitions of a Dask or Spark DataFrame (:mod:`.partitions`; :meth:`Evaluator.calc_queries`, joined by
:meth:`Evaluator.combine`).  A query's value depends on its own rows and judgments only, so each part
gives exactly the values the whole run gives, and the aggregates are then computed from all of them in
the qrels' order, as in memory: the numbers are the same to the last bit.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import errors
from ..algebra.measure import Measure
from ..data.arrays import ArrayRun
from ..data.inputs import to_qrels, to_run
from ..data.large import RunParts
from ..data.qrels import Qrels
from ..data.run import Run
from ..errors import InputError, MeasureError
from ..providers import PROVIDERS
from . import diagnostics
from .accumulator import Accumulator, merged_runs
from .array_runs import ArrayEvaluation
from .engines import Engines
from .evaluator_inputs import check_items, check_qrels, parse_or_swapped
from .options import MemoryLimit, Options
from .reading import open_run
from .results import CalcResults, MeasureValues, Metric, QueryValues

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .options import EvaluationOptions

MeasuresLike = Any   # a Measure, a measure string, or an iterable of those


class Evaluator:
    """Measures and qrels prepared once, evaluated against any number of runs.

    The qrels are read and checked when the evaluator is built, the engines prepared on them when
    a whole run is first evaluated (parts of a run prepare only their queries' judgments).  An
    evaluator pickles without its prepared engines, so it can be shipped to the workers of a cluster.
    :func:`irmetrics.evaluator` builds one from the shared options.

    Parameters
    ----------
    measures : str, Measure or list of them
        The measures, as :class:`Measure` objects or by name (read as ``dialect`` says).
    qrels : any qrels input
        The judgments (see :func:`irmetrics.to_qrels`).
    **options
        The shared options (:class:`~irmetrics.api.options.Options`, declared there once): ``provider``,
        ``duplicates``, ``items``, ``exclude``, ``strict``, ``dialect``, ``memory_limit``.  ``duplicates`` and
        ``memory_limit`` are what every run gets unless its call says otherwise (see :meth:`calc`).

    Attributes
    ----------
    measures : list of Measure
        The measures of one query's ranking: the columns of every per-query result.
    qrels : Qrels
        The judgments, read and checked.
    query_ids : list of str
        The qrels' query ids: the queries every result lists, in this order.

    The other attributes (``all_measures``, ``run_measures``, ``depth``, ``arrays``, ``engines``: the engines
    prepared on the qrels, :class:`~irmetrics.api.engines.Engines`) are the interface of the rooms built on
    the evaluator, not public API.

    Examples
    --------
    >>> ev = irmetrics.Evaluator(['AP', 'nDCG@10'], 'examples/qrels.txt')
    >>> ev.calc_aggregate('examples/run_dense.txt')
    {'AP': 0.5395780706083595, 'nDCG@10': 0.6323960531343733}
    """

    def __init__(self, measures: MeasuresLike, qrels: Any, **options: Unpack[EvaluationOptions]):
        """Parse the measures, read and check the qrels (the parameters: see the class docstring)."""
        given = Options.of(options, 'Evaluator')
        self.strict, self.duplicates, self.memory_limit = given.strict, given.duplicates, given.memory_limit
        items, provider = given.items, given.provider
        with errors.strict(self.strict):
            self.all_measures: list[Measure] = parse_or_swapped(measures, given.dialect)
            self.qrels: Qrels = to_qrels(qrels)
            if given.grades == 'trec_eval':
                self.qrels = self.qrels.integer_grades()
            if items is not None:
                self.qrels = dataclasses.replace(self.qrels, items=items)
            check_qrels(self.qrels, self.all_measures)
            check_items(items, self.all_measures)
            if items is not None and self.qrels.matrix_shape is not None:
                items.check_catalogue(self.qrels.matrix_shape[1], 'the qrels array')
            diagnostics.check_levels(self.qrels, self.all_measures)
            diagnostics.check_raw_gains(self.qrels, self.all_measures)
        #: the measures of one query's ranking: the columns of every per-query matrix
        self.measures = [m for m in self.all_measures if m.definition.scope == 'query']
        #: the measures of a whole run (scope 'run'): one value per run
        self.run_measures = [m for m in self.all_measures if m.definition.scope == 'run']
        depths = [m.depth for m in self.all_measures if m.depth is not None]
        #: how deep a run given as arrays is ranked: the deepest cutoff when every measure reads its
        #: rankings only down to its cutoff (:attr:`Measure.depth`), else None (whole rankings)
        self.depth = max(depths) if depths and len(depths) == len(self.all_measures) else None
        #: the engines the measures go to, prepared on the qrels when first needed
        self.engines = Engines(self.qrels, self.measures, self.run_measures,
                               [(p.name, ms) for p, ms in PROVIDERS.resolve(self.all_measures, provider)])
        self.arrays = ArrayEvaluation(self, given.exclude)
        self._query_ids: list[str] | None = None

    @property
    def query_ids(self) -> list[str]:
        """The qrels' query ids: the queries every result lists, in this order."""
        if self._query_ids is None:
            self._query_ids = self.qrels.query_ids.to_list()
        return self._query_ids

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, '_query_ids': None}

    # --- whole runs ---------------------------------------------------------------------------
    def calc(self, run: Any, *, duplicates: str | None = None, memory_limit: MemoryLimit = None) -> CalcResults:
        """Per-query values and aggregates of ``run``.

        The measures of a whole run (scope ``'run'``: Coverage, Gini) give one value each.  A run file
        (TREC or Parquet) larger than ``memory_limit`` is evaluated in chunks of complete queries, with
        the same numbers: see docs/scaling.md.

        Parameters
        ----------
        run : any run input
            The ranking (see :func:`irmetrics.to_run`), or what :func:`~.reading.open_run` opened.
        duplicates : str or None
            A document retrieved twice for a query: ``'error'``, ``'first'``, ``'last'`` or ``'max'``; None
            takes the evaluator's.
        memory_limit : int, str or None
            Bytes, or a size such as ``'4G'``; None takes the evaluator's (by default half of the
            machine's memory).

        Returns
        -------
        CalcResults
            The per-query values and the aggregates.

        Examples
        --------
        >>> ev = irmetrics.evaluator(['AP', 'P@5'], 'examples/qrels.txt')
        >>> ev.calc('examples/run_bm25.txt').aggregated
        {'AP': 0.4086513386923678, 'P@5': 0.5}
        """
        duplicates = duplicates or self.duplicates
        return self._evaluate(open_run(self, run, duplicates=duplicates, memory_limit=memory_limit), duplicates)

    def _evaluate(self, opened: Run | RunParts, duplicates: str) -> CalcResults:
        """The results of a run :func:`~.reading.open_run` opened: whole, or part by part (``duplicates``: the policy
        for the rows of arrays ranked block by block)."""
        if isinstance(opened, RunParts):
            return self._calc_parts(opened, duplicates)
        with errors.strict(self.strict):
            present = self.qrels.query_ids.lookup(opened.query_ids) >= 0
            diagnostics.check_queries(self.qrels, opened, present)
        values, run_values = self.engines.evaluate(opened, present)
        return CalcResults(self.query_ids, self.measures, values, run_values)

    def _calc_parts(self, parts: RunParts, duplicates: str) -> CalcResults:
        """The results of a run from its parts (see :class:`RunParts`: the values of the last pass count)."""
        values: list[QueryValues] = []
        tops: list[Run] = []
        with parts, errors.strict(self.strict):
            for one_pass in parts:
                values, tops = [], []
                for part in one_pass:
                    values += self._part_values(part, duplicates, tops)
            run_values = self.engines.run_values(merged_runs(tops)) if self.run_measures else None
            return self.combine(values, parts.source, run_values)

    def _part_values(self, part: Run | ArrayRun, duplicates: str, tops: list[Run]) -> Iterable[QueryValues]:
        """The per-query values of one part: a run of complete queries, or arrays ranked and measured where
        they live, block by block of users (:class:`~.array_runs.ArrayEvaluation`), each block's top ranking
        added to ``tops`` for the measures of a whole run (the only parts they are computed from)."""
        if isinstance(part, ArrayRun):
            return self.arrays.parts(part, duplicates, tops=tops if self.run_measures else None)
        self._refuse_whole_run_measures()
        return [self.engines.query_values(part)]

    def _refuse_whole_run_measures(self) -> None:
        if self.run_measures:
            whole = self.run_measures[0]
            raise MeasureError(f'{whole!r} is computed from a whole run ({whole.definition.scope!r}): it cannot be '
                               f'evaluated in parts (chunks, partitions); evaluate the run in memory')

    def accumulator(self, *, duplicates: str | None = None, sync: bool | None = None) -> Accumulator:
        """A streaming :class:`~.accumulator.Accumulator` of a run given in batches of users.

        What a training loop's evaluation calls: ``update(batch, offset=...)`` for each batch,
        ``compute()`` for the results of every user seen, ``reset()`` to start again.

        Parameters
        ----------
        duplicates : str or None
            As in :meth:`calc`; None takes the evaluator's.
        sync : bool or None
            Gather the users of every process of ``torch.distributed`` in ``compute()``; None: when it is
            initialised.

        Returns
        -------
        Accumulator
            An empty accumulator of this evaluator's measures and qrels.

        Examples
        --------
        >>> acc = irmetrics.evaluator(['P@5'], 'examples/qrels.txt').accumulator()
        >>> acc.update('examples/run_bm25.txt')
        >>> acc.compute().aggregated
        {'P@5': 0.5}
        """
        return Accumulator(self, duplicates=duplicates or self.duplicates, sync=sync)

    def calc_aggregate(self, run: Any, *, duplicates: str | None = None,
                       memory_limit: MemoryLimit = None) -> MeasureValues:
        """Each measure's aggregate value for ``run``.

        Parameters
        ----------
        run : any run input
            The ranking, as :meth:`calc` takes it.
        duplicates : str or None
            The duplicates policy for this run (None: the evaluator's).
        memory_limit : int, str or None
            The memory budget for this run (None: the evaluator's).

        Returns
        -------
        MeasureValues
            ``{measure name: value}`` (:class:`~.results.MeasureValues`), found by the measure too.

        Examples
        --------
        >>> irmetrics.evaluator(['RR'], 'examples/qrels.txt').calc_aggregate('examples/run_dense.txt')
        {'RR': 0.9}
        """
        return self.calc(run, duplicates=duplicates, memory_limit=memory_limit).aggregated

    def iter_calc(self, run: Any, *, duplicates: str | None = None,
                  memory_limit: MemoryLimit = None) -> Iterator[Metric]:
        """``Metric(query_id, measure, value)`` for every qrels query and measure.

        Parameters
        ----------
        run : any run input
            The ranking, read as :meth:`calc` reads it.
        duplicates : str or None
            The duplicates policy of this run, None for the evaluator's.
        memory_limit : int, str or None
            The memory budget of this run, None for the evaluator's.

        Returns
        -------
        Iterator[Metric]
            The values as :meth:`CalcResults.iter_metrics` gives them.

        Examples
        --------
        >>> metrics = irmetrics.evaluator(['P@5'], 'examples/qrels.txt').iter_calc('examples/run_dense.txt')
        >>> next(metrics)
        Metric(query_id='401', measure=P@5, value=0.8)
        """
        return self.calc(run, duplicates=duplicates, memory_limit=memory_limit).iter_metrics()

    # --- runs in parts of complete queries ---------------------------------------------------
    def calc_queries(self, run: Any, *, duplicates: str | None = None) -> QueryValues:
        """Per-query values of the qrels queries in ``run``, a part of a run that holds complete queries.

        The work is proportional to the part and its queries' judgments, whatever the size of the qrels;
        :meth:`combine` joins the parts.

        Parameters
        ----------
        run : any run input
            A part of a run: every row of each of its queries.
        duplicates : str or None
            The duplicates policy of the part (None: the evaluator's).

        Returns
        -------
        QueryValues
            ``codes`` (the queries' positions among the qrels' queries) and ``values`` (one row per
            query, one column per measure).

        Raises
        ------
        MeasureError
            For measures of a whole run, which cannot be computed from a part.

        Examples
        --------
        >>> ev = irmetrics.evaluator(['P@5'], 'examples/qrels.txt')
        >>> part = [doc for doc in irmetrics.read_trec_run('examples/run_bm25.txt') if doc.query_id == '402']
        >>> ev.calc_queries(part).values.tolist()
        [[0.4]]
        """
        self._refuse_whole_run_measures()
        return self.engines.query_values(to_run(run, duplicates=duplicates or self.duplicates, depth=self.depth))

    def combine(self, parts: Iterable[QueryValues], source: str = 'run',
                run_values: Mapping[Measure, float] | None = None, *, users: np.ndarray | None = None
                ) -> CalcResults:
        """The results of a whole run from the per-query values of its parts (any order).

        Qrels queries in no part score as queries missing from the run, with the warning a whole run gets
        (naming ``source``).

        Parameters
        ----------
        parts : iterable of QueryValues
            What :meth:`calc_queries` gives for each part (DataFrames of per-query values:
            :class:`~.partitions.Partitions`).
        source : str
            What the warnings call the run.
        run_values : mapping of Measure to float, optional
            The values of the measures of the whole run, computed apart.
        users : array of int, optional
            The qrels queries (codes, ascending) the results hold, the parts' among them; the others are left
            out, not scored as missing (an accumulator's own users, ``sync=False``).  None: every qrels query.

        Returns
        -------
        CalcResults
            The results of the whole run, the same numbers as :meth:`calc` of it.

        Raises
        ------
        InputError
            For a query in two parts (each part must hold complete queries).

        Examples
        --------
        >>> ev = irmetrics.evaluator(['AP', 'P@5'], 'examples/qrels.txt')
        >>> docs = list(irmetrics.read_trec_run('examples/run_bm25.txt'))
        >>> parts = [[d for d in docs if d.query_id <= '405'], [d for d in docs if d.query_id > '405']]
        >>> ev.combine(ev.calc_queries(part) for part in parts).aggregated
        {'AP': 0.4086513386923678, 'P@5': 0.5}
        """
        values = np.full((self.qrels.num_queries, len(self.measures)), np.nan)
        seen = np.zeros(self.qrels.num_queries, dtype=bool)
        for part in parts:
            ordered = np.sort(part.codes)
            twice = np.concatenate((part.codes[seen[part.codes]], ordered[1:][ordered[1:] == ordered[:-1]]))
            if len(twice):
                raise InputError(f'query {self.query_ids[int(twice[0])]!r} is in more than one part of the run: '
                                 f'each part (chunk, partition) must hold complete queries')
            seen[part.codes] = True
            values[part.codes] = part.values
        if users is None:
            with errors.strict(self.strict):
                diagnostics.check_present(self.qrels, seen, source)
            missing = self.engines.missing(np.flatnonzero(seen))
            values[missing.codes] = missing.values
            return CalcResults(self.query_ids, self.measures, values, run_values)
        with errors.strict(self.strict):
            if len(users):
                diagnostics.check_present(self.qrels.subset(users), seen[users], source)
        missing = self.engines.missing(np.flatnonzero(seen), among=users)
        values[missing.codes] = missing.values
        return CalcResults([self.query_ids[u] for u in users], self.measures, values[users], run_values)

    def __repr__(self) -> str:
        plan = '; '.join(f'{name}: {", ".join(map(repr, ms))}' for name, ms in self.engines.groups)
        return f'<Evaluator {plan} on {self.qrels!r}>'
