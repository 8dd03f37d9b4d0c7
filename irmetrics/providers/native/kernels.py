"""The table of native kernels, keyed by the measure's definition (``@kernel(nDCG)``), never by its spelling.

A kernel holds only its maths and reads the shared :class:`~.table.RankedTable` of a run,
``kernel(measure, table)``; what it returns follows the definition's scope
(:data:`~irmetrics.algebra.measure.SCOPES`): one value per qrels query (``'query'``, nearly every
measure), or one value for the whole run (``'run'``: Coverage, Gini).  Both come from the one table the
engine builds for a run.

So a new measure is a definition in :mod:`irmetrics.measures` and a kernel here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numpy as np

from ...algebra.measure import Measure, MeasureDef
from ...data.array_library import NUMPY
from .table import RankedTable

#: ``(measure, table) -> values``: one per qrels query, or one float for a measure of a whole run
Kernel = Callable[[Measure, RankedTable], np.ndarray | float]
K = TypeVar('K', bound=Kernel)
KERNELS: dict[MeasureDef, Kernel] = {}


def kernel(family: Measure) -> Callable[[K], K]:
    """Register the decorated function as the native kernel of ``family`` (a bare measure: ``nDCG``)."""
    definition = family.definition

    def register(fn: K) -> K:
        if definition in KERNELS:
            raise ValueError(f'native kernel for {definition.name} registered twice')
        KERNELS[definition] = fn
        return fn
    return register


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0 where den is 0 (trec_eval's convention for empty denominators)."""
    return cast(np.ndarray, NUMPY.divide(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)))


def cutoff_of(measure: Measure) -> float:
    """The measure's cutoff, or infinity when it has none."""
    k = measure['cutoff']
    return np.inf if not isinstance(k, int) else k
