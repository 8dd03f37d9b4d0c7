"""The public calculation functions: one call from measures, qrels and a run to results.

Each takes the measures, the qrels and the run, then the shared options (:mod:`.options`: provider,
duplicates, items, exclude, strict, dialect, memory_limit), builds an :class:`~.evaluator.Evaluator` (see
there for which queries count and how runs in parts are evaluated) and evaluates the run with it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .evaluator import Evaluator, MeasuresLike
from .options import Options
from .results import CalcResults, MeasureValues, Metric

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .options import EvaluationOptions


def evaluator(measures: MeasuresLike, qrels: Any, **options: Unpack[EvaluationOptions]) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs (the qrels are read once).

    ``options``: the shared options (:mod:`irmetrics.api.options`); ``duplicates`` and ``memory_limit``
    become what every run gets.

    >>> ev = irmetrics.evaluator(['AP', 'nDCG@10'], 'examples/qrels.txt')
    >>> round(ev.calc_aggregate('examples/run_bm25.txt')['AP'], 4)
    0.4087
    """
    checked = Options.of(options, 'evaluator')
    return Evaluator(measures, qrels, **checked.evaluator_options(), **checked.run_options())


def calc(measures: MeasuresLike, qrels: Any, run: Any, **options: Unpack[EvaluationOptions]) -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels``.

    ``options``: the shared options (:mod:`irmetrics.api.options`).

    >>> results = irmetrics.calc(['AP', 'P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    >>> results.query_ids[:3], round(results.aggregated['P@5'], 4)
    (['401', '402', '403'], 0.5)
    """
    return evaluator(measures, qrels, **options).calc(run)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any,
                   **options: Unpack[EvaluationOptions]) -> MeasureValues:
    """Each measure's aggregate (:class:`~.results.MeasureValues`, keyed by the measure's name and found by
    the measure too); ``options`` as :func:`calc`.

    >>> irmetrics.calc_aggregate(['P@5', 'RR'], 'examples/qrels.txt', 'examples/run_bm25.txt')
    {'P@5': 0.5, 'RR': 0.85}
    """
    return calc(measures, qrels, run, **options).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, **options: Unpack[EvaluationOptions]) -> Iterator[Metric]:
    """``Metric(query_id, measure, value)`` for every qrels query and measure; ``options`` as :func:`calc`.

    >>> next(irmetrics.iter_calc(['P@5'], 'examples/qrels.txt', 'examples/run_bm25.txt'))
    Metric(query_id='401', measure=P@5, value=0.8)
    """
    return calc(measures, qrels, run, **options).iter_metrics()
