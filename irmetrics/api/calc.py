"""The public calculation functions: one call from measures, qrels and a run to results.

Each builds an :class:`~.evaluator.Evaluator` (see there for which queries count and how runs in
parts are evaluated) and evaluates one run with it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..data.items import Items
from .evaluator import Evaluator, MeasuresLike, MemoryLimit
from .results import CalcResults, MeasureValues, Metric


def evaluator(measures: MeasuresLike, qrels: Any, *, provider: str | None = None, strict: bool = False,
              dialect: str | None = None, items: Items | None = None, exclude: Any = None) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs.

    ``provider`` forces one engine; ``strict=True`` makes suspicious input an error instead of an
    :class:`~irmetrics.errors.IrmetricsWarning` (no run query in the qrels, qrels queries missing from
    the run, skipped blank lines, ...); ``dialect`` reads measure names in one dialect only
    (:func:`irmetrics.parse_measures`); ``items``: item popularity and features (:class:`irmetrics.Items`)
    for the measures beyond accuracy that read them; ``exclude``: the cells of runs given as arrays that no
    ranking holds (a users x items matrix like the judgments: a recommender's training interactions).
    """
    return Evaluator(measures, qrels, provider=provider, strict=strict, dialect=dialect, items=items, exclude=exclude)


def calc(measures: MeasuresLike, qrels: Any, run: Any, *, provider: str | None = None,
         duplicates: str = 'error', memory_limit: MemoryLimit = None, strict: bool = False,
         dialect: str | None = None, items: Items | None = None, exclude: Any = None) -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels``.

    ``duplicates`` and ``memory_limit``: see :meth:`Evaluator.calc`; the others: see :func:`evaluator`.
    """
    prepared = Evaluator(measures, qrels, provider=provider, strict=strict, dialect=dialect, items=items,
                         exclude=exclude)
    return prepared.calc(run, duplicates=duplicates, memory_limit=memory_limit)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any, *, provider: str | None = None,
                   duplicates: str = 'error', memory_limit: MemoryLimit = None, strict: bool = False,
                   dialect: str | None = None, items: Items | None = None, exclude: Any = None) -> MeasureValues:
    """Each measure's aggregate (:class:`~.results.MeasureValues`: ``{'AP': 0.28, 'nDCG@10': 0.62}``, found by
    measure too), e.g. ``calc_aggregate([AP, nDCG@10], qrels, run)``; options as :func:`calc`."""
    return calc(measures, qrels, run, provider=provider, duplicates=duplicates,
                memory_limit=memory_limit, strict=strict, dialect=dialect, items=items, exclude=exclude).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, *, provider: str | None = None,
              duplicates: str = 'error', memory_limit: MemoryLimit = None, strict: bool = False,
              dialect: str | None = None, items: Items | None = None, exclude: Any = None) -> Iterator[Metric]:
    """``Metric(query_id, measure, value)`` for every qrels query and measure; options as :func:`calc`."""
    return calc(measures, qrels, run, provider=provider, duplicates=duplicates,
                memory_limit=memory_limit, strict=strict, dialect=dialect, items=items,
                exclude=exclude).iter_metrics()
