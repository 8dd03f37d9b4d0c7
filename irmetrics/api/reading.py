"""A run read on an :class:`~.evaluator.Evaluator`'s terms: whole, or in parts of complete queries.

The evaluator asks the data room for the run (:class:`~irmetrics.data.large.Reading`: the memory budget,
the duplicates policy, how deep arrays are ranked, whether a measure needs the whole run) and evaluates
what it gets.  :func:`open_run` is also the first step for a caller that reads and evaluates in two (the
command line, to report each): :meth:`Evaluator.calc` takes what it gives.
"""
from __future__ import annotations

from typing import Any

from .. import errors
from ..data.budget import memory_budget
from ..data.inputs import open_run as open_input
from ..data.large import Reading, RunParts
from ..data.run import Run
from .options import MemoryLimit

#: an Arrow table or polars DataFrame run with more rows than this, each query's rows together, is evaluated in
#: blocks of complete queries of about this many rows
TABLE_BLOCK_ROWS = 1 << 20


def open_run(evaluator: Any, run: Any, *, duplicates: str | None = None,
             memory_limit: MemoryLimit = None) -> Run | RunParts:
    """``run`` read as ``evaluator.calc`` reads it: a whole :class:`Run`, or :class:`RunParts` of complete
    queries (a run file larger than ``memory_limit``, a large table grouped by query, arrays ranked block by
    block of users); ``duplicates`` and ``memory_limit`` None take the evaluator's."""
    reading = Reading(memory_budget(memory_limit or evaluator.memory_limit), duplicates or evaluator.duplicates,
                      evaluator.depth, TABLE_BLOCK_ROWS, whole=bool(evaluator.run_measures),
                      judgments=evaluator.qrels, exclude=evaluator.arrays.exclude)
    with errors.strict(evaluator.strict):
        return open_input(run, reading)
