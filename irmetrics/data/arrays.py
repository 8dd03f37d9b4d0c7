"""Runs and judgments held as arrays, as recommender models and training loops hold them.

* A run as a 2-D **float** array (users x items; any numeric type wrapped in :class:`Scores`): scores over
  the whole catalogue; the ranking is chosen from them by trec_eval's rule (score descending compared as
  doubles whatever the element type, ties by document id descending), in the array's own library and on
  its own device (:mod:`.top_ranking`).  A score of ``-inf`` is an item not ranked (masked: a user's
  training items, as a rule); ``exclude=`` (judgments-shaped, :class:`Exclusions`) masks cells without
  touching the array.
* A run as a 2-D **integer** array (users x k): each row the item indices of one user in rank order,
  rank 1 first; without scores the given order is the ranking, as if scored k, k-1, ..., 1.  When the
  judgments are a matrix as wide as this array, the array reads two ways (item indices, or a score per
  item): it is refused unless wrapped, :class:`TopK` or :class:`Scores`, which say which.
* A run as an ``(items, scores)`` pair of 2-D arrays of one shape (or ``TopK(items, scores)``): item
  indices and their scores (``-inf``: not ranked).
* Judgments as a **dense** 2-D array (users x items), a non-zero entry the grade of a judged item
  (zero: unjudged), or a **scipy.sparse** matrix, whose stored entries are judgments (an explicit 0
  is judged non-relevant).

Row ``i`` is the query whose id is the text of ``i``, column (or item index) ``j`` the document whose
id is the text of ``j``: every result and every message reads as if the arrays had been written as
TREC files, and gives the numbers that file gives.  Score matrices stay in their library
(:mod:`.array_library`: numpy, or torch on the CPU or a GPU; other DLPack arrays through one of those);
top-k arrays and judgments are read to the host (``numpy.from_dlpack``), as they hold users x k cells.
"""
from __future__ import annotations

import dataclasses
from typing import Any, cast

import numpy as np

from ..errors import DuplicateError, InputError
from . import ids
from .array_library import NUMPY, Library, dtype_kind, in_own_library, is_tensor
from .digest import digest
from .ids.int_ids import DIGITS, IntIds, text_key
from .judged_ranks import JudgedRanks, judged_ranks
from .qrels import LARGEST_GRADE, Qrels
from .run import Run
from .segments import offsets_of
from .top_ranking import TopRanking, rank_top


class TopK:
    """A run given as each user's top items in rank order: ``TopK(items)`` (users x k item indices, the
    given order the ranking) or ``TopK(items, scores)`` (their scores rank them).  Says how to read an
    integer array that could also be a score matrix (see the module docstring)."""

    def __init__(self, items: Any, scores: Any = None):
        self.items, self.scores = items, scores

    def __repr__(self) -> str:
        return f'TopK({_shape_text(self.items)}{", with scores" if self.scores is not None else ""})'


class Scores:
    """A run given as a users x items matrix of scores, whatever its element type: ``Scores(matrix)``
    reads an integer matrix (ranks, counts) as scores, never as item indices."""

    def __init__(self, matrix: Any):
        self.matrix = matrix

    def __repr__(self) -> str:
        return f'Scores({_shape_text(self.matrix)})'


def _shape_text(array: Any) -> str:
    shape = getattr(array, 'shape', None)
    return 'x'.join(map(str, shape)) if shape is not None else type(array).__name__


def is_array(obj: Any) -> bool:
    """A numpy array, a scipy.sparse matrix, another array exposing DLPack (not a column of a table:
    pandas, polars and Arrow objects are tables to irmetrics), or an array said to be :class:`TopK` or
    :class:`Scores`."""
    if isinstance(obj, (np.ndarray, TopK, Scores)) or _is_sparse(obj) or is_tensor(obj):
        return True
    return not type(obj).__module__.startswith(('pandas', 'polars', 'pyarrow')) and hasattr(obj, '__dlpack__')


def is_array_pair(obj: Any) -> bool:
    """An ``(items, scores)`` pair of arrays."""
    return isinstance(obj, tuple) and len(obj) == 2 and all(is_array(a) for a in obj)


def run_from_arrays(obj: Any, duplicates: str = 'error', depth: int | None = None) -> Run:
    """The :class:`Run` of a top-k array, a score matrix or an ``(items, scores)`` pair (module docstring)."""
    return ArrayRun(obj).run(duplicates, depth)


def check_arrays_fit(arrays: ArrayRun, judgments: Qrels | None, exclude: Exclusions | None, offset: int,
                     whole: bool) -> None:
    """That ``arrays`` (users from ``offset``; ``whole``: the whole run) fit the judgments (a users x items
    matrix, when given as one: :meth:`ArrayRun.check_fits`), the excluded cells, and the catalogue of the
    items known to the judgments (a score matrix scores each of its items)."""
    if judgments is not None:
        arrays.check_fits(judgments.matrix_shape, offset, whole)
    if exclude is not None:
        exclude.check_fits(arrays.shape, offset, arrays.is_scores, arrays.source)
    if arrays.is_scores and judgments is not None and judgments.items is not None:
        judgments.items.check_catalogue(arrays.shape[1], 'the run scores')


class Exclusions:
    """Cells of a run left out of the rankings: a users x items matrix (dense: its non-zero entries; scipy.sparse:
    its stored entries), as the training interactions of a recommender are, the alternative to scoring them
    ``-inf``.  Row ``i`` is the user ``i`` of the whole run (a batch at an offset reads its rows)."""

    def __init__(self, obj: Any):
        if isinstance(obj, (list, tuple)):     # rows of a mask, or each user's item indices?
            raise InputError(f'expected a users x items matrix (a numpy array, a tensor or a scipy.sparse matrix), '
                             f'non-zero where a cell is excluded, got a {type(obj).__name__}, which reads two ways '
                             f"(the rows of a mask, or each user's item indices): give numpy.array(mask), or each "
                             f"user's items as scipy.sparse.csr_matrix((numpy.ones(len(indices)), indices, offsets), "
                             f'shape=(users, items))', 'exclude')
        if _is_sparse(obj):
            matrix = obj.tocsr()
            matrix.sort_indices()
            self.indptr, self.indices = matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64)
        else:
            dense = _host_matrix(obj, 'exclude')
            rows, cols = np.nonzero(dense)
            self.indptr = offsets_of(rows, dense.shape[0]).astype(np.int64)
            self.indices = cols.astype(np.int64)
        self.shape = (int(obj.shape[0]), int(obj.shape[1]))

    def digest(self) -> str:
        """A hash of the excluded cells (:func:`.digest.digest`), for processes to compare."""
        return digest(self.indptr, self.indices, self.shape)

    def cells(self, first: int, last: int) -> tuple[np.ndarray, np.ndarray]:
        """(row within the block, item) of the excluded cells of users ``first .. last - 1``."""
        first, last = min(first, self.shape[0]), min(last, self.shape[0])
        lo, hi = self.indptr[first], self.indptr[last]
        rows = np.repeat(np.arange(last - first, dtype=np.int64), np.diff(self.indptr[first:last + 1]))
        return rows, self.indices[lo:hi]

    def check_fits(self, run_shape: tuple[int, int], offset: int, catalogue: bool, source: str) -> None:
        """That the run's users (from ``offset``) are rows of this matrix, and (``catalogue``: a score
        matrix) its items its columns."""
        users, width = run_shape
        if offset + users > self.shape[0]:
            raise InputError(f'the run holds users {offset} to {offset + users - 1}, and exclude= has '
                             f'{self.shape[0]} users (rows)', source)
        if catalogue and width != self.shape[1]:
            raise InputError(f'the run scores {width} items (columns) and exclude= has {self.shape[1]}: column j '
                             f'of both must be the same item', source)


class ArrayRun:
    """A run given as arrays, checked once, ranked in blocks of users (so that memory follows a block).

    A score matrix stays in its library (``library``) and is ranked there, only the top ``depth`` of each
    row when the measures read no deeper (:meth:`top`); top-k arrays are read to the host.  :meth:`run`
    gives a block as a :class:`Run`, in ranked order, without ids becoming text or a sort of the run.
    """

    def __init__(self, obj: Any):
        self.items: np.ndarray | None = None          # top-k item indices (host)
        self.given: np.ndarray | None = None          # their scores, when given (host)
        self.matrix: Any = None                       # a score matrix, in its library
        self.library: Library = NUMPY
        self.wrapped = isinstance(obj, (TopK, Scores))
        if isinstance(obj, TopK):
            obj = obj.items if obj.scores is None else (obj.items, obj.scores)
            self._read_top(obj, forced=True)
        elif isinstance(obj, Scores):
            self._read_scores(obj.matrix)
        else:
            self._read_top(obj, forced=False)
        held: Any = self.items if self.items is not None else self.matrix
        self.shape: tuple[int, int] = (int(held.shape[0]), int(held.shape[1]))

    def _read_top(self, obj: Any, forced: bool) -> None:
        if is_array_pair(obj):
            self.source = 'run arrays'
            items, scores = (_host_matrix(a, name) for a, name in zip(obj, ('run items', 'run scores'), strict=True))
            if items.shape != scores.shape:
                raise InputError(f'the items {items.shape} and scores {scores.shape} of a run have different '
                                 f'shapes', self.source)
            self.items, self.given = _indices(items, 'run items'), _given_scores(scores, 'run scores')
            return
        self.source = 'run array'
        if forced:
            self.items = _indices(_host_matrix(obj, self.source), self.source)
            return
        kind = dtype_kind(obj) if is_tensor(obj) or isinstance(obj, np.ndarray) else None
        if kind in ('i', 'u'):
            items = _host_matrix(obj, self.source)
            if int(items.min()) < 0:              # not item indices: scores (negated ranks), unless a mistake
                row, column = (int(i) for i in np.argwhere(items < 0)[0])
                raise _reads_two_ways(f'a 2-D integer array with a negative value ({int(items[row, column])} at row '
                                      f'{row}, column {column}; item indices are >= 0)', '', self.source)
            self.items = _indices(items, self.source)
        else:
            self._read_scores(obj)

    def _read_scores(self, obj: Any) -> None:
        self.source = 'run array'
        self.matrix, self.library = in_own_library(obj, self.source)

    @property
    def is_scores(self) -> bool:
        return self.matrix is not None

    @property
    def cells(self) -> int:
        return self.shape[0] * self.shape[1]

    def top(self, first: int, last: int, depth: int | None, exclude: Exclusions | None = None,
            offset: int = 0) -> TopRanking | None:
        """The top ``depth`` (all: None) of users ``first .. last - 1`` in trec_eval's order, in the array's
        library; None where a row of a top-k array repeats an item (:meth:`run` resolves it).  ``offset``:
        the user of row 0 (a batch of a larger run), for ``exclude`` and messages."""
        if self.matrix is not None:
            masked = None if exclude is None else (lambda lo, hi: exclude.cells(offset + first + lo,
                                                                                 offset + first + hi))
            k = self.shape[1] if depth is None else depth
            return rank_top(self.matrix[first:last], k, self.library, offset + first, self.source, masked)
        items = self._top_items()[first:last]
        if _repeated(items) is not None:
            return None
        scores = (np.broadcast_to(np.arange(self.shape[1], 0, -1, dtype=np.float64), items.shape)
                  if self.given is None else self.given[first:last])
        ranked = np.ones(items.shape, dtype=bool) if self.given is None else scores > -np.inf
        if exclude is not None:
            ranked &= ~_excluded(items, exclude, offset + first)
        if self.given is not None or exclude is not None:    # score descending, then item id descending
            order = np.lexsort((-text_key(items.astype(np.int64)), -scores.astype(np.float64), ~ranked), axis=1)
            items, scores, ranked = (np.take_along_axis(a, order, axis=1) for a in (items, scores, ranked))
        k = items.shape[1] if depth is None else min(depth, items.shape[1])
        items, scores, ranked = items[:, :k], scores[:, :k], ranked[:, :k]
        return TopRanking(np.where(ranked, items, -1).astype(np.int64), np.where(ranked, scores, -np.inf),
                          ranked.sum(axis=1))

    def judged_ranks(self, first: int, last: int, rows: np.ndarray, items: np.ndarray,
                     exclude: Exclusions | None = None, offset: int = 0) -> JudgedRanks:
        """The exact rank of ``items[i]`` in row ``rows[i]`` (within users ``first .. last - 1``) of a score matrix,
        and each row's ranking length, counted without ranking the rows (:func:`.judged_ranks.judged_ranks`);
        ``offset`` as for :meth:`top`."""
        masked = None if exclude is None else (lambda lo, hi: exclude.cells(offset + first + lo, offset + first + hi))
        return judged_ranks(self.matrix[first:last], rows, items, self.library, offset + first, self.source, masked)

    def _top_items(self) -> np.ndarray:
        if self.items is None:
            raise TypeError('a score matrix has no top-k items')
        return self.items

    def run(self, duplicates: str = 'error', depth: int | None = None, first: int = 0, last: int | None = None,
            exclude: Exclusions | None = None, offset: int = 0) -> Run:
        """The run of users ``first`` to ``last`` (all by default), their ids those of the whole run
        (row ``i`` is the user ``offset + i``)."""
        last = self.shape[0] if last is None else last
        top = self.top(first, last, depth, exclude, offset)
        if top is None:
            items = self._top_items()[first:last]
            repeated = _repeated(items)
            assert repeated is not None                   # top is None only when a row repeats an item
            row, column, later = repeated
            if duplicates == 'error':
                raise DuplicateError(f'item {int(items[row, column])} appears twice in row {offset + first + row} '
                                     f'(columns {column} and {later}), as a document twice in a TREC run, which '
                                     f'trec_eval refuses: pass duplicates="first", "last" or "max" to keep one',
                                     self.source)
            return self._resolved(first, last, duplicates, depth, exclude, offset)
        return host_run(top, self.library, self.source, offset + first)

    def _resolved(self, first: int, last: int, duplicates: str, depth: int | None, exclude: Exclusions | None,
                  offset: int) -> Run:
        """The run of rows where an item appears twice, the ``duplicates`` policy applied as to a long table."""
        items = self._top_items()[first:last]
        scores = (np.broadcast_to(np.arange(self.shape[1], 0, -1, dtype=np.float64), items.shape)
                  if self.given is None else self.given[first:last])
        keep = scores > -np.inf
        if exclude is not None:
            keep &= ~_excluded(items, exclude, offset + first)
        users = np.repeat(np.arange(offset + first, offset + last, dtype=np.int64), items.shape[1])
        run = Run.from_columns(users[keep.ravel()], items.astype(np.int64)[keep],
                               np.ascontiguousarray(scores)[keep], source=self.source, duplicates=duplicates)
        return run.top(depth) if depth else run

    def check_fits(self, shape: tuple[int, int] | None, offset: int = 0, whole: bool = True) -> None:
        """That this run fits judgments given as a users x items matrix of ``shape`` (None: not a matrix):
        its users rows of the matrix (``whole``: all of them, row ``i`` of both one user; else from row
        ``offset``), and its items within the matrix's columns (a score matrix: exactly its columns).  An
        integer array as wide as the matrix reads two ways, and is refused unless wrapped."""
        if shape is None:
            return
        users, catalogue = shape
        if whole and self.shape[0] != users:
            raise InputError(f'the run has {self.shape[0]} users (rows) and the qrels array {users}: row i of '
                             f'both must be the same user', self.source)
        if not whole and offset + self.shape[0] > users:
            raise InputError(f'the batch holds users {offset} to {offset + self.shape[0] - 1} (offset {offset}, '
                             f'{self.shape[0]} rows) and the qrels array has {users} users (rows)', self.source)
        if self.matrix is not None and self.shape[1] != catalogue:
            raise InputError(f'the run scores {self.shape[1]} items (columns) and the qrels array has {catalogue}: '
                             f'column j of both must be the same item', self.source)
        if self.items is None:
            return
        if not self.wrapped and self.given is None and self.shape[1] == catalogue:
            raise _reads_two_ways(f'a 2-D integer array as wide as the catalogue ({catalogue} columns)',
                                  f'{catalogue} ', self.source)
        if self.items.size and int(self.items.max()) >= catalogue:
            row, column = (int(i) for i in np.argwhere(self.items >= catalogue)[0])
            raise InputError(f'item index {int(self.items[row, column])} at row {offset + row}, column {column} is '
                             f'out of range: the qrels array has {catalogue} items (columns)', self.source)


def _reads_two_ways(what: str, count: str, source: str) -> InputError:
    """The error for a 2-D integer array that could be either run (``what`` says why it is in doubt; ``count``: the
    number of items, with its space, where known)."""
    each = f'each of the {count}items' if count else 'each item'
    return InputError(f"{what} reads two ways: as each user's top {count}item indices in rank order, or as a score "
                      f'for {each}; say which: irmetrics.TopK(array) or irmetrics.Scores(array)', source)


def host_run(top: TopRanking, library: Library, source: str, first: int) -> Run:
    """The :class:`Run` of a top ranking (rows in ranked order, no item twice in a row), on the host; row
    ``i`` is the user ``first + i``, and a row that ranks nothing is not in the run."""
    items, scores, lengths = (library.to_host(a) for a in top)
    n_users, k = items.shape
    if k == 0 or not lengths.any():
        return Run.from_columns([], [], [], source=source)
    present = np.flatnonzero(lengths > 0)
    if len(present) == n_users and bool((lengths == k).all()):
        doc, score, sizes = items.ravel(), scores.ravel(), np.full(n_users, k, dtype=np.int64)
    else:
        inside = np.arange(k) < lengths[:, None]
        doc, score, sizes = items[inside], scores[inside], lengths[present]
    n = int(sizes.sum())
    qidx = np.repeat(np.arange(len(present), dtype=np.int32), sizes)
    return Run(IntIds(first + present.astype(np.int64)), qidx, IntIds(doc.astype(np.int64)),
               np.ascontiguousarray(score, dtype=np.float64), np.arange(n, dtype=np.int64),
               np.concatenate(([0], np.cumsum(sizes))).astype(np.int64), source)


def _excluded(items: np.ndarray, exclude: Exclusions, first: int) -> np.ndarray:
    """Which cells of a block of top-k rows (users from ``first``) hold an excluded item."""
    rows, cols = exclude.cells(first, first + items.shape[0])
    if len(rows) == 0:
        return np.zeros(items.shape, dtype=bool)
    width = int(max(cols.max(), items.max(initial=0))) + 1
    keys = np.sort(rows * width + cols)
    cells = np.arange(items.shape[0], dtype=np.int64)[:, None] * width + items
    at = np.minimum(np.searchsorted(keys, cells), len(keys) - 1)
    return cast(np.ndarray, keys[at] == cells)


def _repeated(items: np.ndarray) -> tuple[int, int, int] | None:
    """(row, column, later column) of the first item that appears twice in a row, or None."""
    if items.shape[1] < 2:
        return None
    ordered = np.sort(items, axis=1)
    twice = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
    if len(twice) == 0:
        return None
    row = int(twice[0])
    values = items[row]
    order = np.argsort(values, kind='stable')
    later = order[np.flatnonzero(values[order][1:] == values[order][:-1]) + 1]    # each repeat's column
    second = int(later.min())
    return row, int(np.flatnonzero(values == values[second])[0]), second


def qrels_from_matrix(obj: Any, duplicates: str = 'error') -> Qrels:
    """The :class:`Qrels` of a dense or scipy.sparse users x items matrix of grades (module docstring).

    Entries come row by row, so the qrels are built in that order directly; only a sparse matrix that
    stores a cell twice (a duplicate judgment) goes through the checks of a long table.
    """
    if _is_sparse(obj):
        coo = obj.tocoo()
        users, items, grades = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
        shape = (int(obj.shape[0]), int(obj.shape[1]))
        ordered = obj.format == 'csr' and bool(obj.has_canonical_format)    # rows, then columns; no cell twice
    else:
        matrix = _host_matrix(obj, 'qrels array')
        shape = (int(matrix.shape[0]), int(matrix.shape[1]))
        users, items = np.nonzero(matrix)
        grades = matrix[users, items]
        ordered = True
    if grades.dtype.kind == 'f':
        whole = np.isfinite(grades) & (grades == np.round(grades))
        if not whole.all():
            bad = int(np.flatnonzero(~whole)[0])
            raise InputError(f'the grade {grades[bad].item()!r} at row {int(users[bad])}, column {int(items[bad])} '
                             f'is not a whole number', 'qrels array')
    if len(grades) and max(abs(float(grades.min())), abs(float(grades.max()))) >= LARGEST_GRADE:
        huge = int(np.flatnonzero(np.abs(grades.astype(np.float64)) >= LARGEST_GRADE)[0])
        raise InputError(f'the grade {grades[huge].item()!r} at row {int(users[huge])}, column {int(items[huge])} is '
                         f'too large', 'qrels array')
    if not ordered:
        cells = users * (int(items.max(initial=0)) + 1) + items
        if not np.all(cells[1:] > cells[:-1]):
            order = np.lexsort((items, users))
            users, items, grades, cells = users[order], items[order], grades[order], cells[order]
            twice = np.flatnonzero(cells[1:] == cells[:-1])
            if len(twice) and duplicates == 'error':
                row, column = int(users[twice[0]]), int(items[twice[0]])
                raise DuplicateError(f'the cell at row {row}, column {column} is stored more than once: item '
                                     f'{column} judged twice for user {row} ({len(twice)} repeated cell(s) in all); '
                                     f'pass duplicates="max" to keep the highest grade', 'qrels array')
            if len(twice):
                qrels = Qrels.from_columns(users, items, grades.astype(np.int64), source='qrels array',
                                           duplicates=duplicates)
                return dataclasses.replace(qrels, matrix_shape=shape)
    query_ids, qidx = IntIds(users).encode()
    return Qrels(query_ids, qidx, IntIds(items), grades.astype(np.int64), ids.repeat('0', len(users)),
                 offsets_of(qidx, len(query_ids)), 'qrels array', matrix_shape=shape)


def _host_matrix(obj: Any, name: str) -> np.ndarray:
    """``obj`` as a 2-D numpy array on the host (an array on a GPU copied), or an error naming ``name``."""
    array, library = in_own_library(obj, name)
    return library.to_host(array)


def _indices(items: np.ndarray, name: str) -> np.ndarray:
    """Item indices checked (integers from 0 to 10**17 - 1, as ids of the integer layout), not copied."""
    if items.dtype.kind not in 'iu':
        raise InputError(f'item indices must be integers, got {items.dtype}', name)
    if items.size == 0:
        return items
    for outside, rule in ((int(items.min()) < 0, 'indices are >= 0'),
                          (int(items.max()) >= 10 ** DIGITS, f'indices are below 10**{DIGITS}')):
        if outside:
            bad = (items < 0) if rule == 'indices are >= 0' else (items.astype(np.uint64) >= 10 ** DIGITS)
            row, column = (int(i) for i in np.argwhere(bad)[0])
            raise InputError(f'item index {int(items[row, column])} at row {row}, column {column}: {rule}', name)
    return items


def _given_scores(scores: np.ndarray, name: str) -> np.ndarray:
    """The scores of top-k items, checked (finite, or -inf for an item not ranked), as float64."""
    scores = scores.astype(np.float64, copy=False)
    bad = np.argwhere(np.isnan(scores) | (scores == np.inf))
    if len(bad):
        row, column = (int(i) for i in bad[0])
        raise InputError(f'the score {scores[row, column].item()!r} at row {row}, column {column} is not a number '
                         f'a ranking can use: scores are finite, or -inf for an item not ranked (masked)', name)
    return scores


def _is_sparse(obj: Any) -> bool:
    return type(obj).__module__.startswith('scipy.sparse')
