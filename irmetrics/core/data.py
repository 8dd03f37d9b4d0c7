"""Columnar qrels and runs: every input becomes these once.

Ids are id columns (:mod:`.ids`: numpy object arrays when small, Arrow strings
when large); codes and numbers are numpy arrays.  Both classes
are immutable and can be evaluated any number of times; iterating them yields
``Qrel`` / ``ScoredDoc`` named tuples (the ir_measures record types).

A :class:`Run` is validated when it is built: scores must be finite, and the
same (query, document) pair may occur once unless a ``duplicates`` policy says
which occurrence to keep.  Its rows are then ranked once, by the rule of
:mod:`irmetrics.core.ranking`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple

import numpy as np

from . import ids
from .errors import DuplicateError, InputError
from .ranking import canonical_order
from .segments import offsets_of

DUPLICATE_POLICIES = ('error', 'first', 'last', 'max')
#: A qrels' policy for a document judged more than once for a query: 'error' (trec_eval) or its highest grade.
QRELS_DUPLICATE_POLICIES = ('error', 'max')


class Qrel(NamedTuple):
    """One relevance judgment; ``iteration`` is the subtopic id in diversity qrels."""
    query_id: str
    doc_id: str
    relevance: int
    iteration: str = '0'


class ScoredDoc(NamedTuple):
    """One retrieved document with its score."""
    query_id: str
    doc_id: str
    score: float


class RowLocator:
    """Turns a row index into the place a user can find it (file line or item number).

    ``lines`` gives each row's 1-based line number, or is a function computing
    them (readers compute line numbers only when an error needs one).
    """

    def __init__(self, source: str, lines: np.ndarray | Callable[[], np.ndarray] | None = None):
        self.source = source
        self._lines = lines

    @property
    def lines(self) -> np.ndarray | None:
        if callable(self._lines):
            self._lines = self._lines()
        return self._lines

    def line(self, row: int) -> int:
        return int(self.lines[row]) if self.lines is not None else int(row) + 1

    def error(self, cls, problem: str, row: int | None = None) -> InputError:
        if row is None:
            return cls(problem, self.source)
        if self.lines is None:
            return cls(f'item {int(row) + 1}: {problem}', self.source)
        return cls(problem, self.source, self.line(row))

    def describe_lines(self, rows: np.ndarray) -> str:
        word = 'lines' if self.lines is not None else 'items'
        return f'{word} {", ".join(str(self.line(r)) for r in rows[:5])}{", ..." if len(rows) > 5 else ""}'


class Duplicates:
    """Rows sharing (doc id, code, ...) with another row, as groups numbered in order of first appearance.

    ``rows`` are sorted by group, then row; ``group[i]`` is the group of ``rows[i]``.
    """

    def __init__(self, rows: np.ndarray, group: np.ndarray):
        self.rows, self.group = rows, group

    @property
    def count(self) -> int:
        return int(self.group[-1]) + 1

    def first(self) -> np.ndarray:
        """The rows of the group that appears first."""
        return self.rows[self.group == 0]

    def to_drop(self, policy: str, scores: np.ndarray) -> np.ndarray:
        """Rows to drop so that one row per group remains: the first, the last, or the highest-scoring
        (the earliest among equal scores)."""
        if policy == 'max':
            order = np.lexsort((self.rows, -scores[self.rows], self.group))
        else:
            order = np.arange(len(self.rows)) if policy == 'first' else np.lexsort((-self.rows, self.group))
        group = self.group[order]
        kept = np.ones(len(order), dtype=bool)
        kept[1:] = group[1:] != group[:-1]
        return self.rows[order[~kept]]

    @classmethod
    def find(cls, doc_ids, fingerprints: np.ndarray, *codes: np.ndarray) -> 'Duplicates | None':
        """The duplicates among rows (None if there are none), vectorised.

        Fingerprints (:func:`ids.fingerprint` of the doc ids, mixed with the codes) find candidates
        in O(n log n) on integers; candidates are then compared exactly, so a fingerprint
        collision never merges different rows.
        """
        if len(fingerprints) < 2:
            return None
        keys = ids.mix(fingerprints, *codes)
        keys.sort()                                         # in place: the common case needs nothing else
        repeated = keys[1:][keys[1:] == keys[:-1]]
        del keys
        if len(repeated) == 0:
            return None
        keys = ids.mix(fingerprints, *codes)
        rows = np.flatnonzero(np.isin(keys, repeated))
        rows = rows[np.lexsort((rows, keys[rows]))]       # by key, then row
        new_key = np.ones(len(rows), dtype=bool)
        new_key[1:] = keys[rows[1:]] != keys[rows[:-1]]
        same = ids.equal(ids.take(doc_ids, rows[1:]), ids.take(doc_ids, rows[:-1]))
        for c in codes:
            same &= c[rows[1:]] == c[rows[:-1]]
        if not np.all(new_key[1:] | same):
            return cls._find_exactly(doc_ids, rows, codes)      # a fingerprint collision: compare ids
        return cls._numbered(rows, np.cumsum(new_key) - 1)

    @classmethod
    def _find_exactly(cls, doc_ids, rows: np.ndarray, codes) -> 'Duplicates | None':
        groups: dict[tuple, int] = {}
        label = np.array([groups.setdefault((d, *(int(c[r]) for c in codes)), len(groups))
                          for r, d in zip(rows.tolist(), ids.to_list(ids.take(doc_ids, rows)))], dtype=np.int64)
        size = np.bincount(label)
        keep = size[label] > 1
        if not keep.any():
            return None
        return cls._numbered(rows[keep], np.unique(label[keep], return_inverse=True)[1])

    @classmethod
    def _numbered(cls, rows: np.ndarray, label: np.ndarray) -> 'Duplicates':
        """Groups renumbered by their first row, rows sorted by (group, row)."""
        first_row = np.full(int(label.max()) + 1, np.iinfo(np.int64).max)
        np.minimum.at(first_row, label, rows)
        rank = np.empty_like(first_row)
        rank[np.argsort(first_row)] = np.arange(len(first_row))
        group = rank[label]
        order = np.lexsort((rows, group))
        return cls(rows[order], group[order])


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments in columns, rows grouped by query.

    ``query_ids`` is the query vocabulary in order of first appearance; row ``i``
    belongs to query ``qidx[i]``; rows of query ``q`` are ``offsets[q]:offsets[q+1]``.
    """

    query_ids: Any
    qidx: np.ndarray
    doc_ids: Any
    relevance: np.ndarray
    iteration: Any
    offsets: np.ndarray
    source: str = 'qrels'
    #: (problem, line) when a document is judged under several iterations and the policy is 'error':
    #: measures that read one grade per document refuse these qrels (diversity measures read them)
    judged_twice: tuple[str, int | None] | None = None

    @classmethod
    def from_columns(cls, query_ids, doc_ids, relevance, iteration=None, *, source: str = 'qrels',
                     lines=None, duplicates: str = 'error') -> 'Qrels':
        """Build from per-row columns.

        A document judged more than once for a query under the same iteration is an error unless
        ``duplicates='max'`` (keep its highest grade).  Under different iterations (subtopics, in
        diversity qrels) every judgment is kept; with ``duplicates='error'`` the measures that read one
        grade per document then refuse the qrels, as trec_eval does, and with ``'max'`` they read the
        highest grade.
        """
        if duplicates not in QRELS_DUPLICATE_POLICIES:
            raise ValueError(f'qrels duplicates must be one of {", ".join(map(repr, QRELS_DUPLICATE_POLICIES))}, '
                             f'not {duplicates!r}')
        where = RowLocator(source, lines)
        qids = ids.column(query_ids)
        docs = ids.column(doc_ids)
        rel = np.asarray(relevance)
        if rel.dtype.kind not in 'iu':
            rel = _integral(rel, where)
        rel = rel.astype(np.int64, copy=False)
        its = ids.column(iteration) if iteration is not None else ids.repeat('0', len(qids))
        if not (len(qids) == len(docs) == len(rel) == len(its)):
            raise InputError('qrels columns have different lengths', source)
        vocab, codes = ids.encode(qids)
        _, it_codes = ids.encode(its)
        fingerprints = ids.fingerprint(docs)
        dups = Duplicates.find(docs, fingerprints, codes, it_codes)
        if dups is not None:
            g = dups.first()
            if duplicates == 'error':
                raise where.error(DuplicateError,
                                  f'duplicate judgment: document {_at(docs, g[0])!r} judged more than once for '
                                  f'query {_at(qids, g[0])!r} (iteration {_at(its, g[0])!r}), at '
                                  f'{where.describe_lines(g)}; pass duplicates="max" to keep its highest grade',
                                  int(g[1]))
            kept = np.setdiff1d(np.arange(len(rel)), dups.to_drop('max', rel), assume_unique=True)
            codes, it_codes, rel, fingerprints = codes[kept], it_codes[kept], rel[kept], fingerprints[kept]
            docs, its = ids.take(docs, kept), ids.take(its, kept)
        judged_twice = None
        if duplicates == 'error':
            across = Duplicates.find(docs, fingerprints, codes)
            if across is not None:
                g = across.first()
                iterations = ', '.join(repr(i) for i in ids.to_list(ids.take(its, g)))
                judged_twice = (f'document {_at(docs, g[0])!r} is judged more than once for query '
                                f'{_at(qids, g[0])!r} (iterations {iterations}), at {where.describe_lines(g)}',
                                where.line(int(g[1])) if where.lines is not None else None)
        order = np.argsort(codes, kind='stable')
        codes = codes[order]
        return cls(vocab, codes, ids.take(docs, order), rel[order], ids.take(its, order),
                   offsets_of(codes, len(vocab)), source, judged_twice)

    def __len__(self) -> int:
        return len(self.qidx)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __iter__(self) -> Iterator[Qrel]:
        q = ids.to_list(self.query_ids)
        for qi, d, r, it in zip(self.qidx.tolist(), ids.to_list(self.doc_ids), self.relevance.tolist(),
                                ids.to_list(self.iteration)):
            yield Qrel(q[qi], d, r, it)

    def __repr__(self) -> str:
        return f'<Qrels {self.source}: {self.num_queries} queries, {len(self)} judgments>'


@dataclass(frozen=True, eq=False)
class Run:
    """A ranked run in columns.

    ``qidx``, ``doc_ids`` and ``scores`` are per row (duplicates already
    resolved); ``order`` lists the rows in trec_eval order (grouped by query code,
    score descending, doc id descending) and ``offsets[q]:offsets[q+1]`` is the
    slice of ``order`` holding query ``q``'s ranking.
    """

    query_ids: Any
    qidx: np.ndarray
    doc_ids: Any
    scores: np.ndarray
    order: np.ndarray
    offsets: np.ndarray
    source: str = 'run'
    resolved_duplicates: int = 0
    doc_fingerprints: np.ndarray | None = None     # ids.fingerprint(doc_ids), kept for joining

    @classmethod
    def from_columns(cls, query_ids, doc_ids, scores, *, source: str = 'run', duplicates: str = 'error',
                     lines=None) -> 'Run':
        """Build from per-row columns (see the class docstring for ``duplicates``)."""
        if duplicates not in DUPLICATE_POLICIES:
            raise ValueError(f'duplicates must be one of {", ".join(map(repr, DUPLICATE_POLICIES))}, '
                             f'not {duplicates!r}')
        where = RowLocator(source, lines)
        qids = ids.column(query_ids)
        docs = ids.column(doc_ids)
        sc = np.asarray(scores)
        if sc.dtype.kind not in 'fiub':
            raise InputError(f'scores must be numbers (got {sc.dtype})', source)
        sc = sc.astype(np.float64, copy=False)
        if not (len(qids) == len(docs) == len(sc)):
            raise InputError('run columns have different lengths', source)
        bad = np.flatnonzero(~np.isfinite(sc))
        if len(bad):
            raise where.error(InputError, f'score {sc[bad[0]].item()!r} is not a finite number', int(bad[0]))
        vocab, codes = ids.encode(qids)
        doc_fp = ids.fingerprint(docs)
        dups = Duplicates.find(docs, doc_fp, codes)
        dropped = 0
        if dups is not None:
            if duplicates == 'error':
                g = dups.first()
                raise where.error(
                    DuplicateError,
                    f'duplicate document {_at(docs, g[0])!r}: retrieved more than once for query '
                    f'{_at(qids, g[0])!r}, at {where.describe_lines(g)} ({dups.count} duplicated '
                    f'pair(s) in all); trec_eval refuses such runs: pass duplicates="first", "last" or "max" '
                    f'to keep one', int(g[1]))
            drop = dups.to_drop(duplicates, sc)
            keep = np.ones(len(sc), dtype=bool)
            keep[drop] = False
            kept = np.flatnonzero(keep)
            dropped = len(drop)
            codes, sc, doc_fp = codes[kept], sc[kept], doc_fp[kept]
            docs = ids.take(docs, kept)
        order = canonical_order(codes, sc, docs)
        return cls(vocab, codes, docs, sc, order, offsets_of(codes[order], len(vocab)), source, dropped, doc_fp)

    def __len__(self) -> int:
        return len(self.qidx)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __iter__(self) -> Iterator[ScoredDoc]:
        """The rows in trec_eval order."""
        q = ids.to_list(self.query_ids)
        for qi, d, s in zip(self.qidx[self.order].tolist(), ids.to_list(ids.take(self.doc_ids, self.order)),
                            self.scores[self.order].tolist()):
            yield ScoredDoc(q[qi], d, s)

    def __repr__(self) -> str:
        return f'<Run {self.source}: {self.num_queries} queries, {len(self)} documents>'


def _at(values, row) -> str:
    return ids.to_list(ids.take(values, [int(row)]))[0]


def _integral(values: np.ndarray, where: RowLocator) -> np.ndarray:
    """Relevance given as floats or objects must hold whole numbers."""
    try:
        as_float = values.astype(np.float64)
    except (TypeError, ValueError):
        raise where.error(InputError, 'relevance must be an integer') from None
    bad = np.flatnonzero(~np.isfinite(as_float) | (as_float != np.round(as_float)))
    if len(bad):
        raise where.error(InputError, f'relevance {values[bad[:1]].tolist()[0]!r} is not an integer', int(bad[0]))
    huge = np.flatnonzero(np.abs(as_float) >= 2.0 ** 53)      # beyond this, floats no longer hold every integer
    if len(huge):
        raise where.error(InputError, f'relevance {values[huge[:1]].tolist()[0]!r} is too large', int(huge[0]))
    return as_float.astype(np.int64)
