"""The engines an :class:`~.evaluator.Evaluator`'s measures go to, prepared on its qrels: the plumbing behind it.

This is the api room's internal interface, not public API: the evaluator delegates to it, and the rooms built
on the evaluator (the accumulator, arrays, Dask, the ``trec_eval`` command, curves) reach it as
``evaluator.engines``.  It prepares each engine once, on the whole qrels or on just the queries of a part
of a run, computes the per-query values (the queries a run lacks filled with each measure's missing value)
and the values of the measures of a whole run, and offers what the engines give beyond measures
(``relevance_strings``, ``roc_curves``).  It pickles without its prepared engines.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..algebra.measure import COMPUTED, Measure
from ..data import ids
from ..data.ids.index import IdIndex
from ..data.inputs import to_run
from ..data.qrels import Qrels
from ..data.run import Run
from ..data.segments import distinct
from ..providers import PROVIDERS
from ..providers.base import Prepared
from .results import QueryValues

#: (provider name, its measures, its prepared evaluator) for each provider used
Plan = list[tuple[str, list[Measure], Prepared]]


class Engines:
    """The measures of an evaluator given to their engines, prepared on its qrels when first needed."""

    def __init__(self, qrels: Qrels, measures: list[Measure], run_measures: list[Measure],
                 groups: list[tuple[str, list[Measure]]]):
        """``measures``: the per-query ones (the columns of every per-query matrix); ``run_measures``: those of
        a whole run; ``groups``: (provider name, its measures) as the registry resolved them."""
        self.qrels = qrels
        self.measures = measures
        self.run_measures = run_measures
        self.groups = groups
        self._plan: Plan | None = None
        self._run_plan: Plan | None = None
        self._native: Prepared | None = None
        self._query_index: IdIndex | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, '_plan': None, '_run_plan': None, '_native': None, '_query_index': None}

    @property
    def plan(self) -> Plan:
        """(provider name, its measures, its prepared evaluator) for each provider used, on the whole qrels."""
        if self._plan is None:
            self._plan = self._prepared(self.measures + self.run_measures, self.qrels)
        return self._plan

    def _prepared(self, measures: list[Measure], qrels: Qrels) -> Plan:
        """The plan of some of the measures (in each provider's order) on ``qrels``."""
        wanted = set(measures)
        return [(name, mine, PROVIDERS.get(name).prepare(mine, qrels))
                for name, ms in self.groups if (mine := [m for m in ms if m in wanted])]

    def evaluate(self, run: Run, present: np.ndarray) -> tuple[np.ndarray, dict[Measure, float]]:
        """The (query x measure) values of the per-query measures of a whole ``run`` (the queries not
        ``present`` filled) and the values of the measures of a whole run, from one reading by each engine."""
        computed = evaluated(self.plan, run)
        return per_query(self.measures, computed, present), {m: float(computed[m]) for m in self.run_measures}

    def run_values(self, run: Run) -> dict[Measure, float]:
        """The values of the measures of a whole run for ``run``, from engines prepared for them alone."""
        if self._run_plan is None:
            self._run_plan = self._prepared(self.run_measures, self.qrels)
        computed = evaluated(self._run_plan, run)
        return {m: float(computed[m]) for m in self.run_measures}

    def codes_of(self, query_ids: Any) -> np.ndarray:
        """Index of each of ``query_ids`` (an id column) among the qrels' queries, -1 where absent;
        by fingerprint, so the cost does not grow with the number of qrels queries."""
        if self._query_index is None:
            self._query_index = IdIndex(self.qrels.query_ids)
        return self._query_index.lookup(ids.column(query_ids))

    def query_values(self, run: Run) -> QueryValues:
        """The values of the per-query measures of the qrels queries in ``run`` (a part of a run, or all of it)."""
        codes = distinct(self.codes_of(run.query_ids))
        codes = codes[codes >= 0].astype(np.int64)
        return QueryValues(codes, self.values_of(self.measures, codes, run))

    def missing(self, present: np.ndarray, among: np.ndarray | None = None) -> QueryValues:
        """Values of the qrels queries not among ``present`` (query codes, as :class:`QueryValues` has
        them), of those ``among`` (codes; None: every qrels query): queries missing from the run (0, or
        computed on the empty ranking for NumQ and NumRel)."""
        absent = np.ones(self.qrels.num_queries, dtype=bool)
        if among is not None:
            absent[:] = False
            absent[np.asarray(among, dtype=np.int64)] = True
        absent[np.asarray(present, dtype=np.int64)] = False
        codes = np.flatnonzero(absent).astype(np.int64)
        return QueryValues(codes, self.values_of(self.measures, codes, Run.from_columns([], [], [])))

    def values_of(self, measures: list[Measure], codes: np.ndarray, run: Run) -> np.ndarray:
        """The (query x measure) values of some of the per-query ``measures`` for the qrels queries ``codes``
        (ascending) in ``run``, from engines prepared on just those queries."""
        if len(codes) == 0:
            return np.zeros((0, len(measures)))
        qrels = self.qrels.subset(codes)
        present = qrels.query_ids.lookup(run.query_ids) >= 0
        return per_query(measures, evaluated(self._prepared(measures, qrels), run), present)

    # --- what the engines give beyond measures ---------------------------------------------------
    def relevance_strings(self, run: Any, depth: int, judged_only: bool = False) -> list[str]:
        """trec_eval's ``relstring`` of each qrels query for ``run``, in the qrels' order: one character per
        document of the top ``depth`` (the grade 0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` judged
        negative), '' for a query missing from the run; ``judged_only`` shows the judged documents only.
        From the engine that prepared these qrels for the measures, if it can, else from the native engine
        (see :meth:`~irmetrics.providers.base.Prepared.relevance_strings`).

        >>> ev = irmetrics.evaluator(['P@5'], 'examples/qrels.txt')
        >>> ev.engines.relevance_strings('examples/run_bm25.txt', 5)[:3]
        ['2-231', '02-3-', '-1-2-']
        """
        return self._capable('relevance_strings').relevance_strings(to_run(run), depth, judged_only)

    def roc_curves(self, run: Any, rel: int = 1, cutoff: int | None = None,
                   duplicates: str = 'error') -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each qrels query's ROC curve for ``run``, ``{query_id: (fpr, tpr)}``, as
        :func:`irmetrics.roc_curve` gives it (``rel``: the lowest relevant grade; ``cutoff``: the documents
        of each ranking read, None for all).

        >>> ev = irmetrics.evaluator(['AUC@5'], 'examples/qrels.txt')
        >>> fpr, tpr = ev.engines.roc_curves('examples/run_bm25.txt', cutoff=5)['402']
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


def evaluated(plan: Plan, run: Run) -> dict[Measure, Any]:
    """Every measure of ``plan`` for ``run``, each engine reading the run once: per-query values (aligned
    with the qrels the engine was prepared on) and the values of the measures of a whole run."""
    computed: dict[Measure, Any] = {}
    for _name, _group, prepared in plan:
        computed.update(prepared.evaluate(run))
    return computed


def per_query(measures: list[Measure], computed: Mapping[Measure, Any], present: np.ndarray) -> np.ndarray:
    """The (query x measure) matrix of the per-query ``measures`` of ``computed``, the queries the run lacks
    (not ``present``) filled with each measure's missing value."""
    values = np.empty((len(present), len(measures)), dtype=np.float64)
    for j, m in enumerate(measures):
        col = np.asarray(computed[m], dtype=np.float64)
        if m.definition.missing_value is not COMPUTED:
            col = np.where(present, col, m.definition.missing_value)
        values[:, j] = col
    return values
