"""Runs given as arrays, evaluated where their scores are, in blocks of users.

Each block of users is ranked in the array's library and on its device (:meth:`ArrayRun.top`: only
the top ``depth`` when every measure reads no deeper).  The measures the hit matrix computes
(:mod:`irmetrics.providers.native.hit_kernels`: P, R, nDCG, AP, RR, ... at a cutoff, by the native
engine) are computed there too, one value per user coming back to the host; every other measure is
computed by its engine from the block's top ranking as a :class:`Run` on the host (users x depth rows).
A user whose row ranks nothing is not in the run, as in the TREC file the arrays stand for.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..data.arrays import ArrayRun, Exclusions, check_arrays_fit, host_run
from ..data.top_ranking import TopRanking
from ..providers.native import hit_kernels
from ..providers.native.hit_matrix import HitJudgments, HitMatrix
from .results import QueryValues

#: the top cells (users x depth) of a block of users ranked at once: a block's memory is a few of its cells
TOP_BLOCK_CELLS = 1 << 24
#: a run ranked whole (no depth: a measure reads every rank) is ranked in blocks of about this many cells
WHOLE_BLOCK_CELLS = 1 << 20


class ArrayEvaluation:
    """An evaluator's measures split for arrays: those of the hit matrix, and the others (see the module
    docstring); the judgments keyed for the hit matrix are built once, when a first batch needs them."""

    def __init__(self, evaluator: Any, exclude: Any = None):
        """``evaluator``: the :class:`~.evaluator.Evaluator` whose measures these are (not imported: it
        imports this module)."""
        self.evaluator = evaluator
        native = {m for name, ms in evaluator.engines.groups for m in ms if name == 'native'}
        self.on_hits = [m for m in evaluator.measures if m in native and hit_kernels.supports(m)]
        self.on_host = [m for m in evaluator.measures if m not in self.on_hits]
        self.exclude = None if exclude is None else Exclusions(exclude)
        self._judgments: HitJudgments | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, '_judgments': None}

    @property
    def judgments(self) -> HitJudgments:
        if self._judgments is None:
            self._judgments = HitJudgments(self.evaluator.qrels, hit_kernels.needs(self.on_hits))
        return self._judgments

    def check(self, arrays: ArrayRun, offset: int, whole: bool) -> None:
        """That ``arrays`` (users from ``offset``) fit the judgments, the excluded cells and the items."""
        check_arrays_fit(arrays, self.evaluator.qrels, self.exclude, offset, whole)

    def parts(self, arrays: ArrayRun, duplicates: str, offset: int = 0) -> Iterator[QueryValues]:
        """The per-query values of each block of users (row ``i`` the user ``offset + i``)."""
        depth = self.evaluator.depth
        width = depth if depth is not None else arrays.shape[1]
        cells = TOP_BLOCK_CELLS if depth is not None and arrays.is_scores else WHOLE_BLOCK_CELLS
        rows = max(1, cells // max(width, 1))
        for first in range(0, arrays.shape[0], rows):
            last = min(first + rows, arrays.shape[0])
            top = arrays.top(first, last, depth, self.exclude, offset)
            if top is None:                             # a row repeats an item: resolved as a TREC run's would be
                run = arrays.run(duplicates, depth, first, last, self.exclude, offset)
                yield self.evaluator.engines.query_values(run)
            else:
                yield self._block(top, arrays, offset + first)

    def _block(self, top: TopRanking, arrays: ArrayRun, first: int) -> QueryValues:
        library = arrays.library
        hits = HitMatrix(top, first, self.judgments, library)
        lengths = library.to_host(top.lengths)
        rows = np.flatnonzero((hits.host_codes >= 0) & (lengths > 0))      # users of the qrels the block ranks
        codes = hits.host_codes[rows]
        order = np.argsort(codes, kind='stable')
        rows, codes = rows[order], codes[order]
        values = np.empty((len(codes), len(self.evaluator.measures)), dtype=np.float64)
        column = {m: j for j, m in enumerate(self.evaluator.measures)}
        if self.on_hits:
            computed = [hit_kernels.evaluate(m, hits) for m in self.on_hits]
            stacked = library.to_host(library.stack_columns(computed))
            for j, m in enumerate(self.on_hits):
                values[:, column[m]] = stacked[rows, j]
        if self.on_host:
            run = host_run(top, library, arrays.source, first)
            rest = self.evaluator.engines.values_of(self.on_host, codes, run)
            for j, m in enumerate(self.on_host):
                values[:, column[m]] = rest[:, j]
        return QueryValues(codes, values)
