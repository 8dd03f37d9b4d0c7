"""The one join of a ranked run with the qrels that every native kernel reads.

:class:`QrelsIndex` is built once per evaluator: the judged (query, document)
pairs as sorted integer keys, and per-query counts.  :class:`RankedTable` is
built once per run: the judged documents the run retrieved, in rank order
within each query, with their rank in the full ranking and among judged
documents only.  Unjudged documents matter to the measures only through the
ranks and the ranking lengths, so they are never materialised.

Queries are those of the qrels, indexed ``0 .. nq-1`` in the qrels' order; a
query absent from the run has an empty ranking.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import numpy as np

from ...data.ids import Ids, mix
from ...data.ids.index import IdIndex, KeyTable
from ...data.qrels import Qrels
from ...data.ranking import by_query_then_score, tie_starts
from ...data.run import Run
from ...data.segments import offsets_of, ranges, run_starts, running_count

# rows per block where a run-sized temporary would otherwise be allocated; 64 KiB temporaries come from
# the heap, not from mmap (Dask workers set MALLOC_TRIM_THRESHOLD_, which pins the mmap threshold at 128 KiB)
_BLOCK = 1 << 13
#: what a memoised computation gives
T = TypeVar('T')


class QrelsIndex:
    """Judgments of one qrels, keyed for joining (one grade per query and document).

    A document judged under several iterations (subtopics, in diversity qrels)
    keeps its highest grade for the measures that ignore subtopics.
    """

    def __init__(self, qrels: Qrels):
        self.qrels = qrels
        self.nq = qrels.num_queries
        self.doc_vocab, doc_codes = qrels.doc_ids.encode()
        self._row_doc_codes = doc_codes                     # for row_judgment
        self.n_docs = max(len(self.doc_vocab), 1)
        # a bitmap of judged-document fingerprints: rules out most retrieved documents before the exact join
        bits = int(np.clip(np.ceil(np.log2(16 * self.n_docs)), 16, 26))
        self._filter_mask = np.uint64((1 << bits) - 1)
        self._filter = np.zeros(1 << bits, dtype=bool)
        self._vocab_fingerprints = _vocabulary_fingerprints(qrels, self.doc_vocab, doc_codes)
        self._filter[(self._vocab_fingerprints & self._filter_mask).astype(np.int64)] = True
        keys = qrels.qidx.astype(np.int64) * self.n_docs + doc_codes
        order = np.argsort(keys, kind='stable')
        if np.any(keys[order][1:] == keys[order][:-1]):   # a document judged twice (subtopics): highest grade last
            order = np.lexsort((qrels.relevance, keys))
        keys, grades = keys[order], qrels.relevance[order]
        last = np.ones(len(keys), dtype=bool)
        last[:-1] = keys[1:] != keys[:-1]
        self.keys = keys[last]
        self.grades = grades[last]
        self.query = self.keys // self.n_docs
        self.offsets = offsets_of(self.query, self.nq)
        self._memo: dict[tuple[Hashable, ...], Any] = {}

    def cached(self, key: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
        """Memoise a qrels-only quantity (reused by every run the evaluator sees)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def count(self, low: float | None = None, high: float | None = None) -> np.ndarray:
        """Per query, the number of judged documents with low <= grade (< high)."""
        def compute() -> np.ndarray:
            mask = np.ones(len(self.grades), dtype=bool)
            if low is not None:
                mask &= self.grades >= low
            if high is not None:
                mask &= self.grades < high
            return np.bincount(self.query[mask], minlength=self.nq).astype(np.int64)
        return self.cached(('count', low, high), compute)

    @functools.cached_property
    def doc_index(self) -> IdIndex:
        """The judged documents found by fingerprint (built on the first run joined: array runs never ask)."""
        return IdIndex(self.doc_vocab, self._vocab_fingerprints)

    def maybe_judged(self, fingerprints: np.ndarray) -> np.ndarray:
        """False for documents certainly not in the qrels (by their :func:`ids.fingerprint`)."""
        out = np.empty(len(fingerprints), dtype=bool)
        for lo in range(0, len(fingerprints), _BLOCK):          # blocks: no run-sized temporaries
            slots = np.bitwise_and(fingerprints[lo:lo + _BLOCK], self._filter_mask)
            out[lo:lo + _BLOCK] = self._filter[slots.view(np.int64)]
        return out

    def judgments(self, doc_ids: Ids, rows: np.ndarray, fingerprints: np.ndarray, query: np.ndarray) -> np.ndarray:
        """For some rows of a run (its ``doc_ids``, the ``rows``, their documents' fingerprints and their
        queries' codes here), the position in ``keys`` of the judgment of each row's (query, document),
        -1 where there is none.

        Found by the fingerprint of the pair (one look in a :class:`KeyTable`), each match confirmed by
        comparing the documents' ids; where two judgments share a pair's fingerprint, through the documents'
        codes.
        """
        pairs = self._pairs
        if not pairs.distinct:
            return self._judgments_by_code(doc_ids, rows, fingerprints, query)
        at = pairs.find(mix(fingerprints, query))
        found = np.flatnonzero(at >= 0)
        at = at[found]
        same = (self.query[at] == query[found]) & doc_ids.take(rows[found]).equal(
            self.doc_vocab.take(self.keys[at] % self.n_docs))
        out = np.full(len(rows), -1, dtype=np.int64)
        out[found[same]] = at[same]
        return out

    @functools.cached_property
    def _pairs(self) -> KeyTable:
        """The fingerprints of the judgments' (document, query) pairs, in the order of ``keys``."""
        return KeyTable(mix(self._vocab_fingerprints[self.keys % self.n_docs], self.query))

    def _judgments_by_code(self, doc_ids: Ids, rows: np.ndarray, fingerprints: np.ndarray,
                           query: np.ndarray) -> np.ndarray:
        """:meth:`judgments` through each document's code among the judged documents."""
        doc_code = self.doc_index.lookup(doc_ids.take(rows), fingerprints)
        keys = query.astype(np.int64) * self.n_docs + doc_code
        at = np.minimum(np.searchsorted(self.keys, keys), max(len(self.keys) - 1, 0))
        hit = (doc_code >= 0) & (len(self.keys) > 0)
        hit[hit] = self.keys[at[hit]] == keys[hit]
        return np.where(hit, at, -1)

    def ideal(self, values: np.ndarray, cutoff: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ideal ranking by ``values`` (one per judgment): judgments of positive value, best first
        within each query, cut at ``cutoff``.  Returns (query, 0-based position, value)."""
        positive = values > 0
        q, v = self.query[positive], values[positive]
        order = by_query_then_score(q, v)                   # queries ascending, values descending
        q, v = q[order], v[order]
        position = ranges(np.bincount(q, minlength=self.nq))
        within = position < cutoff
        return q[within], position[within], v[within]

    def num_rel(self, rel: float) -> np.ndarray:
        return self.count(low=rel)

    def row_judgment(self) -> np.ndarray:
        """For each qrels row, its position in ``keys`` (rows judging one document under several
        iterations, i.e. subtopics, share it): the way from a ranked row's ``judgment`` back to them."""
        def compute() -> np.ndarray:
            row_keys = self.qrels.qidx.astype(np.int64) * self.n_docs + self._row_doc_codes
            return cast(np.ndarray, np.searchsorted(self.keys, row_keys))
        return self.cached(('row_judgment',), compute)


def _vocabulary_fingerprints(qrels: Qrels, vocabulary: Ids, codes: np.ndarray) -> np.ndarray:
    """The fingerprints of the qrels' distinct documents: those of their rows where the qrels kept them (each
    row of a document has its fingerprint), else hashed again."""
    if qrels.doc_fingerprints is None:
        return vocabulary.fingerprint()
    out = np.empty(len(vocabulary), dtype=np.uint64)
    out[codes] = qrels.doc_fingerprints
    return out


class RankedTable:
    """A run joined with a :class:`QrelsIndex` (see the module docstring).

    Retrieved documents present in the qrels, sorted by (query, rank):
    ``query``, ``rank`` (0-based rank in the ranking), ``grade`` (negative:
    pooled but unjudged, as trec_eval reads it), ``judged_rank`` (0-based rank
    among the judged documents, those with grade >= 0; -1 for the others).
    Per query: ``n_ret`` (ranking length) and ``n_judged_ret``.  ``judgment``
    is each row's position in ``index.keys`` (to reach per-subtopic judgments); ``position`` its position
    in the run's ranked order (``run.order``).
    """

    def __init__(self, index: QrelsIndex, run: Run):
        self.index = index
        self.run = run
        self.nq = index.nq
        qmap = run.query_ids.lookup(index.qrels.query_ids)        # run query -> qrels query (-1)
        seg_len = np.diff(run.offsets)
        self.n_ret = np.zeros(self.nq, dtype=np.int64)
        ok = qmap >= 0
        self.n_ret[qmap[ok]] = seg_len[ok]
        self.present = np.zeros(self.nq, dtype=bool)
        self.present[qmap[ok]] = True
        self._relevant: dict[float, np.ndarray] = {}
        self._memo: dict[tuple[Hashable, ...], Any] = {}

        row_query = qmap.astype(np.int32)[run.qidx]                      # per run row (file order)
        fingerprints = run.doc_fingerprints if run.doc_fingerprints is not None else run.doc_ids.fingerprint()
        cand = np.flatnonzero(index.maybe_judged(fingerprints) & (row_query >= 0))
        at = index.judgments(run.doc_ids, cand, fingerprints[cand], row_query[cand])
        rows, at = cand[at >= 0], at[at >= 0]
        position = self._positions(rows)
        rank = position - run.offsets[run.qidx[rows]]
        query = row_query[rows].astype(np.int64)
        later = (query[1:] > query[:-1]) | ((query[1:] == query[:-1]) & (rank[1:] > rank[:-1]))
        if not later.all():                          # rows not yet by (query, rank): a run not in ranked order
            order = np.lexsort((rank, query))
            query, rank, at, position = query[order], rank[order], at[order], position[order]
        self.position = position
        self._set_rows(query, rank, at)

    def _set_rows(self, query: np.ndarray, rank: np.ndarray, at: np.ndarray) -> None:
        """The judged rows retrieved, by (query, rank): their query, rank and judgment (position in ``index.keys``),
        and what follows from them."""
        self.query = query
        self.rank = rank
        self.judgment = at
        self.grade = self.index.grades[self.judgment]
        self.offsets = offsets_of(self.query, self.nq)
        judged = self.grade >= 0
        self.n_judged_ret = np.bincount(self.query[judged], minlength=self.nq).astype(np.int64)
        self.judged_rank = np.full(len(self.query), -1, dtype=np.int64)
        self.judged_rank[judged] = ranges(self.n_judged_ret)

    def _positions(self, rows: np.ndarray) -> np.ndarray:
        """Position of each run row in the ranked order (``run.order``)."""
        order = self.run.order
        if np.array_equal(order[rows], rows):
            return rows                                     # these rows did not move: position = row
        moved = np.concatenate([np.zeros(0, dtype=np.int64)] + [
            lo + np.flatnonzero(order[lo:lo + _BLOCK] != np.arange(lo, min(lo + _BLOCK, len(order))))
            for lo in range(0, len(order), _BLOCK)])
        if 8 * len(moved) < len(order):            # a sorted run with ties reordered: invert only what moved
            by_row = np.argsort(order[moved], kind='stable')    # near-sorted: the moves are local
            moved_rows, moved_to = order[moved][by_row], moved[by_row]
            at = np.minimum(np.searchsorted(moved_rows, rows), len(moved_rows) - 1)
            return np.where(moved_rows[at] == rows, moved_to[at], rows)
        inverse = np.empty(len(order), dtype=np.int64)
        for lo in range(0, len(order), _BLOCK):
            inverse[order[lo:lo + _BLOCK]] = np.arange(lo, min(lo + _BLOCK, len(order)))
        return cast(np.ndarray, inverse[rows])

    def memo(self, key: tuple[Hashable, ...], compute: Callable[[], T]) -> T:
        """Memoise a quantity of this run that several measures read (e.g. IPrec at several levels)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return cast(T, self._memo[key])

    def rank_in(self, judged_only: bool) -> np.ndarray:
        """Ranks of the judged rows in the ranking, or among judged documents (trec_eval -J)."""
        return self.judged_rank if judged_only else self.rank

    def tie_groups(self, judged_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The documents each row is tied with (equal scores, compared as doubles, in one query's ranking):
        per row, a group number (rows of one group are contiguous), the 0-based rank of the
        group's first document and the group's size, in the ranking the measures see (the judged
        documents only with ``judged_only``, where rows outside it get group -1, start -1 and size 0)."""
        return self.memo(('tie_groups', judged_only), lambda: self._tie_groups(judged_only))

    def _tie_groups(self, judged_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        run = self.run
        starts = np.flatnonzero(tie_starts(run.scores, run.order, run.offsets))
        group = np.searchsorted(starts, self.position, side='right') - 1
        size = np.append(starts[1:], len(run.order))[group] - starts[group]
        start = self.rank - (self.position - starts[group])
        if not judged_only:
            return group, start, size
        judged = self.judged_rank >= 0
        kept = group[judged]
        new = run_starts(kept)
        number = np.cumsum(new) - 1
        heads = np.flatnonzero(new)
        out_group = np.full(len(group), -1, dtype=np.int64)
        out_start = np.full(len(group), -1, dtype=np.int64)
        out_size = np.zeros(len(group), dtype=np.int64)
        out_group[judged] = number
        out_start[judged] = self.judged_rank[judged][heads][number]
        out_size[judged] = np.diff(np.append(heads, len(kept)))[number]
        return out_group, out_start, out_size

    def ret_count(self, judged_only: bool) -> np.ndarray:
        """Per query, the length of the ranking (only judged documents with judged_only)."""
        return self.n_judged_ret if judged_only else self.n_ret

    def relevant(self, rel: float) -> np.ndarray:
        """Mask of the rows with grade >= rel."""
        if rel not in self._relevant:
            self._relevant[rel] = self.grade >= rel
        return self._relevant[rel]

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per query, the number of rows selected by ``mask``."""
        return np.bincount(self.query[mask], minlength=self.nq).astype(np.float64)

    def total(self, mask: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per query, the sum of ``values`` (one per row selected by ``mask``)."""
        return np.bincount(self.query[mask], weights=values, minlength=self.nq)

    def count_before(self, mask: np.ndarray, at: np.ndarray | None = None) -> np.ndarray:
        """For each row selected by ``at`` (default ``mask``), how many ``mask`` rows of its query rank above it."""
        above = running_count(mask, self.query, self.offsets) - mask
        return cast(np.ndarray, above[mask if at is None else at])

    def first(self, mask: np.ndarray, values: np.ndarray, empty: float) -> np.ndarray:
        """Per query, ``values`` (one per row) at the best-ranked row selected by ``mask``, or ``empty``."""
        out = np.full(self.nq, empty, dtype=np.float64)
        q = self.query[mask]
        first = np.ones(len(q), dtype=bool)
        first[1:] = q[1:] != q[:-1]
        out[q[first]] = values[mask][first]
        return out
