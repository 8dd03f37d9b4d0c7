"""The public calculation functions: one call from measures, qrels and a run to results.

Each builds an :class:`~.evaluator.Evaluator` (see there for which queries count and how runs in
parts are evaluated) and evaluates one run with it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..algebra.measure import Measure
from .evaluator import Evaluator, MeasuresLike, MemoryLimit
from .results import CalcResults, Metric


def evaluator(measures: MeasuresLike, qrels: Any, provider: str | None = None, strict: bool = False) -> Evaluator:
    """An :class:`Evaluator` of ``measures`` against ``qrels``, reusable across runs.

    ``strict=True`` makes suspicious input an error instead of an :class:`~irmetrics.errors.IrmetricsWarning`
    (no run query in the qrels, qrels queries missing from the run, skipped blank lines, ...).
    """
    return Evaluator(measures, qrels, provider, strict)


def calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
         duplicates: str = 'error', memory_limit: MemoryLimit = None, strict: bool = False) -> CalcResults:
    """Per-query values and aggregates of ``measures`` for ``run`` against ``qrels``.

    ``memory_limit``: see :meth:`Evaluator.calc`; ``strict``: see :func:`evaluator`.
    """
    return Evaluator(measures, qrels, provider, strict).calc(run, duplicates, memory_limit)


def calc_aggregate(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
                   duplicates: str = 'error', memory_limit: MemoryLimit = None,
                   strict: bool = False) -> dict[Measure, float]:
    """``{measure: aggregate}``, e.g. ``calc_aggregate([AP, nDCG@10], qrels, run)``."""
    return calc(measures, qrels, run, provider, duplicates, memory_limit, strict).aggregated


def iter_calc(measures: MeasuresLike, qrels: Any, run: Any, provider: str | None = None,
              duplicates: str = 'error', memory_limit: MemoryLimit = None,
              strict: bool = False) -> Iterator[Metric]:
    """``Metric(query_id, measure, value)`` for every qrels query and measure."""
    return calc(measures, qrels, run, provider, duplicates, memory_limit, strict).iter_metrics()

