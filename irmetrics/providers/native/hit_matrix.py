"""The top of a score matrix joined with the judgments where the scores are: the hit matrix.

A run given as a score matrix is ranked in its own library and on its own device
(:mod:`irmetrics.data.top_ranking`); the users x k items of its top are then looked up among the
judgments there too: :class:`HitJudgments` holds the judgments as sorted keys ``row * 2**32 + item``
(built once on the host, copied to each device once), and :class:`HitMatrix` finds each cell's judgment
by one binary search.  The measures that read a ranking only down to a cutoff are computed from it by
:mod:`.hit_kernels`, in the same library; only one value per user comes back to the host.

Row ``i`` is the query ``'i'`` and item ``j`` the document ``'j'``, as when the matrix is written as a
TREC file: a judgment whose query or document id is no such number cannot meet a cell of the matrix,
and counts only where the qrels alone are read (the number of relevant documents, the ideal DCG).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...data.array_library import Library
from ...data.ids.int_ids import numbers_of
from ...data.top_ranking import TopRanking
from .table import QrelsIndex

#: rows and items are keyed as row * 2**32 + item: rows below 2**31, items below 2**32
_SHIFT = 1 << 32


class HitJudgments:
    """The judgments of a :class:`QrelsIndex` found by (row, item) (see the module docstring)."""

    def __init__(self, index: QrelsIndex):
        self.index = index
        rows = numbers_of(index.qrels.query_ids)                 # each qrels query's row, -1
        items = numbers_of(index.doc_vocab)                      # each judged document's item, -1
        row, item = rows[index.query], items[index.keys % index.n_docs]
        usable = (row >= 0) & (row < _SHIFT // 2) & (item >= 0) & (item < _SHIFT)
        keys = row[usable] * _SHIFT + item[usable]
        order = np.argsort(keys, kind='stable')
        self.keys = keys[order]
        self.judgment = np.flatnonzero(usable)[order]            # each key's position in index.keys
        valid = (rows >= 0) & (rows < _SHIFT // 2)
        self.code_of_row = np.full(int(rows[valid].max(initial=-1)) + 1, -1, dtype=np.int64)
        self.code_of_row[rows[valid]] = np.flatnonzero(valid)
        self._copies: dict[tuple[str, ...], Any] = {}

    def codes(self, first: int, n: int) -> np.ndarray:
        """The qrels query of each of the rows ``first .. first + n - 1`` (-1: a row no qrels query names)."""
        out = np.full(n, -1, dtype=np.int64)
        known = self.code_of_row[first:first + n]
        out[:len(known)] = known
        return out

    def copy(self, library: Library, name: str, compute: Callable[[], np.ndarray]) -> Any:
        """A host array of the judgments (``compute``, called once) on ``library``'s device, kept for the next batch."""
        key = (library.name, str(library.device), name)
        if key not in self._copies:
            self._copies[key] = library.from_host(np.ascontiguousarray(compute()))
        return self._copies[key]

    def per_query(self, library: Library, name: str, compute: Callable[[], np.ndarray], codes: Any) -> Any:
        """A per-qrels-query quantity (``compute``) for each row of a batch (``codes``, ``nq`` for a row of no
        query, which gets 0)."""
        values = self.copy(library, name, lambda: np.append(compute(), 0))      # the last: rows of no query
        return values[codes]


class HitMatrix:
    """The users x k top of a batch of rows joined with the judgments, in the batch's library.

    ``judged``: the cell holds a judged item; ``grade``: its grade (0 elsewhere); ``judgment``: its position
    in the judgments (``index.keys``; 0 elsewhere); ``lengths``: how many items each row ranks; ``codes``:
    each row's qrels query on the device (``nq``: none), and ``host_codes`` on the host (-1: none).
    """

    def __init__(self, top: TopRanking, first: int, judgments: HitJudgments, library: Library):
        self.library = library
        self.judgments = judgments
        n, self.k = top.items.shape
        self.lengths = top.lengths
        self.host_codes = judgments.codes(first, n)
        last = judgments.index.nq                                  # the slot of rows without a qrels query
        self.codes = library.from_host(np.where(self.host_codes < 0, last, self.host_codes))
        keys = judgments.copy(library, 'keys', lambda: judgments.keys)
        positions = judgments.copy(library, 'judgment', lambda: judgments.judgment)
        grades = judgments.copy(library, 'grades', lambda: judgments.index.grades)
        inside = top.items >= 0
        rows = library.arange(n) + first
        cells = rows[:, None] * _SHIFT + top.items.clip(min=0)
        if len(judgments.keys) == 0:
            self.judged = inside & False
            self.judgment = cells * 0
        else:
            at = library.searchsorted(keys, cells.reshape(-1)).reshape(cells.shape).clip(max=len(judgments.keys) - 1)
            self.judged = inside & (keys[at] == cells)
            self.judgment = library.where(self.judged, positions[at], 0)
        self.grade = library.where(self.judged, grades[self.judgment], 0)

    def relevant(self, rel: int) -> Any:
        """The cells holding an item judged with a grade >= ``rel``."""
        return self.judged & (self.grade >= rel)

    def per_query(self, name: str, compute: Callable[[], np.ndarray]) -> Any:
        """A per-qrels-query quantity of the judgments (``compute``: a host array) for each row."""
        return self.judgments.per_query(self.library, name, compute, self.codes)

    def per_judgment(self, name: str, compute: Callable[[], np.ndarray]) -> Any:
        """A per-judgment quantity (``compute``: one value per ``index.keys``) for each cell (0 where unjudged)."""
        values = self.judgments.copy(self.library, name, compute)
        return self.library.where(self.judged, values[self.judgment], 0)
