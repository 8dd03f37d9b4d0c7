"""Relevance judgments in columns: every qrels input becomes a :class:`Qrels` once.

Immutable, evaluated any number of times; iterating yields :class:`~.records.Qrel` records.
A document judged more than once for a query is resolved here, by the qrels' ``duplicates`` policy.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DuplicateError, InputError
from . import ids, numeric
from .digest import digest
from .duplicates import Duplicates
from .ids import Ids
from .items import Items
from .locate import Positions, RowLocator, id_at
from .policies import QRELS_DUPLICATES
from .records import Qrel
from .segments import offsets_of, ranges
from .written import WrittenBack

#: grades are below this in magnitude: beyond it, a grade no longer converts to every float exactly (gains
#: are computed in floats)
LARGEST_GRADE = 2 ** 53


@dataclass(frozen=True, eq=False)
class Qrels(WrittenBack):
    """Relevance judgments in columns, rows grouped by query.

    ``query_ids`` is the query vocabulary in order of first appearance; row ``i``
    belongs to query ``qidx[i]``; rows of query ``q`` are ``offsets[q]:offsets[q+1]``.
    """

    query_ids: Ids
    qidx: np.ndarray
    doc_ids: Ids
    relevance: np.ndarray
    iteration: Ids
    offsets: np.ndarray
    source: str = 'qrels'
    #: (problem, line) when a document is judged under several iterations and the policy is 'error':
    #: measures that read one grade per document refuse these qrels (diversity measures read them)
    judged_twice: tuple[str, int | None] | None = None
    #: what is known of the items beyond the judgments (popularity, features), for the measures that read it
    items: Items | None = None
    #: (users, items) of the matrix the judgments were given as, if they were: a run given as arrays must fit it
    matrix_shape: tuple[int, int] | None = None
    #: ``doc_ids.fingerprint()``, kept for joining (None where the judgments were not read from columns)
    doc_fingerprints: np.ndarray | None = None

    @classmethod
    def from_columns(cls, query_ids: Any, doc_ids: Any, relevance: Any, iteration: Any = None, *,
                     source: str = 'qrels', lines: Positions | None = None, duplicates: str = 'error') -> Qrels:
        """Build from per-row columns.

        A document judged more than once for a query under the same iteration is an error unless
        ``duplicates='max'`` (keep its highest grade).  Under different iterations (subtopics, in
        diversity qrels) every judgment is kept; with ``duplicates='error'`` the measures that read one
        grade per document then refuse the qrels, as trec_eval does, and with ``'max'`` they read the
        highest grade.
        """
        QRELS_DUPLICATES.check(duplicates)
        where = RowLocator(source, lines)
        qids = where.ids(query_ids, 'query_id')
        docs = where.ids(doc_ids, 'doc_id')
        rel = _grades(numeric.column(relevance, 'relevance', where), where)
        its = where.ids(iteration, 'iteration') if iteration is not None else ids.repeat('0', len(qids))
        if not (len(qids) == len(docs) == len(rel) == len(its)):
            raise InputError('qrels columns have different lengths', source)
        vocab, codes = qids.encode()
        _, it_codes = its.encode()
        fingerprints = docs.fingerprint()
        dups = Duplicates.find(docs, fingerprints, codes, it_codes)
        if dups is not None:
            g = dups.first()
            if duplicates == 'error':
                raise where.error(DuplicateError,
                                  f'duplicate judgment: document {id_at(docs, g[0])!r} judged more than once for '
                                  f'query {id_at(qids, g[0])!r} (iteration {id_at(its, g[0])!r})'
                                  f'{where.at(g)}; pass duplicates="max" to keep its highest grade',
                                  int(g[1]))
            kept = np.setdiff1d(np.arange(len(rel)), dups.to_drop('max', rel), assume_unique=True)
            codes, it_codes, rel, fingerprints = codes[kept], it_codes[kept], rel[kept], fingerprints[kept]
            docs, its = docs.take(kept), its.take(kept)
        judged_twice = None
        if duplicates == 'error' and np.any(it_codes > 0):
            # (under one iteration, no document is judged twice for a query: the search above said so)
            twice = Duplicates.first_of(docs, fingerprints, codes)
            if twice is not None:
                iterations = ', '.join(repr(i) for i in its.take(twice).to_list())
                judged_twice = (f'document {id_at(docs, twice[0])!r} is judged more than once for query '
                                f'{id_at(qids, twice[0])!r} (iterations {iterations}){where.at(twice)}',
                                where.line(int(twice[1])) if where.lines is not None else None)
        if np.any(codes[1:] < codes[:-1]):                 # not grouped by query yet (most files are)
            order = np.argsort(codes, kind='stable')
            codes, rel, fingerprints = codes[order], rel[order], fingerprints[order]
            docs, its = docs.take(order), its.take(order)
        return cls(vocab, codes, docs, rel, its, offsets_of(codes, len(vocab)), source, judged_twice,
                   doc_fingerprints=fingerprints)

    def subset(self, queries: np.ndarray) -> Qrels:
        """The judgments of some queries (codes into ``query_ids``, ascending), in the same row order.

        Nothing is validated again: the rows were when these qrels were built.
        """
        queries = np.asarray(queries, dtype=np.int64)
        sizes = self.offsets[queries + 1] - self.offsets[queries]
        rows = np.repeat(self.offsets[queries], sizes) + ranges(sizes)
        qidx = np.repeat(np.arange(len(queries), dtype=self.qidx.dtype), sizes)
        offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        return Qrels(self.query_ids.take(queries), qidx, self.doc_ids.take(rows), self.relevance[rows],
                     self.iteration.take(rows), offsets, self.source, self.judged_twice, self.items,
                     self.matrix_shape, None if self.doc_fingerprints is None else self.doc_fingerprints[rows])

    @property
    def fractional(self) -> bool:
        """Whether some grade is not a whole number (the relevance column is then float64)."""
        return self.relevance.dtype.kind == 'f'

    def integer_grades(self) -> Qrels:
        """These judgments with each grade's integer part (toward zero: 2.7 is 2, -0.5 is 0), trec_eval 10's
        rule (its ``atol`` of the grade's text; text with an exponent, ``1e-3``, is read so by
        ``read_trec_qrels(grades='trec_eval')``); the same qrels where every grade is whole."""
        if not self.fractional:
            return self
        return dataclasses.replace(self, relevance=np.trunc(self.relevance).astype(np.int64))

    def digest(self) -> str:
        """A hash of the judgments (:func:`.digest.digest`): equal for equal judgments whatever form they were
        read from and whatever the order of each query's rows; the order of the queries counts, as it numbers
        the users of a run given as arrays.  Processes compare it before joining their results."""
        docs = self.doc_ids.fingerprint() if self.doc_fingerprints is None else self.doc_fingerprints
        grades = self.relevance.view(np.uint64) if self.fractional else self.relevance    # a real grade's bits
        rows = ids.mix(docs, self.qidx, grades, self.iteration.fingerprint())
        return digest(self.query_ids.fingerprint(), rows.sum(dtype=np.uint64), len(rows), self.matrix_shape)

    def __len__(self) -> int:
        return len(self.qidx)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __iter__(self) -> Iterator[Qrel]:
        q = self.query_ids.to_list()
        for qi, d, r, it in zip(self.qidx.tolist(), self.doc_ids.to_list(), self.relevance.tolist(),
                                self.iteration.to_list(), strict=True):
            yield Qrel(q[qi], d, r, it)

    # --- written back (see :mod:`.writing`: every form reads back to the same qrels) ----------------
    def _table(self) -> Any:
        """``query_id, iteration, doc_id, relevance``, one row a judgment."""
        from .writing import qrels_table
        return qrels_table(self)

    def to_trec(self, path: str | os.PathLike[str]) -> None:
        """Write a TREC qrels file ``query_id iteration doc_id relevance``; an id holding white space is
        an error (TREC text cannot hold it)."""
        from .writing import write_trec
        write_trec(self._table(), path)

    def __repr__(self) -> str:
        return f'<Qrels {self.source}: {self.num_queries} queries, {len(self)} judgments>'


def _grades(values: np.ndarray, where: RowLocator) -> np.ndarray:
    """Grades below :data:`LARGEST_GRADE` in magnitude: int64 where every one is a whole number (booleans are
    0 and 1), else float64 (real-valued grades, kept as they are: see docs/conventions.md)."""
    as_float = values.astype(np.float64)
    if values.dtype.kind == 'f':
        bad = np.flatnonzero(~np.isfinite(as_float))
        if len(bad):
            raise where.error(InputError, f'relevance {values[bad[:1]].tolist()[0]!r} is not a finite number',
                              int(bad[0]))
    huge = np.flatnonzero(np.abs(as_float) >= LARGEST_GRADE)
    if len(huge):
        raise where.error(InputError, f'relevance {values[huge[:1]].tolist()[0]!r} is too large', int(huge[0]))
    if values.dtype.kind == 'f' and np.any(as_float != np.round(as_float)):
        return as_float
    return values.astype(np.int64) if values.dtype.kind in 'iub' else as_float.astype(np.int64)
