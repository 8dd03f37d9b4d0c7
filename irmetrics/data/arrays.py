"""Runs and judgments held as arrays, as recommender models and training loops hold them.

* A run as a 2-D **integer** array (users x k): each row the item indices of one user in rank order,
  rank 1 first; without scores the given order is the ranking, as if scored k, k-1, ..., 1.
* A run as a 2-D **float** array (users x items): scores over the whole catalogue; the ranking is
  chosen from them by trec_eval's rule (score descending, ties by document id descending).
* A run as an ``(items, scores)`` pair of 2-D arrays of one shape: item indices and their scores.
* Judgments as a **dense** 2-D array (users x items), a non-zero entry the grade of a judged item
  (zero: unjudged), or a **scipy.sparse** matrix, whose stored entries are judgments (an explicit 0
  is judged non-relevant).

Row ``i`` is the query whose id is the text of ``i``, column (or item index) ``j`` the document whose
id is the text of ``j``: every result and every message reads as if the arrays had been written as
TREC files, and gives the numbers that file gives.  Arrays that expose DLPack (torch tensors, JAX
and CuPy arrays) are read without a copy on the CPU (``numpy.from_dlpack``).  Rows and columns
become id columns of integers, which the id layer turns into their text.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import DuplicateError, InputError
from . import ids
from .ids.int_ids import DIGITS, IntIds, text_key
from .qrels import LARGEST_GRADE, Qrels
from .run import Run
from .segments import offsets_of

#: DLPack device types numpy reads in place: the CPU, and CUDA memory pinned for the host
_CPU = 1
_HOST = (_CPU, 3)
#: cells of a score matrix ranked at once (blocks of rows bound the temporaries)
_BLOCK_CELLS = 1 << 20


def is_array(obj: Any) -> bool:
    """A numpy array, a scipy.sparse matrix, or another array exposing DLPack (not a column of a table:
    pandas, polars and Arrow objects are tables to irmetrics)."""
    if isinstance(obj, np.ndarray) or _is_sparse(obj):
        return True
    return not type(obj).__module__.startswith(('pandas', 'polars', 'pyarrow')) and hasattr(obj, '__dlpack__')


def is_array_pair(obj: Any) -> bool:
    """An ``(items, scores)`` pair of arrays."""
    return isinstance(obj, tuple) and len(obj) == 2 and all(is_array(a) for a in obj)


def run_from_arrays(obj: Any, duplicates: str = 'error', depth: int | None = None) -> Run:
    """The :class:`Run` of a top-k array, a score matrix or an ``(items, scores)`` pair (module docstring)."""
    return ArrayRun(obj).run(duplicates, depth)


class ArrayRun:
    """A run given as arrays, checked once, and ranked into :class:`Run` objects: whole, or in blocks of
    whole users (so that a run of a million users is evaluated in memory proportional to a block).

    Each row is ranked by trec_eval's rule on its own (a sort along the rows; in a score matrix only the
    ``depth`` best of a row, chosen by ``np.partition``, when the measures read only the first ``depth``
    of each ranking), and a run is built in ranked order: no id becomes text and no sort runs over the
    whole run.  Integer and float32 arrays are widened a block at a time.
    """

    def __init__(self, obj: Any):
        self.items: np.ndarray | None
        self.scores: np.ndarray | None
        if is_array_pair(obj):
            self.source = 'run arrays'
            items, scores = (_matrix(a, name) for a, name in zip(obj, ('run items', 'run scores'), strict=True))
            if items.shape != scores.shape:
                raise InputError(f'the items {items.shape} and scores {scores.shape} of a run have different '
                                 f'shapes', self.source)
            self.items, self.scores = _indices(items, 'run items'), _scores(scores, 'run scores')
        else:
            self.source = 'run array'
            matrix = _matrix(obj, self.source)
            if matrix.dtype.kind in 'iu':
                self.items, self.scores = _indices(matrix, self.source), None
            else:
                self.items, self.scores = None, _scores(matrix, self.source)
        self.shape: tuple[int, int] = (self.items if self.items is not None else matrix).shape

    def run(self, duplicates: str = 'error', depth: int | None = None, first: int = 0,
            last: int | None = None) -> Run:
        """The run of users ``first`` to ``last`` (all by default), their ids those of the whole array."""
        last = self.shape[0] if last is None else last
        if self.items is None:
            assert self.scores is not None
            items, scores = _rank_scores(self.scores[first:last], depth)
            return _ranked_run(items, scores, self.source, None, first)
        items = self.items[first:last]
        if self.scores is None:
            scores = np.broadcast_to(np.arange(self.shape[1], 0, -1, dtype=np.float64), items.shape)
        else:
            scores = self.scores[first:last]
        repeated = _repeated(items)
        if repeated is not None:
            return _resolved(items, scores, repeated, self.source, duplicates, depth, first)
        if self.scores is not None:                       # score descending, then item id descending
            order = np.lexsort((-text_key(items.astype(np.int64)), -scores.astype(np.float64)), axis=1)
            items, scores = np.take_along_axis(items, order, axis=1), np.take_along_axis(scores, order, axis=1)
        return _ranked_run(items, scores, self.source, depth, first)

    def blocks(self, duplicates: str, depth: int | None, cells: int) -> Iterator[Run]:
        """The runs of consecutive blocks of users, about ``cells`` array cells each."""
        rows = max(1, cells // max(self.shape[1], 1))
        for first in range(0, self.shape[0], rows):
            yield self.run(duplicates, depth, first, min(first + rows, self.shape[0]))

    def check_fits(self, shape: tuple[int, int] | None) -> None:
        """That this run fits judgments given as a users x items matrix of ``shape`` (None: not a matrix):
        as many users (row ``i`` of both is one user), and items within the matrix's columns."""
        if shape is None:
            return
        users, catalogue = shape
        if self.shape[0] != users:
            raise InputError(f'the run has {self.shape[0]} users (rows) and the qrels array {users}: row i of '
                             f'both must be the same user', self.source)
        if self.items is None and self.shape[1] != catalogue:
            raise InputError(f'the run scores {self.shape[1]} items (columns) and the qrels array has {catalogue}: '
                             f'column j of both must be the same item', self.source)
        if self.items is not None and self.items.size and int(self.items.max()) >= catalogue:
            row, column = (int(i) for i in np.argwhere(self.items >= catalogue)[0])
            raise InputError(f'item index {int(self.items[row, column])} at row {row}, column {column} is out of '
                             f'range: the qrels array has {catalogue} items (columns)', self.source)

    @property
    def cells(self) -> int:
        return self.shape[0] * self.shape[1]


def _rank_scores(scores: np.ndarray, depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """The items of each row of a score matrix in trec_eval order (score descending, ties by item id
    descending as text), the first ``depth`` of them when given, and their scores.

    The columns are first put in the order that breaks ties (:func:`.ids.int_ids.text_key`
    descending), so a stable sort by score alone applies the whole rule.  With a ``depth`` below the
    catalogue, the ``depth`` best of each row are chosen by ``np.partition`` (the items tied with the
    last one chosen in tie order) and only they are sorted.  Rows are ranked in blocks, so temporaries
    stay a bounded multiple of a block.
    """
    n_users, n_items = scores.shape
    tie_order = np.argsort(-text_key(np.arange(n_items, dtype=np.int64)), kind='stable')
    k = n_items if depth is None else min(depth, n_items)
    items = np.empty((n_users, k), dtype=np.int64)
    ranked = np.empty((n_users, k), dtype=np.float64)
    rows = max(1, _BLOCK_CELLS // max(n_items, 1))
    for lo in range(0, n_users, rows):
        block = scores[lo:lo + rows]
        negated = -block[:, tie_order]
        if k < n_items:
            columns = _best_columns(negated, k)
            negated = np.take_along_axis(negated, columns, axis=1)
        else:
            columns = None
        within = np.argsort(negated, axis=1, kind='stable')
        chosen = within if columns is None else np.take_along_axis(columns, within, axis=1)
        items[lo:lo + rows] = tie_order[chosen]
        ranked[lo:lo + rows] = np.take_along_axis(block, items[lo:lo + rows], axis=1)
    return items, ranked


def _best_columns(negated: np.ndarray, k: int) -> np.ndarray:
    """Per row, the columns (ascending) of the ``k`` smallest values; among values equal to the k-th
    smallest, the leftmost (the columns are in tie order)."""
    kth = np.partition(negated, k - 1, axis=1)[:, k - 1:k]
    keep = negated < kth
    at = negated == kth
    need = k - keep.sum(axis=1)
    partial = np.flatnonzero(at.sum(axis=1) > need)          # rows where only some of the tied values fit
    keep |= at
    if len(partial):
        keep[partial] &= ~at[partial] | (np.cumsum(at[partial], axis=1) <= need[partial, None])
    return np.nonzero(keep)[1].reshape(len(negated), k)


def _ranked_run(items: np.ndarray, scores: np.ndarray, source: str, depth: int | None, first: int) -> Run:
    """The run of rows already in ranked order (no item twice in a row), cut at ``depth``; row ``i`` is
    the user ``first + i``."""
    n_users, k = items.shape
    if depth is not None and 0 < depth < k:
        items, scores, k = items[:, :depth], scores[:, :depth], depth
    if k == 0:
        return Run.from_columns([], [], [], source=source)
    n = n_users * k
    return Run(IntIds(np.arange(first, first + n_users, dtype=np.int64)),
               np.repeat(np.arange(n_users, dtype=np.int32), k), IntIds(items.astype(np.int64).ravel()),
               np.ascontiguousarray(scores, dtype=np.float64).ravel(), np.arange(n, dtype=np.int64),
               np.arange(0, n + 1, k, dtype=np.int64), source)


def _resolved(items: np.ndarray, scores: np.ndarray, repeated: tuple[int, int, int], source: str, duplicates: str,
              depth: int | None, first: int) -> Run:
    """The run of rows where an item appears twice (``repeated``: its row and columns), as a document
    twice in a TREC run: an error, or the ``duplicates`` policy applied as to a long table."""
    if duplicates == 'error':
        row, column, later = repeated
        raise DuplicateError(f'item {int(items[row, column])} appears twice in row {first + row} (columns {column} '
                             f'and {later}), as a document twice in a TREC run, which trec_eval refuses: pass '
                             f'duplicates="first", "last" or "max" to keep one', source)
    users = np.repeat(np.arange(first, first + items.shape[0], dtype=np.int64), items.shape[1])
    run = Run.from_columns(users, items.astype(np.int64).ravel(), np.ascontiguousarray(scores).ravel(),
                           source=source, duplicates=duplicates)
    return run.top(depth) if depth else run


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
        matrix = _matrix(obj, 'qrels array')
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


def _matrix(obj: Any, name: str) -> np.ndarray:
    """``obj`` as a 2-D numpy array (on the CPU), or an error naming ``name``."""
    if _is_sparse(obj):
        raise InputError('a sparse matrix is read as judgments; give the run as a dense array', name)
    array = obj if isinstance(obj, np.ndarray) else _from_dlpack(obj, name)
    if array.ndim != 2:
        raise InputError(f'expected a 2-D array (users x items), got {array.ndim} dimension(s) of shape '
                         f'{array.shape}', name)
    if array.dtype.kind not in 'iufb':
        raise InputError(f'expected numbers, got an array of {array.dtype}', name)
    return array


def _from_dlpack(obj: Any, name: str) -> np.ndarray:
    """An array exposing DLPack as numpy: a view of an array on the CPU; an array on another device (a
    GPU) copied to the CPU through DLPack.  A torch tensor that requires gradients is read detached
    (its values, not its graph)."""
    detach = getattr(obj, 'detach', None)
    if callable(detach) and getattr(obj, 'requires_grad', False):
        obj = detach()
    device = obj.__dlpack_device__()[0] if hasattr(obj, '__dlpack_device__') else _CPU
    try:
        return np.from_dlpack(obj) if device in _HOST else np.from_dlpack(obj, device='cpu')
    except (RuntimeError, TypeError, BufferError, ValueError) as ex:
        problem = ('read the array' if device in _HOST else
                   f'copy the array from its device (DLPack type {device}) to the CPU')
        raise InputError(f'cannot {problem} ({ex}); give a CPU array of integers or floats (a torch tensor: '
                         f'.cpu(), and .float() for bfloat16)', name) from None


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


def _scores(scores: np.ndarray, name: str) -> np.ndarray:
    """Scores checked to be finite numbers, not copied (booleans become 0.0 and 1.0)."""
    if scores.dtype.kind == 'b':
        return scores.astype(np.float64)
    bad = np.argwhere(~np.isfinite(scores))
    if len(bad):
        row, column = (int(i) for i in bad[0])
        raise InputError(f'the score {scores[row, column].item()!r} at row {row}, column {column} is not a '
                         f'finite number', name)
    return scores


def _is_sparse(obj: Any) -> bool:
    return type(obj).__module__.startswith('scipy.sparse')
