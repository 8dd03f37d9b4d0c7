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
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from .. import errors
from ..algebra.measure import COMPUTED, Measure
from ..data import ids
from ..data.arrays import ArrayRun
from ..data.budget import memory_budget
from ..data.ids.index import IdIndex
from ..data.inputs import looks_like_data, open_run, run_chunks, to_qrels, to_run
from ..data.items import Items
from ..data.large import Reading, RunParts
from ..data.policies import DUPLICATES
from ..data.qrels import Qrels
from ..data.run import Run
from ..data.segments import distinct
from ..dialects import parse_measures
from ..errors import DuplicateError, InputError, MeasureError
from ..providers import PROVIDERS
from ..providers.base import Prepared
from . import diagnostics
from .accumulator import Accumulator
from .array_runs import ArrayEvaluation
from .gathering import Identity
from .results import CalcResults, MeasureValues, Metric, QueryValues

MeasuresLike = Any   # a Measure, a measure string, or an iterable of those

#: an Arrow table or polars DataFrame run with more rows than this, each query's rows together, is evaluated in
#: blocks of complete queries of about this many rows
TABLE_BLOCK_ROWS = 1 << 20

MemoryLimit = int | str | None
Plan = list[tuple[str, list[Measure], Prepared]]


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
    provider : str or None
        Force one engine (``'native'``, ``'pytrec_eval'``, ...); None lets the registry choose one for
        each measure.
    strict : bool
        True: suspicious input (see :mod:`.diagnostics`) is an error, not a warning.
    dialect : str or None
        How measure names are read (:func:`irmetrics.parse_measures`).
    items : Items or None
        What is known of the items (:class:`irmetrics.Items`: popularity, features), for the measures
        that read it.
    exclude : array or sparse matrix, optional
        A users x items matrix (dense or scipy.sparse, like the judgments) of the cells of a run given as
        arrays that no ranking holds, the training interactions of a recommender as a rule (the
        alternative to scoring them ``-inf``).
    duplicates : str
        What every run gets for a document retrieved twice for a query, unless its call says otherwise
        (see :meth:`calc`): ``'error'``, ``'first'``, ``'last'`` or ``'max'``.
    memory_limit : int, str or None
        The memory budget every run gets unless its call says otherwise (see :meth:`calc`).

    Examples
    --------
    >>> ev = irmetrics.Evaluator(['AP', 'nDCG@10'], 'examples/qrels.txt')
    >>> ev.calc_aggregate('examples/run_dense.txt')
    {'AP': 0.5395780706083595, 'nDCG@10': 0.6323960531343733}
    """

    def __init__(self, measures: MeasuresLike, qrels: Any, *, provider: str | None = None, strict: bool = False,
                 dialect: str | None = None, items: Items | None = None, exclude: Any = None,
                 duplicates: str = 'error', memory_limit: MemoryLimit = None):
        """Parse the measures, read and check the qrels (the parameters: see the class docstring)."""
        self.strict = strict
        self.duplicates = DUPLICATES.check(duplicates)
        self.memory_limit = memory_limit
        self.provider = provider
        with errors.strict(strict):
            self.all_measures: list[Measure] = _parse_or_swapped(measures, dialect)
            self.qrels: Qrels = to_qrels(qrels)
            if items is not None:
                self.qrels = dataclasses.replace(self.qrels, items=items)
            _check_qrels(self.qrels, self.all_measures)
            _check_items(items, self.all_measures)
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
        #: (provider name, its measures) for each provider the measures go to
        self.groups = [(p.name, ms) for p, ms in PROVIDERS.resolve(self.all_measures, provider)]
        self.arrays = ArrayEvaluation(self, exclude)
        self._plan: Plan | None = None
        self._run_plan: Plan | None = None
        self._native: Prepared | None = None
        self._query_ids: list[str] | None = None
        self._query_index: IdIndex | None = None
        self._identity: Identity | None = None

    @property
    def identity(self) -> Identity:
        """What the processes of a distributed evaluation compare before joining their values (the measures
        in order, hashes of the judgments, items and excluded cells: :class:`~.gathering.Identity`), computed
        once."""
        if self._identity is None:
            self._identity = Identity.of(self)
        return self._identity

    @property
    def plan(self) -> Plan:
        """(provider name, its measures, its prepared evaluator) for each provider used."""
        if self._plan is None:
            self._plan = self._prepare(self.qrels)
        return self._plan

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, '_plan': None, '_run_plan': None, '_native': None, '_query_ids': None,
                '_query_index': None}

    def _prepare(self, qrels: Qrels) -> Plan:
        return [(name, ms, PROVIDERS.get(name).prepare(ms, qrels)) for name, ms in self.groups]

    @property
    def query_ids(self) -> list[str]:
        """The qrels' query ids: the queries every result lists, in this order."""
        if self._query_ids is None:
            self._query_ids = self.qrels.query_ids.to_list()
        return self._query_ids

    def codes_of(self, query_ids: Any) -> np.ndarray:
        """Index of each of ``query_ids`` (an id column) among the qrels' queries, -1 where absent;
        by fingerprint, so the cost does not grow with the number of qrels queries."""
        if self._query_index is None:
            self._query_index = IdIndex(self.qrels.query_ids)
        return self._query_index.lookup(ids.column(query_ids))

    # --- whole runs ---------------------------------------------------------------------------
    def calc(self, run: Any, *, duplicates: str | None = None, memory_limit: MemoryLimit = None) -> CalcResults:
        """Per-query values and aggregates of ``run``.

        The measures of a whole run (scope ``'run'``: Coverage, Gini) give one value each.  A run file
        (TREC or Parquet) larger than ``memory_limit`` is evaluated in chunks of complete queries, with
        the same numbers: see docs/scaling.md.

        Parameters
        ----------
        run : any run input
            The ranking (see :func:`irmetrics.to_run`), or what :meth:`open_run` opened.
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
        return self._evaluate(self.open_run(run, duplicates=duplicates, memory_limit=memory_limit), duplicates)

    def open_run(self, run: Any, *, duplicates: str | None = None, memory_limit: MemoryLimit = None
                 ) -> Run | RunParts:
        """``run`` read as :meth:`calc` reads it: a whole :class:`Run`, or :class:`RunParts` of complete queries
        (a run file larger than ``memory_limit``, a large table grouped by query, arrays ranked block by block
        of users), for a caller that reads and evaluates in two steps: :meth:`calc` takes what it gives."""
        reading = Reading(memory_budget(memory_limit or self.memory_limit), duplicates or self.duplicates,
                          self.depth, TABLE_BLOCK_ROWS, whole=bool(self.run_measures), judgments=self.qrels,
                          exclude=self.arrays.exclude)
        with errors.strict(self.strict):
            return open_run(run, reading)

    def _evaluate(self, opened: Run | RunParts, duplicates: str) -> CalcResults:
        """The results of a run :meth:`open_run` opened: whole, or part by part (``duplicates``: the policy
        for the rows of arrays ranked block by block)."""
        if isinstance(opened, RunParts):
            return self._calc_parts(opened, duplicates)
        with errors.strict(self.strict):
            present = self.qrels.query_ids.lookup(opened.query_ids) >= 0
            diagnostics.check_queries(self.qrels, opened, present)
        computed = _evaluated(self.plan, opened)
        values = _per_query(self.measures, computed, present)
        return CalcResults(self.query_ids, self.measures, values, {m: float(computed[m]) for m in self.run_measures})

    def calc_in_chunks(self, source: str | os.PathLike[str], *, duplicates: str | None = None,
                       memory_limit: MemoryLimit = None) -> CalcResults:
        """:meth:`calc` of a run file read in chunks of complete queries, whatever its size.

        What :meth:`calc` does for a file the budget cannot hold: chunks of about a quarter of
        ``memory_limit`` each, and the same numbers.

        Parameters
        ----------
        source : str or os.PathLike
            The run file (TREC or Parquet).
        duplicates : str or None
            The duplicates policy (None: the evaluator's).
        memory_limit : int, str or None
            The budget the chunks are cut to (None: the evaluator's).

        Returns
        -------
        CalcResults
            The results, as :meth:`calc` gives them.

        Raises
        ------
        MeasureError
            For a measure of a whole run (Coverage, Gini), which cannot be computed in parts.

        Examples
        --------
        >>> ev = irmetrics.evaluator(['AP', 'P@5'], 'examples/qrels.txt')
        >>> ev.calc_in_chunks('examples/run_bm25.txt', memory_limit='64K').aggregated
        {'AP': 0.4086513386923678, 'P@5': 0.5}
        """
        duplicates = duplicates or self.duplicates
        return self._calc_parts(run_chunks(source, memory_budget(memory_limit or self.memory_limit), duplicates),
                                duplicates)

    def _calc_parts(self, parts: RunParts, duplicates: str) -> CalcResults:
        """The results of a run from its parts (see :class:`RunParts`: the values of the last pass count)."""
        values: list[QueryValues] = []
        with parts, errors.strict(self.strict):
            self._refuse_whole_run_measures()
            for one_pass in parts:
                values = [found for part in one_pass for found in self._part_values(part, duplicates)]
            return self.combine(values, parts.source)

    def _part_values(self, part: Run | ArrayRun, duplicates: str) -> Iterable[QueryValues]:
        """The per-query values of one part: a run of complete queries, or arrays ranked and measured where
        they live, block by block of users (:class:`~.array_runs.ArrayEvaluation`)."""
        if isinstance(part, ArrayRun):
            return self.arrays.parts(part, duplicates)
        return [self.query_values(part)]

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

    def run_values_of(self, run: Run) -> dict[Measure, float]:
        """The values of the measures of a whole run (scope ``'run'``) for ``run``, from engines prepared for
        them alone (the per-query measures are not computed)."""
        if self._run_plan is None:
            self._run_plan = [(name, mine, PROVIDERS.get(name).prepare(mine, self.qrels)) for name, ms in self.groups
                              if (mine := [m for m in ms if m in self.run_measures])]
        computed = _evaluated(self._run_plan, run)
        return {m: float(computed[m]) for m in self.run_measures}

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
        return self.query_values(to_run(run, duplicates=duplicates or self.duplicates, depth=self.depth))

    def query_values(self, run: Run) -> QueryValues:
        """The values of the per-query measures of the qrels queries in ``run`` (a part of a run, or all of it)."""
        codes = distinct(self.codes_of(run.query_ids))
        return self._calc_subset(codes[codes >= 0], run)

    def combine(self, parts: Iterable[QueryValues], source: str = 'run',
                run_values: Mapping[Measure, float] | None = None) -> CalcResults:
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
        with errors.strict(self.strict):
            diagnostics.check_present(self.qrels, seen, source)
        missing = self.calc_missing(np.flatnonzero(seen))
        values[missing.codes] = missing.values
        return CalcResults(self.query_ids, self.measures, values, run_values)

    def calc_missing(self, present: np.ndarray) -> QueryValues:
        """Values of the qrels queries not among ``present`` (query codes, as :class:`QueryValues` has
        them): queries missing from the run (0, or computed on the empty ranking for NumQ and NumRel)."""
        absent = np.ones(self.qrels.num_queries, dtype=bool)
        absent[np.asarray(present, dtype=np.int64)] = False
        return self._calc_subset(np.flatnonzero(absent), Run.from_columns([], [], []))

    def _calc_subset(self, codes: np.ndarray, run: Run) -> QueryValues:
        """Values of the qrels queries ``codes`` (ascending) in ``run``, from an evaluator of just those queries."""
        return QueryValues(codes.astype(np.int64), self.values_of(self.measures, codes, run))

    def values_of(self, measures: list[Measure], codes: np.ndarray, run: Run) -> np.ndarray:
        """The (query x measure) values of some of the per-query ``measures`` for the qrels queries ``codes``
        (ascending) in ``run``, from engines prepared on just those queries."""
        if len(codes) == 0:
            return np.zeros((0, len(measures)))
        qrels = self.qrels.subset(codes)
        wanted = set(measures)
        plan = [(name, mine, PROVIDERS.get(name).prepare(mine, qrels))
                for name, ms in self.groups if (mine := [m for m in ms if m in wanted])]
        present = qrels.query_ids.lookup(run.query_ids) >= 0
        return _per_query(measures, _evaluated(plan, run), present)

    # --- what the engines give beyond measures ---------------------------------------------------
    def relevance_strings(self, run: Any, depth: int, judged_only: bool = False) -> list[str]:
        """trec_eval's ``relstring`` of each qrels query for ``run``, in the qrels' order.

        From the engine that prepared these qrels for the measures, if it can, else from the native engine
        (see :meth:`~irmetrics.providers.base.Prepared.relevance_strings`).

        Parameters
        ----------
        run : any run input
            The ranking.
        depth : int
            How many documents of each ranking are shown.
        judged_only : bool
            Show the judged documents only.

        Returns
        -------
        list of str
            One character per document: the grade 0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` judged
            negative; '' for a query missing from the run.

        Examples
        --------
        >>> irmetrics.evaluator(['P@5'], 'examples/qrels.txt').relevance_strings('examples/run_bm25.txt', 5)[:3]
        ['2-231', '02-3-', '-1-2-']
        """
        return self._capable('relevance_strings').relevance_strings(to_run(run), depth, judged_only)

    def roc_curves(self, run: Any, rel: int = 1, cutoff: int | None = None,
                   duplicates: str = 'error') -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each qrels query's ROC curve for ``run``, as :func:`irmetrics.roc_curve` gives it.

        Parameters
        ----------
        run : any run input
            The ranking.
        rel : int
            The lowest relevant grade.
        cutoff : int or None
            The documents of each ranking read (None: all).
        duplicates : str
            The duplicates policy of the run.

        Returns
        -------
        dict of str to tuple of two numpy.ndarray
            ``{query_id: (fpr, tpr)}``.

        Examples
        --------
        >>> ev = irmetrics.evaluator(['AUC@5'], 'examples/qrels.txt')
        >>> fpr, tpr = ev.roc_curves('examples/run_bm25.txt', cutoff=5)['402']
        >>> fpr.round(4).tolist(), tpr.round(4).tolist()
        ([0.0, 0.0476, 0.0476, 0.0476, 1.0], [0.0, 0.0, 0.0526, 0.1053, 1.0])
        """
        return self._capable('roc_curves').roc_curves(to_run(run, duplicates=duplicates), rel, cutoff)

    def _capable(self, capability: str) -> Prepared:
        """A prepared engine that has ``capability`` (a method of :class:`Prepared`): one of the plan's,
        else the native engine prepared on these qrels (once)."""
        for _name, _measures, prepared in self.plan:
            if getattr(type(prepared), capability) is not getattr(Prepared, capability):
                return prepared
        if self._native is None:
            self._native = PROVIDERS.get('native').prepare([], self.qrels)
        return self._native

    def __repr__(self) -> str:
        plan = '; '.join(f'{name}: {", ".join(map(repr, ms))}' for name, ms in self.groups)
        return f'<Evaluator {plan} on {self.qrels!r}>'


def _check_items(items: Items | None, measures: list[Measure]) -> None:
    """A measure that reads what is known of the items (popularity, features) needs it given."""
    for m in measures:
        missing = [what for what in m.definition.items if items is None or not items.has(what)]
        if missing:
            example = ', '.join(f'{what}=...' for what in missing)
            raise MeasureError(f'{m!r} reads item {" and ".join(missing)}: give them as items=irmetrics.Items('
                               f'{example})')


def _evaluated(plan: Plan, run: Run) -> dict[Measure, Any]:
    """Every measure of ``plan`` for ``run``, each engine reading the run once: per-query values (aligned
    with the qrels the engine was prepared on) and the values of the measures of a whole run."""
    computed: dict[Measure, Any] = {}
    for _name, _group, prepared in plan:
        computed.update(prepared.evaluate(run))
    return computed


def _per_query(measures: list[Measure], computed: Mapping[Measure, Any], present: np.ndarray) -> np.ndarray:
    """The (query x measure) matrix of the per-query ``measures`` of ``computed``, the queries the run lacks
    (not ``present``) filled with each measure's missing value."""
    values = np.empty((len(present), len(measures)), dtype=np.float64)
    for j, m in enumerate(measures):
        col = np.asarray(computed[m], dtype=np.float64)
        if m.definition.missing_value is not COMPUTED:
            col = np.where(present, col, m.definition.missing_value)
        values[:, j] = col
    return values


def _parse_or_swapped(measures: Any, dialect: str | None) -> list[Measure]:
    """The measures, or a MeasureError saying the arguments look swapped when what was given as the
    measures is data (a file, a Run or Qrels, a dict of dicts, a table); no measure at all is an error too
    (an evaluation of nothing would be an empty result, easily taken for one of nothing to report)."""
    try:
        parsed = parse_measures(measures, dialect=dialect)
    except MeasureError as ex:
        if looks_like_data(measures):
            raise MeasureError(f'{ex}; the arguments look swapped: the measures come first, then the qrels and '
                               f'the run: calc(measures, qrels, run)') from None
        raise
    if not parsed:
        raise MeasureError(f'no measure to evaluate (measures={measures!r}): give at least one, as in '
                           f"calc_aggregate(['AP', 'nDCG@10'], qrels, run)")
    return parsed


def _check_qrels(qrels: Qrels, measures: list[Measure]) -> None:
    """Qrels the measures can be evaluated on: some judgment, and one grade per document for the
    measures that read one (see :meth:`Qrels.from_columns`)."""
    if len(qrels) == 0:
        raise InputError('the qrels hold no judgment: there is no query to evaluate (trec_eval refuses an '
                         'empty qrels file too)', qrels.source)
    one_grade = [m for m in measures if not m.definition.subtopics]
    if qrels.judged_twice is not None and one_grade:
        problem, line = qrels.judged_twice
        raise DuplicateError(f'{problem}: {one_grade[0]!r} reads one grade per document and trec_eval refuses '
                             f'such qrels; if the iterations are subtopics (diversity qrels), read the qrels with '
                             f'duplicates="max" (--qrels-duplicates max) to use each document\'s highest grade',
                             qrels.source, line)
