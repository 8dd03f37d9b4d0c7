"""Runs given as arrays, evaluated where their scores are, in blocks of users.

A block of users is measured three ways, each measure the cheapest way that gives the TREC path's numbers:

* the measures of the hit matrix (:mod:`irmetrics.providers.native.hit_kernels`: P, R, nDCG, AP, RR, ... at a
  cutoff, by the native engine), from the block's top ``depth`` ranked in the array's library and on its
  device (:meth:`ArrayRun.top`), one value per user coming back to the host;
* for a score matrix, the native measures that read only the ranks of the judged items
  (:mod:`irmetrics.providers.native.positions`: RR, AP, R-precision, Bpref, nDCG, ... without a cutoff too),
  from each judged item's exact rank, counted where the scores are without ranking the rows
  (:meth:`ArrayRun.judged_ranks`);
* every other measure, by its engine, from the block's top ranking as a :class:`Run` on the host (users x
  depth rows; whole rankings when one of them reads every rank).

``depth`` is the deepest cutoff of the measures of the first and last kinds (and of the measures of a whole
run, :attr:`ArrayEvaluation.run_depth`).  A user whose row ranks nothing is not in the run, as in the TREC file
the arrays stand for.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..algebra.measure import Measure
from ..data.arrays import ArrayRun, Exclusions, check_arrays_fit, host_run
from ..data.ids.int_ids import numbers_of
from ..data.run import Run
from ..data.top_ranking import TopRanking
from ..providers.native import hit_kernels, positions
from ..providers.native.hit_matrix import HitJudgments, HitMatrix
from ..providers.native.table import QrelsIndex
from .engines import per_query
from .results import QueryValues

#: the top cells (users x depth) of a block of users ranked at once: a block's memory is a few of its cells
TOP_BLOCK_CELLS = 1 << 24
#: a run ranked whole (no depth: a measure reads every rank) is ranked in blocks of about this many cells
WHOLE_BLOCK_CELLS = 1 << 20
#: a score matrix whose measures read only the judged items' ranks is read in blocks of about this many cells
#: (each counted in smaller ones: :data:`irmetrics.data.top_ranking.BLOCK_CELLS`)
POSITION_BLOCK_CELLS = 1 << 24


class ArrayEvaluation:
    """An evaluator's measures split for arrays (see the module docstring); the judgments keyed for the hit
    matrix are built once, when a first batch needs them."""

    def __init__(self, evaluator: Any, exclude: Any = None):
        """``evaluator``: the :class:`~.evaluator.Evaluator` whose measures these are (not imported: it
        imports this module)."""
        self.evaluator = evaluator
        native = {m for name, ms in evaluator.engines.groups for m in ms if name == 'native'}
        self.on_hits = [m for m in evaluator.measures if m in native and hit_kernels.supports(m)]
        self.on_positions = [m for m in evaluator.measures
                             if m in native and m not in self.on_hits and positions.supports(m)]
        self.on_host = [m for m in evaluator.measures if m not in self.on_hits and m not in self.on_positions]
        #: how deep the measures of a whole run (Coverage, Gini) read each ranking (None: whole)
        self.run_depth = _deepest(evaluator.run_measures)
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

    def _plan(self, arrays: ArrayRun) -> tuple[list[Measure], list[Measure], int | None, bool]:
        """For ``arrays``: the measures of the judged items' ranks (a score matrix only), those of the host, how
        deep each row is ranked (None: whole) and whether it is ranked at all."""
        by_rank = self.on_positions if arrays.is_scores else []
        on_host = [m for m in self.on_host if m not in by_rank] + [m for m in self.on_positions if m not in by_rank]
        ranked = self.on_hits + on_host
        if not ranked and not by_rank:                 # no measure of one user: each row's length alone counts
            return by_rank, on_host, 1, True
        return by_rank, on_host, _deepest(ranked), bool(ranked)

    def parts(self, arrays: ArrayRun, duplicates: str, offset: int = 0,
              tops: list[Run] | None = None) -> Iterator[QueryValues]:
        """The per-query values of each block of users (row ``i`` the user ``offset + i``); ``tops``: a list that
        gets each block's top ranking as deep as the measures of a whole run read (:attr:`run_depth`), from the
        one ranking of the block."""
        by_rank, on_host, depth, ranked = self._plan(arrays)
        if tops is not None:
            depth = _deepest_of(depth if ranked else 0, self.run_depth)
            ranked = True
        width = depth if depth is not None else arrays.shape[1]
        if not ranked:
            cells = POSITION_BLOCK_CELLS
        else:
            cells = TOP_BLOCK_CELLS if depth is not None and arrays.is_scores else WHOLE_BLOCK_CELLS
        rows = max(1, cells // max(width, 1))
        for first in range(0, arrays.shape[0], rows):
            last = min(first + rows, arrays.shape[0])
            top = arrays.top(first, last, depth, self.exclude, offset) if ranked else None
            if ranked and top is None:                 # a row repeats an item: resolved as a TREC run's would be
                run = arrays.run(duplicates, depth, first, last, self.exclude, offset)
                if tops is not None:
                    tops.append(run.top(self.run_depth) if self.run_depth else run)
                yield self.evaluator.engines.query_values(run)
                continue
            if tops is not None and top is not None:
                tops.append(host_run(_cut(top, self.run_depth), arrays.library, arrays.source, offset + first))
            yield self._block(top, arrays, first, last, offset, by_rank, on_host)

    def _block(self, top: TopRanking | None, arrays: ArrayRun, first: int, last: int, offset: int,
               by_rank: list[Measure], on_host: list[Measure]) -> QueryValues:
        library = arrays.library
        host_codes = self.judgments.codes(offset + first, last - first)
        column = {m: j for j, m in enumerate(self.evaluator.measures)}
        by_ranks, lengths = (self._by_ranks(arrays, first, last, offset, host_codes, by_rank) if by_rank
                             else (None, None))
        if top is not None:
            lengths = library.to_host(top.lengths)
        assert lengths is not None                      # a block is ranked, or measured from its ranks
        rows = np.flatnonzero((host_codes >= 0) & (lengths > 0))          # users of the qrels the block ranks
        codes = host_codes[rows]
        order = np.argsort(codes, kind='stable')
        rows, codes = rows[order], codes[order]
        values = np.empty((len(codes), len(self.evaluator.measures)), dtype=np.float64)
        if by_ranks is not None:
            known, computed = by_ranks
            at = np.searchsorted(known, codes)
            for j, m in enumerate(by_rank):
                values[:, column[m]] = computed[at, j]
        if top is not None and self.on_hits:
            hits = HitMatrix(top, offset + first, self.judgments, library)
            stacked = library.to_host(library.stack_columns([hit_kernels.evaluate(m, hits) for m in self.on_hits]))
            for j, m in enumerate(self.on_hits):
                values[:, column[m]] = stacked[rows, j]
        if top is not None and on_host:
            run = host_run(top, library, arrays.source, offset + first)
            rest = self.evaluator.engines.values_of(on_host, codes, run)
            for j, m in enumerate(on_host):
                values[:, column[m]] = rest[:, j]
        return QueryValues(codes, values)

    def _by_ranks(self, arrays: ArrayRun, first: int, last: int, offset: int, host_codes: np.ndarray,
                  measures: list[Measure]) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
        """The ``measures`` of the block's qrels queries from their judged items' ranks: (the queries' codes,
        ascending, and their values, queries x measures), and each row's ranking length."""
        valid = np.flatnonzero(host_codes >= 0)
        valid = valid[np.argsort(host_codes[valid], kind='stable')]
        codes = host_codes[valid]
        index = QrelsIndex(self.evaluator.qrels.subset(codes))
        items = numbers_of(index.doc_vocab)[index.keys % index.n_docs]
        rows = valid[index.query]
        inside = np.flatnonzero((items >= 0) & (items < arrays.shape[1]))
        found = arrays.judged_ranks(first, last, rows[inside], items[inside], self.exclude, offset)
        rank = np.full(len(index.keys), -1, dtype=np.int64)
        rank[inside] = found.ranks
        table = positions.PositionTable(index, rank, found.lengths[valid])
        computed = per_query(measures, positions.evaluate(measures, table), table.present)
        return (codes, computed), found.lengths


def _cut(top: TopRanking, depth: int | None) -> TopRanking:
    """The first ``depth`` (None: all) of a top ranking."""
    if depth is None or depth >= top.items.shape[1]:
        return top
    return TopRanking(top.items[:, :depth], top.scores[:, :depth], top.lengths.clip(max=depth))


def _deepest_of(a: int | None, b: int | None) -> int | None:
    """The deeper of two depths (None: whole)."""
    return None if a is None or b is None else max(a, b)


def _deepest(measures: list[Measure]) -> int | None:
    """How deep ``measures`` read each ranking: the deepest of their depths, None (whole) when one reads every rank."""
    depths = [m.depth for m in measures]
    return None if not depths or None in depths else max(d for d in depths if d is not None)
