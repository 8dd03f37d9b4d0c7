"""A ranked run in columns: every run input becomes a :class:`Run` once.

A :class:`Run` is validated when it is built: scores must be finite, and the same (query, document)
pair may occur once unless a ``duplicates`` policy says which occurrence to keep.  Its rows are then
ranked once, by the rule of :mod:`.ranking`.  Immutable, evaluated any number of times; iterating
yields :class:`~.records.ScoredDoc` records in ranked order.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DuplicateError, InputError
from . import numeric
from .duplicates import Duplicates
from .ids import Ids
from .locate import Positions, RowLocator, id_at
from .policies import DUPLICATES
from .ranking import canonical_order
from .records import ScoredDoc
from .segments import offsets_of, ranges
from .written import WrittenBack


@dataclass(frozen=True, eq=False)
class Run(WrittenBack):
    """A ranked run in columns.

    ``qidx``, ``doc_ids`` and ``scores`` are per row (duplicates already
    resolved); ``order`` lists the rows in trec_eval order (grouped by query code,
    score descending, doc id descending) and ``offsets[q]:offsets[q+1]`` is the
    slice of ``order`` holding query ``q``'s ranking.
    """

    query_ids: Ids
    qidx: np.ndarray
    doc_ids: Ids
    scores: np.ndarray
    order: np.ndarray
    offsets: np.ndarray
    source: str = 'run'
    resolved_duplicates: int = 0
    doc_fingerprints: np.ndarray | None = None     # doc_ids.fingerprint(), kept for joining

    @classmethod
    def from_columns(cls, query_ids: Any, doc_ids: Any, scores: Any, *, source: str = 'run', duplicates: str = 'error',
                     lines: Positions | None = None, where: RowLocator | None = None) -> Run:
        """Build from per-row columns (see the class docstring for ``duplicates``).

        ``lines`` (each row's file line, or a function giving them) or ``where`` (a
        :class:`~.locate.RowLocator`) say where a faulty row is, for messages.
        """
        DUPLICATES.check(duplicates)
        where = where or RowLocator(source, lines)
        qids = where.ids(query_ids, 'query_id')
        docs = where.ids(doc_ids, 'doc_id')
        sc = numeric.column(scores, 'score', where).astype(np.float64, copy=False)
        if not (len(qids) == len(docs) == len(sc)):
            raise InputError('run columns have different lengths', source)
        bad = np.flatnonzero(~np.isfinite(sc))
        if len(bad):
            raise where.error(InputError, f'score {sc[bad[0]].item()!r} is not a finite number', int(bad[0]))
        vocab, codes = qids.encode()
        doc_fp = docs.fingerprint()
        dups = Duplicates.find(docs, doc_fp, codes)
        dropped = 0
        if dups is not None:
            if duplicates == 'error':
                g = dups.first()
                raise where.error(
                    DuplicateError,
                    f'duplicate document {id_at(docs, g[0])!r}: retrieved more than once for query '
                    f'{id_at(qids, g[0])!r}{where.at(g)} ({dups.count} duplicated '
                    f'pair(s) in all); trec_eval 10 refuses a document twice among those it evaluates: pass '
                    f'duplicates="first", "last" or "max" (--duplicates on the command line) to keep one', int(g[1]))
            drop = dups.to_drop(duplicates, sc)
            keep = np.ones(len(sc), dtype=bool)
            keep[drop] = False
            kept = np.flatnonzero(keep)
            dropped = len(drop)
            codes, sc, doc_fp = codes[kept], sc[kept], doc_fp[kept]
            docs = docs.take(kept)
        order = canonical_order(codes, sc, docs)
        return cls(vocab, codes, docs, sc, order, offsets_of(codes[order], len(vocab)), source, dropped, doc_fp)

    def top(self, depth: int) -> Run:
        """The run cut to the first ``depth`` documents of each ranking (trec_eval -M); every query stays,
        with an empty ranking if ``depth`` is 0."""
        sizes = np.diff(self.offsets)
        if depth >= sizes.max(initial=0):
            return self
        rows = self.order[ranges(sizes) < depth]              # kept rows, in ranked order
        qidx = self.qidx[rows]
        fingerprints = self.doc_fingerprints[rows] if self.doc_fingerprints is not None else None
        return Run(self.query_ids, qidx, self.doc_ids.take(rows), self.scores[rows],
                   np.arange(len(rows), dtype=np.int64), offsets_of(qidx, self.num_queries), self.source,
                   self.resolved_duplicates, fingerprints)

    def __len__(self) -> int:
        return len(self.qidx)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __iter__(self) -> Iterator[ScoredDoc]:
        """The rows in trec_eval order."""
        q = self.query_ids.to_list()
        for qi, d, s in zip(self.qidx[self.order].tolist(), self.doc_ids.take(self.order).to_list(),
                            self.scores[self.order].tolist(), strict=True):
            yield ScoredDoc(q[qi], d, s)

    # --- written back (see :mod:`.writing`: every form reads back to the same run) ------------------
    def _table(self) -> Any:
        """``query_id, doc_id, score, rank``, the rows in ranked order, ranks from 1."""
        from .writing import run_table
        return run_table(self)

    def to_trec(self, path: str | os.PathLike[str], tag: str = 'irmetrics') -> None:
        """Write a TREC run file ``query_id Q0 doc_id rank score tag`` (scores in their shortest exact
        form); an id holding white space is an error (TREC text cannot hold it)."""
        from .writing import write_trec
        write_trec(self._table(), path, tag)

    def __repr__(self) -> str:
        return f'<Run {self.source}: {self.num_queries} queries, {len(self)} documents>'
