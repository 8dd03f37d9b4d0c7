"""The native kernels on the judged items of a score matrix alone, each at its exact rank.

A kernel reads a run through its :class:`~.table.RankedTable`: the judged documents retrieved, each with its rank
(in the ranking, and among the judged ones), and each query's ranking length.  Nearly every kernel reads
nothing else, so for a run given as a score matrix the table is built from the rank of each judged item,
counted where the scores are without ranking the rows (:func:`irmetrics.data.judged_ranks.judged_ranks`), and
the kernels compute the values as they do for a TREC run: the same rows in the same order, the same
operations, so the same numbers to the bit, with or without a cutoff (RR, AP, R-precision, Success, R, Bpref,
infAP, nDCG, the counts, ...).

Measures that read more of the ranking keep it whole (:func:`supports` says no): those of a whole run
(Coverage, Gini: the items recommended), those reading what is known of the items (``items=``: ARP, ILD, ...),
custom measures (their functions read the ranked rows) and ``ties='expected'`` (a tie group holds unjudged
items too).  The table refuses what it does not hold (:meth:`PositionTable.tie_groups`, ``run``).
"""
from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from ...algebra.measure import Measure
from .custom import CUSTOM
from .kernels import KERNELS
from .table import QrelsIndex, RankedTable


def supports(measure: Measure) -> bool:
    """Whether ``measure``'s native kernel reads only the judged documents' ranks and the ranking lengths."""
    d = measure.definition
    expected = d.has_param('ties') and measure['ties'] == 'expected'
    return d in KERNELS and d.scope == 'query' and not d.items and d not in CUSTOM and not expected


class PositionTable(RankedTable):
    """A :class:`RankedTable` of the judged documents of ``index`` (the queries of a block of users) from their
    ranks: ``rank`` one per judgment (``index.keys``), 0-based, -1 for a document not retrieved; ``n_ret`` each
    query's ranking length (0: the query ranks nothing, as a query missing from the run)."""

    def __init__(self, index: QrelsIndex, rank: np.ndarray, n_ret: np.ndarray):
        self.index = index
        self.nq = index.nq
        self.n_ret = n_ret.astype(np.int64)
        self.present = self.n_ret > 0
        self._relevant: dict[float, np.ndarray] = {}
        self._memo: dict[Any, Any] = {}
        at = np.flatnonzero(rank >= 0)
        at = at[np.lexsort((rank[at], index.query[at]))]
        self._set_rows(index.query[at], rank[at], at)

    def tie_groups(self, judged_only: bool) -> NoReturn:
        raise TypeError('the tie groups of a ranking hold unjudged documents, which a PositionTable does not')


def evaluate(measures: list[Measure], table: PositionTable) -> dict[Measure, Any]:
    """Each of ``measures`` (all :func:`supports`) per query of the table's index."""
    return {m: KERNELS[m.definition](m, table) for m in measures}
