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

from typing import Any

import numpy as np

from ..errors import InputError
from .qrels import Qrels
from .run import Run


def is_array(obj: Any) -> bool:
    """A numpy array, a scipy.sparse matrix, or another array exposing DLPack (not a column of a table:
    pandas, polars and Arrow objects are tables to irmetrics)."""
    if isinstance(obj, np.ndarray) or _is_sparse(obj):
        return True
    return not type(obj).__module__.startswith(('pandas', 'polars', 'pyarrow')) and hasattr(obj, '__dlpack__')


def is_array_pair(obj: Any) -> bool:
    """An ``(items, scores)`` pair of arrays."""
    return isinstance(obj, tuple) and len(obj) == 2 and all(is_array(a) for a in obj)


def run_from_arrays(obj: Any, duplicates: str = 'error') -> Run:
    """The :class:`Run` of a top-k array, a score matrix or an ``(items, scores)`` pair (module docstring)."""
    if is_array_pair(obj):
        items, scores = (_matrix(a, name) for a, name in zip(obj, ('run items', 'run scores'), strict=True))
        if items.shape != scores.shape:
            raise InputError(f'the items {items.shape} and scores {scores.shape} of a run have different shapes',
                             'run arrays')
        return _run(_indices(items, 'run items'), _scores(scores, 'run scores'), 'run arrays', duplicates)
    matrix = _matrix(obj, 'run array')
    if matrix.dtype.kind in 'iu':
        items = _indices(matrix, 'run array')
        k = matrix.shape[1]
        return _run(items, np.broadcast_to(np.arange(k, 0, -1, dtype=np.float64), items.shape), 'run array',
                    duplicates)
    scores = _scores(matrix, 'run array')
    items = np.broadcast_to(np.arange(scores.shape[1], dtype=np.int64), scores.shape)
    return _run(items, scores, 'run array', duplicates)


def qrels_from_matrix(obj: Any, duplicates: str = 'error') -> Qrels:
    """The :class:`Qrels` of a dense or scipy.sparse users x items matrix of grades (module docstring)."""
    if _is_sparse(obj):
        coo = obj.tocoo()
        users, items, grades = coo.row, coo.col, coo.data
    else:
        matrix = _matrix(obj, 'qrels array')
        users, items = np.nonzero(matrix)
        grades = matrix[users, items]
    if grades.dtype.kind not in 'iub' and not np.all(np.isfinite(grades) & (grades == np.round(grades))):
        bad = int(np.flatnonzero(~(np.isfinite(grades) & (grades == np.round(grades))))[0])
        raise InputError(f'the grade {grades[bad].item()!r} at row {int(users[bad])}, column {int(items[bad])} is '
                         f'not a whole number', 'qrels array')
    order = np.lexsort((items, users))
    return Qrels.from_columns(users[order].astype(np.int64), items[order].astype(np.int64),
                              grades[order].astype(np.int64), source='qrels array', duplicates=duplicates)


def _run(items: np.ndarray, scores: np.ndarray, source: str, duplicates: str) -> Run:
    users = np.repeat(np.arange(items.shape[0], dtype=np.int64), items.shape[1])
    return Run.from_columns(users, np.ascontiguousarray(items).ravel(), np.ascontiguousarray(scores).ravel(),
                            source=source, duplicates=duplicates)


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
    try:
        return np.from_dlpack(obj)
    except (RuntimeError, TypeError, BufferError) as ex:
        raise InputError(f'cannot read the array on the CPU ({ex}); move it to the CPU first (e.g. .cpu())',
                         name) from None


def _indices(items: np.ndarray, name: str) -> np.ndarray:
    if items.dtype.kind not in 'iu':
        raise InputError(f'item indices must be integers, got {items.dtype}', name)
    negative = np.argwhere(items < 0)
    if len(negative):
        row, column = (int(i) for i in negative[0])
        raise InputError(f'item index {int(items[row, column])} at row {row}, column {column}: indices are >= 0',
                         name)
    return items.astype(np.int64, copy=False)


def _scores(scores: np.ndarray, name: str) -> np.ndarray:
    values = scores.astype(np.float64, copy=False)
    bad = np.argwhere(~np.isfinite(values))
    if len(bad):
        row, column = (int(i) for i in bad[0])
        raise InputError(f'the score {values[row, column].item()!r} at row {row}, column {column} is not a '
                         f'finite number', name)
    return values


def _is_sparse(obj: Any) -> bool:
    return type(obj).__module__.startswith('scipy.sparse')
