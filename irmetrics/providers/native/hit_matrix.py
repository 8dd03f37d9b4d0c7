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
from ...data.qrels import Qrels
from ...data.top_ranking import TopRanking
from .ndcg import Gains, gain_of
from .table import QrelsIndex

#: rows and items are keyed as row * 2**32 + item: rows below 2**31, items below 2**32
_SHIFT = 1 << 32
#: the judgments of the queries whose per-query quantities are computed at once
_BLOCK_JUDGMENTS = 1 << 18


class HitJudgments:
    """The judgments found by (row, item) (see the module docstring), with what the measures read of the
    qrels alone (each query's number of relevant documents, its ideal DCG), computed once.

    :meth:`block` gives the judgments of a block of rows as sorted keys ``row * 2**32 + item``, one per
    judged (row, item) (a document judged under several iterations keeps its highest grade, as
    :class:`QrelsIndex` reads it), and their grades.  Judgments given as a matrix are already in that order
    (rows ascending, items ascending within a row): they are read in place, block by block, and nothing
    of their size is kept; other qrels are keyed and sorted once.  ``quantities`` (name -> per-query array)
    are those ``needs`` asks (with a last slot, 0, for rows of no query), computed from :class:`QrelsIndex`
    objects of blocks of queries, so that memory follows a block, not the qrels (a million users' judgments).
    """

    def __init__(self, qrels: Qrels, needs: Callable[[QrelsIndex], dict[str, np.ndarray]]):
        self.qrels = qrels
        self.nq = qrels.num_queries
        self.rows = numbers_of(qrels.query_ids)                       # each qrels query's row, -1
        valid = (self.rows >= 0) & (self.rows < _SHIFT // 2)
        self.in_row_order = bool(valid.all()) and bool((self.rows[1:] > self.rows[:-1]).all())
        if not self.in_row_order:                                     # a table from rows to queries
            self.code_of_row = np.full(int(self.rows[valid].max(initial=-1)) + 1, -1, dtype=np.int32)
            self.code_of_row[self.rows[valid]] = np.flatnonzero(valid)
        self.items = numbers_of(qrels.doc_ids)
        self.keys: np.ndarray | None = None                           # sorted keys, when not read in place
        if not (self.in_row_order and _keyed_in_order(qrels, self.rows, self.items)):
            self.keys, self.grades = _sorted_keys(self.rows[qrels.qidx], self.items, qrels.relevance)
        #: the distinct grades, ascending (the gains are looked up through them)
        self.levels = np.unique(qrels.relevance if self.keys is None else self.grades)   # int64, or real grades
        self.quantities = _per_query(qrels, needs)
        self._copies: dict[tuple[str, ...], Any] = {}

    def block(self, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The sorted keys and the grades of the judgments of rows ``first .. first + n - 1``."""
        if self.keys is not None:
            lo, hi = np.searchsorted(self.keys, [first * _SHIFT, (first + n) * _SHIFT])
            return self.keys[lo:hi], self.grades[lo:hi]
        start, stop = np.searchsorted(self.rows, [first, first + n])
        lo, hi = self.qrels.offsets[start], self.qrels.offsets[stop]
        keys = self.rows[self.qrels.qidx[lo:hi]]
        keys *= _SHIFT
        keys += self.items[lo:hi]
        return keys, self.qrels.relevance[lo:hi]

    def codes(self, first: int, n: int) -> np.ndarray:
        """The qrels query of each of the rows ``first .. first + n - 1`` (-1: a row no qrels query names)."""
        rows = np.arange(first, first + n, dtype=np.int64)
        if self.in_row_order:
            at = np.minimum(np.searchsorted(self.rows, rows), max(self.nq - 1, 0))
            return np.where((self.nq > 0) & (self.rows[at] == rows), at, -1) if self.nq else np.full(n, -1)
        out = np.full(n, -1, dtype=np.int64)
        known = self.code_of_row[first:first + n]
        out[:len(known)] = known
        return out

    def copy(self, library: Library, name: str, compute: Callable[[], np.ndarray]) -> Any:
        """A host array (``compute``, called once) on ``library``'s device, kept for the next batch."""
        key = (library.name, str(library.device), name)
        if key not in self._copies:
            self._copies[key] = library.from_host(np.ascontiguousarray(compute()))
        return self._copies[key]


def _keyed_in_order(qrels: Qrels, rows: np.ndarray, items: np.ndarray) -> bool:
    """Whether the judgments, in their order, have strictly ascending keys ``row * 2**32 + item`` (each row's items
    ascending, none twice, every item a number below 2**32): checked a block at a time."""
    previous = -1
    for lo in range(0, len(qrels), _BLOCK_JUDGMENTS):
        part = items[lo:lo + _BLOCK_JUDGMENTS]
        if len(part) and (int(part.min()) < 0 or int(part.max()) >= _SHIFT):
            return False
        keys = rows[qrels.qidx[lo:lo + _BLOCK_JUDGMENTS]] * _SHIFT + part
        if len(keys) and (int(keys[0]) <= previous or not bool((keys[1:] > keys[:-1]).all())):
            return False
        previous = int(keys[-1]) if len(keys) else previous
    return True


def _sorted_keys(rows: np.ndarray, items: np.ndarray, grades: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the judgments whose row and item are numbers that fit, sorted, each with its highest grade."""
    usable = (rows >= 0) & (rows < _SHIFT // 2) & (items >= 0) & (items < _SHIFT)
    keys = rows[usable] * _SHIFT + items[usable]
    grades = grades[usable]
    order = np.lexsort((grades, keys))                                 # each key's highest grade last
    keys, grades = keys[order], grades[order]
    last = np.append(keys[1:] != keys[:-1], True) if len(keys) else np.zeros(0, dtype=bool)
    return keys[last], grades[last]


def _per_query(qrels: Qrels, needs: Callable[[QrelsIndex], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The per-query arrays ``needs`` computes, from the judgments of blocks of about :data:`_BLOCK_JUDGMENTS`; each
    has one more slot, 0, for the rows of no query."""
    found: dict[str, np.ndarray] = {}
    bounds = np.unique(np.concatenate(([0], np.searchsorted(qrels.offsets, np.arange(_BLOCK_JUDGMENTS, len(qrels),
                                                                                      _BLOCK_JUDGMENTS)),
                                       [qrels.num_queries])))
    for first, last in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        whole = first == 0 and last == qrels.num_queries
        codes = np.arange(first, last)
        for name, values in needs(QrelsIndex(qrels if whole else qrels.subset(codes))).items():
            found.setdefault(name, np.zeros(qrels.num_queries + 1, dtype=np.asarray(values).dtype))[codes] = values
    return found


class HitMatrix:
    """The users x k top of a batch of rows joined with the judgments, in the batch's library.

    ``judged``: the cell holds a judged item; ``grade``: its grade (0 elsewhere); ``lengths``: how many items
    each row ranks; ``codes``: each row's qrels query on the device (``nq``: none), and ``host_codes`` on the
    host (-1: none).
    """

    def __init__(self, top: TopRanking, first: int, judgments: HitJudgments, library: Library):
        self.library = library
        self.judgments = judgments
        n, self.k = top.items.shape
        self.lengths = top.lengths
        self.host_codes = judgments.codes(first, n)
        self.codes = library.from_host(np.where(self.host_codes < 0, judgments.nq, self.host_codes))
        host_keys, host_grades = judgments.block(first, n)
        inside = top.items >= 0
        cells = (library.arange(n) + first)[:, None] * _SHIFT + top.items.clip(min=0)
        if len(host_keys) == 0:
            self.judged = inside & False
            self.grade = cells * 0
        else:
            keys, grades = library.from_host(host_keys), library.from_host(host_grades)
            at = library.searchsorted(keys, cells.reshape(-1)).reshape(cells.shape).clip(max=len(host_keys) - 1)
            self.judged = inside & (keys[at] == cells)
            self.grade = library.where(self.judged, grades[at], 0)

    def relevant(self, rel: int) -> Any:
        """The cells holding an item judged with a grade >= ``rel``."""
        return self.judged & (self.grade >= rel)

    def per_query(self, name: str) -> Any:
        """A per-qrels-query quantity of the judgments (one of ``quantities``) for each row (0: a row of no query)."""
        values = self.judgments.copy(self.library, name, lambda: self.judgments.quantities[name])
        return values[self.codes]

    def gain(self, gains: Gains | None, exp: bool) -> Any:
        """Each cell's gain (:func:`.ndcg.gain_of` of its grade; 0 where unjudged), through a table of the grades."""
        levels = self.judgments.levels
        if len(levels) == 0:
            return self.library.f64(self.grade * 0)
        on_device = self.judgments.copy(self.library, 'levels', lambda: levels)
        table = self.judgments.copy(self.library, f'gains {gains} {exp}', lambda: gain_of(levels, gains, exp))
        at = self.library.searchsorted(on_device, self.grade.reshape(-1)).reshape(self.grade.shape)
        return self.library.where(self.judged, table[at.clip(max=len(levels) - 1)], 0.0)
