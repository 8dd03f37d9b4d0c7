"""irmetrics as a provider of ir_measures, first in its default pipeline (see :func:`install`).

ir_measures hands each provider its own measure objects and asks which ones it supports.  This
provider takes every measure of ir_measures' vocabulary that irmetrics computes with the same
meaning: the measure's name and parameters, written in the syntax both libraries share
(``P(rel=2)@5``), are parsed by :func:`irmetrics.parse_measure`.  It declines, so that
ir_measures falls back to its own providers, the measures irmetrics cannot parse (a required
parameter missing: the diversity measures without a cutoff), parameter values irmetrics refuses
(``p=1``), and measures defined at run time with ``ir_measures.define``.

It keeps ir_measures' contract for which queries are reported:

* a qrels query the run names (a row, or a key of a dict of dicts even if it holds no document) gets
  irmetrics' value, in a :class:`ir_measures.Metric` holding the very measure object it was asked for;
* a qrels query the run does not name gets the measure's ``DEFAULT`` (0, NumQ and NumRel included),
  as ir_measures' base evaluator fills it; a query only in the run is not reported;
* a measure irmetrics leaves undefined on a query (``Accuracy`` without a relevant document retrieved)
  is not reported there, nor for queries missing from the run, when only such measures are asked, as
  ir_measures' accuracy provider reports them; asked along with other measures, those queries get the
  ``DEFAULT`` (0), as ir_measures' fallback evaluator fills them (PyTerrier's tables need a value for
  every query).  No NaN is yielded for them either way.

Where the numbers differ from ir_measures' default pipeline, one of irmetrics' conventions is why
(docs/integrations.md lists them): tied scores ranked by document id descending for every measure
(ir_measures' msmarco, judged, compat, cwl_eval and accuracy providers rank ties otherwise), 0 where
pyndeval or pytrec_eval divide 0 by 0, trec_eval's ``-J`` for ``judged_only`` in every measure, and a
run retrieving a document twice refused unless :func:`install` was given a ``duplicates`` policy.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

import ir_measures
from ir_measures import Metric
from ir_measures.measures import registry as ir_measures_registry
from ir_measures.providers.base import NOT_PROVIDED

from ..algebra.measure import Measure
from ..api.calc import evaluator
from ..api.evaluator import Evaluator as IrmetricsEvaluator
from ..data.inputs import to_qrels, to_run
from ..data.policies import DUPLICATES
from ..dialects import parse_measure
from ..errors import DuplicateError, MeasureError

NAME = 'irmetrics'


def translate(measure: Any) -> Measure | None:
    """irmetrics' measure for one of ir_measures' own measure objects, or None if irmetrics declines it."""
    builtin = ir_measures_registry.get(measure.NAME)
    if builtin is None or type(builtin) is not type(measure):
        return None                     # defined at run time (ir_measures.define): ir_measures computes it
    arguments = ','.join(f'{key}={value!r}' for key, value in measure.params.items() if value is not NOT_PROVIDED)
    try:
        return parse_measure(f'{measure.NAME}({arguments})')
    except MeasureError:
        return None


class IrmetricsProvider(ir_measures.providers.Provider):
    """The measures of ir_measures that irmetrics computes (see the module docstring)."""

    NAME = NAME

    def __init__(self) -> None:
        super().__init__()      # type: ignore[no-untyped-call]  # ir_measures is untyped (the exclude misses super())
        self.duplicates = 'error'

    def supports(self, measure: Any) -> bool:
        measure.validate_params()
        return translate(measure) is not None

    def _evaluator(self, measures: Iterable[Any], qrels: Any) -> IrmetricsMeasuresEvaluator:
        return IrmetricsMeasuresEvaluator(list(measures), qrels, self.duplicates)

    def install_instructions(self) -> str:
        return 'pip install irmetrics'


class IrmetricsMeasuresEvaluator(ir_measures.providers.Evaluator):
    """ir_measures' evaluator interface over an :class:`irmetrics.Evaluator` (qrels prepared once)."""

    def __init__(self, measures: list[Any], qrels: Any, duplicates: str):
        self._theirs: dict[Measure, list[Any]] = {}      # one irmetrics measure may stand for several of theirs
        # ir_measures hands its providers the measures as a set (whose order changes with each interpreter's
        # hash seed); the order they were asked in is kept by the pipeline's wrapper (install), so that
        # PyTerrier's columns come in that order; measures asked otherwise come by name, in one order
        asked = {m: i for i, m in enumerate(ASKED.get() or ())}
        for theirs in sorted(measures, key=lambda m: (asked.get(m, len(asked)), str(m))):
            ours = translate(theirs)
            if ours is None:
                raise ValueError(f'unsupported measure {theirs}')
            self._theirs.setdefault(ours, []).append(theirs)
        prepared = to_qrels(qrels)
        self._query_ids = set(prepared.query_ids.to_list())
        super().__init__(measures, self._query_ids)
        self._duplicates = duplicates
        # Accuracy asked alone is reported as ir_measures' accuracy provider reports it (defined queries
        # only); asked with other measures, ir_measures' fallback evaluator fills its other queries with 0
        self._leaves_out_undefined = all(ours.definition.skips_undefined for ours in self._theirs)
        # ir_measures evaluates empty qrels to nothing; irmetrics refuses them
        self._evaluator: IrmetricsEvaluator | None = evaluator(list(self._theirs), prepared) if len(prepared) else None

    def iter_calc(self, run: Any) -> Iterator[Metric]:
        """The values of ``run``; the queries left without one get the measure's ``DEFAULT`` from
        ir_measures' base evaluator, unless every measure is one that leaves undefined queries out."""
        if self._leaves_out_undefined:
            return self._iter_calc(run)
        return super().iter_calc(run)

    def _iter_calc(self, run: Any) -> Iterator[Metric]:
        """irmetrics' values for the qrels queries the run names, where they are defined."""
        named = _named_queries_without_documents(run)
        try:
            run = to_run(run, duplicates=self._duplicates)
        except DuplicateError as error:        # say where the policy is chosen when ir_measures is the caller
            raise DuplicateError(f'{error.problem} (through ir_measures: irmetrics.use_in_ir_measures(duplicates=...))',
                                 error.source, error.line) from None
        reported = (set(run.query_ids.to_list()) | named) & self._query_ids
        if self._evaluator is None or not (len(run) or reported):
            return
        for metric in self._evaluator.calc(run).iter_metrics():
            if metric.query_id in reported:
                for theirs in self._theirs[metric.measure]:
                    yield Metric(metric.query_id, theirs, metric.value)


def _named_queries_without_documents(run: Any) -> set[str]:
    """Queries a dict-of-dicts run names with no document: ir_measures' providers evaluate them as
    empty rankings (NumQ 1), not as missing queries."""
    return {str(query_id) for query_id, docs in run.items() if not docs} if isinstance(run, dict) else set()


PROVIDER = IrmetricsProvider()


#: The measures in the order the caller of ``ir_measures.DefaultPipeline`` asked for them, while the
#: pipeline builds its evaluators (it turns them into a set before a provider sees them).
ASKED: ContextVar[tuple[Any, ...] | None] = ContextVar('irmetrics_asked_measures', default=None)


def _keeping_the_order(evaluator: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """The pipeline's evaluator, noting the order of the measures asked for (:data:`ASKED`)."""
    def wrapped(measures: Any, qrels: Any) -> Any:
        measures = list(measures)
        token = ASKED.set(tuple(measures))
        try:
            return evaluator(measures, qrels)
        finally:
            ASKED.reset(token)
    wrapped.irmetrics_wrapper = True            # type: ignore[attr-defined]
    return wrapped


def install(duplicates: str = 'error') -> None:
    """Register :data:`PROVIDER` in ir_measures and put it first in ``ir_measures.DefaultPipeline``, whose
    evaluators then note the order of the measures asked for (:func:`_keeping_the_order`)."""
    PROVIDER.duplicates = DUPLICATES.check(duplicates)
    uninstall()
    ir_measures.providers.register(PROVIDER)
    pipeline = ir_measures.DefaultPipeline
    pipeline.providers.insert(0, PROVIDER)
    pipeline._evaluator = _keeping_the_order(pipeline._evaluator)      # type: ignore[method-assign]


def uninstall() -> None:
    """Take :data:`PROVIDER` out of ir_measures' registry and default pipeline (nothing if it is not there)."""
    if getattr(vars(ir_measures.DefaultPipeline).get('_evaluator'), 'irmetrics_wrapper', False):
        del ir_measures.DefaultPipeline._evaluator
    pipeline = ir_measures.DefaultPipeline.providers
    pipeline[:] = [p for p in pipeline if p is not PROVIDER]
    if ir_measures.providers.registry.get(NAME) is PROVIDER:
        del ir_measures.providers.registry[NAME]
