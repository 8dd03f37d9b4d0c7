"""The native engine's kernels of custom measures (:func:`irmetrics.define`): a user function called
once per query with the query's rows, or once per run with the :class:`~.table.RankedTable`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...algebra.measure import Measure, MeasureDef
from ...algebra.params import NOT_PROVIDED, TIES
from ...data.records import Qrel, ScoredDoc
from ...errors import MeasureError
from .kernels import KERNELS
from .table import RankedTable

#: the definitions of custom measures, whose functions may read anything of the run
CUSTOM: set[MeasureDef] = set()


def register_kernel(definition: MeasureDef, fn: Callable[..., Any], *, vectorized: bool, call_missing: bool) -> None:
    """Make ``fn`` the kernel of ``definition``: ``fn(table, **params)`` once per run when ``vectorized``,
    else ``fn(qrels_rows, run_rows, **params)`` once per query (also for queries missing from the run
    when ``call_missing``)."""
    KERNELS[definition] = _vectorized_kernel(fn) if vectorized else _per_query_kernel(fn, call_missing)
    CUSTOM.add(definition)


def forget_kernel(definition: MeasureDef) -> None:
    """Remove the kernel of ``definition`` (a custom measure defined again, or undefined)."""
    KERNELS.pop(definition, None)
    CUSTOM.discard(definition)


def _arguments(measure: Measure) -> dict[str, Any]:
    """The parameters the user's function declared (``ties``, which every definition takes, is not one)."""
    return {p.name: (None if measure[p.name] is NOT_PROVIDED else measure[p.name])
            for p in measure.definition.params if p is not TIES}


def _vectorized_kernel(fn: Callable[..., Any]) -> Callable[[Measure, RankedTable], np.ndarray]:
    def kernel(measure: Measure, t: RankedTable) -> np.ndarray:
        values = np.asarray(fn(t, **_arguments(measure)), dtype=np.float64)
        if values.shape != (t.nq,):
            raise MeasureError(f'custom measure {measure.name} returned shape {values.shape}, expected ({t.nq},) '
                               f'(one value per qrels query)')
        return values
    return kernel


def _per_query_kernel(fn: Callable[..., Any], call_missing: bool) -> Callable[[Measure, RankedTable], np.ndarray]:
    def kernel(measure: Measure, t: RankedTable) -> np.ndarray:
        kwargs = _arguments(measure)
        qrels_rows = t.index.cached(('custom_qrels_rows',), lambda: _qrels_rows(t))
        run_rows = _run_rows(t)
        out = np.full(t.nq, np.nan)
        for q in range(t.nq):
            ranking = run_rows.get(q)
            if ranking is None and not call_missing:
                continue
            out[q] = fn(qrels_rows[q], ranking or [], **kwargs)
        return out
    return kernel


def _qrels_rows(t: RankedTable) -> list[list[Qrel]]:
    rows = list(t.index.qrels)
    offsets = t.index.qrels.offsets.tolist()
    return [rows[offsets[q]:offsets[q + 1]] for q in range(t.nq)]


def _run_rows(t: RankedTable) -> dict[int, list[ScoredDoc]]:
    """Ranked rows of each qrels query present in the run."""
    run = t.run
    to_qrels = run.query_ids.lookup(t.index.qrels.query_ids)
    rows = list(run)                                    # ranking order, grouped by run query code
    offsets = run.offsets.tolist()
    return {int(q): rows[offsets[r]:offsets[r + 1]] for r, q in enumerate(to_qrels.tolist()) if q >= 0}
