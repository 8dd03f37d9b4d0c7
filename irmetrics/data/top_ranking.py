"""The exact top of every row of a score matrix, by trec_eval's rule, in the matrix's own library.

trec_eval ranks by score descending (compared as doubles) and breaks ties by document id descending
as text.  Scores are compared as doubles here too, whatever the matrix's element type: each block of rows
is ranked as the floats its library's ``as_doubles`` gives (integers and booleans as float64, so that
2^53 + 1 ties with 2^53 as in the TREC file of the matrix; float8 as float32; other floats as they are,
without a copy).  Item ``j`` is the document ``'j'``, so among equal scores ``'9'`` comes before ``'10'``.  Each
item's place in that text order is its *tie rank* (:func:`tie_ranks`): among equal scores the higher tie
rank comes first.  A score of ``-inf`` is an item not ranked (the usual mask of a user's training items);
``+inf`` and NaN are errors.  Only the first ``k`` of each row are found, by a selection, never a sort of
the row:

* **numpy** (:func:`_numpy_top`): the row's items are split into groups (item ``j`` in group ``j mod G``)
  whose maxima are taken in one vectorised pass; the ``k``-th largest group maximum ``t`` is at most the
  ``k``-th largest score, so the items scoring at least ``t`` (a few more than ``k``, found by one
  comparison) hold the whole top ``k`` *and every item tied with its last one*; only they are sorted, by
  (score, tie rank).  Blocks of rows run in threads (numpy releases the GIL).
* **torch** (:func:`_torch_top`, on the CPU or the tensor's GPU): ``torch.topk`` of ``k + 1`` (its order
  among equal scores is arbitrary), sorted again by (score, tie rank); a row whose ``k``-th and
  ``k+1``-th scores are equal may have left out an item tied with the ``k``-th that ranks before the
  ones chosen: those rows alone are chosen again, their tied items by tie rank.

Both give the same items in the same order as trec_eval on the matrix written as a TREC file.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..errors import InputError
from .array_library import NUMPY, Library, Numpy, Torch
from .cores import core_count, each_block
from .ids.int_ids import text_key

#: cells of a score matrix ranked at once by one thread (numpy), or chosen again at once (torch)
BLOCK_CELLS = 1 << 22
#: items per group of the numpy selection (a pass over the matrix finds each group's maximum)
_GROUP = 32
#: a numpy matrix of fewer cells is ranked in the calling thread (threads would cost more than they save)
_THREADED_CELLS = 1 << 16


class TopRanking(NamedTuple):
    """The first ``k`` items of each row in trec_eval's order, in the matrix's library.

    ``items`` (users x k, int64) and ``scores`` (users x k, floats: the matrix's as its library's ``as_doubles``
    gives them); ``lengths`` (users, int64): how many of each row's ``k`` are ranked (fewer where items score
    ``-inf``); past its length a row's items are -1 and its scores ``-inf``.
    """

    items: Any
    scores: Any
    lengths: Any


@functools.lru_cache(maxsize=8)
def tie_ranks(n_items: int) -> np.ndarray:
    """Each item's place (0-based) in the text order of the item ids ``'0' .. 'n-1'`` (``'10' < '9'``)."""
    ranks = np.empty(n_items, dtype=np.int64)
    ranks[np.argsort(text_key(np.arange(n_items, dtype=np.int64)), kind='stable')] = np.arange(n_items)
    return ranks


#: the cells of rows ``lo .. hi - 1`` of a matrix to leave unranked: (row - lo, item) arrays on the host
Masked = Callable[[int, int], tuple[np.ndarray, np.ndarray]]


def rank_top(scores: Any, k: int, library: Library, first: int = 0, name: str = 'run scores',
             masked: Masked | None = None) -> TopRanking:
    """The exact top ``k`` (at most the row length) of every row of ``scores`` (users x items), in
    ``library``; ``first`` is the first row's user (for messages), ``name`` the array's; the cells
    ``masked`` gives are ranked as if scored ``-inf`` (the array is not changed)."""
    k = min(k, scores.shape[1])
    if isinstance(library, Numpy):
        return _numpy_blocks(scores, k, first, name, masked)
    return _torch_top(_as_ranked(scores, 0, masked, library), k, library, first, name)


def _as_ranked(x: Any, lo: int, masked: Masked | None, library: Library) -> Any:
    """A block of rows (from ``lo``) as the floats that are ranked (``library.as_doubles``), its masked cells
    at -inf: a copy where it has some (the caller's array is never changed)."""
    ranked = library.as_doubles(x)
    if masked is None:
        return ranked
    rows, items = masked(lo, lo + len(x))
    if len(rows) == 0:
        return ranked
    if ranked is x:
        ranked = ranked.copy() if isinstance(library, Numpy) else ranked.clone()
    ranked[library.from_host(rows), library.from_host(items)] = -np.inf
    return ranked


# --- numpy -------------------------------------------------------------------------------------------

def _numpy_blocks(scores: np.ndarray, k: int, first: int, name: str, masked: Masked | None) -> TopRanking:
    n, m = scores.shape
    items = np.empty((n, k), dtype=np.int64)
    ranked = np.empty((n, k), dtype=NUMPY.as_doubles(scores[:0]).dtype)
    lengths = np.empty(n, dtype=np.int64)
    threads = core_count()
    rows = max(1, min(BLOCK_CELLS // max(m, 1), -(-n // (2 * threads))))     # two blocks a thread at least

    def block(lo: int) -> None:
        top = _numpy_top(_as_ranked(scores[lo:lo + rows], lo, masked, NUMPY), k, first + lo, name)
        items[lo:lo + rows], ranked[lo:lo + rows], lengths[lo:lo + rows] = top

    starts = range(0, n, rows)
    if m * n < _THREADED_CELLS:
        for lo in starts:
            block(lo)
    else:
        each_block(block, starts)
    return TopRanking(items, ranked, lengths)


def _numpy_top(x: np.ndarray, k: int, first: int, name: str) -> TopRanking:
    """One block of rows, floats (see the module docstring)."""
    n, m = x.shape
    size = max(1, min(_GROUP, m // (4 * k))) if k else 1
    groups = m // size
    view = as_strided(x, shape=(n, size, groups), strides=(x.strides[0], groups * x.strides[1], x.strides[1]))
    maxima = view.max(axis=1)                                      # item j in group j mod groups
    for lo in range(size * groups, m, groups):                   # the last m mod size items, in groups too
        width = min(groups, m - lo)
        np.maximum(maxima[:, :width], x[:, lo:lo + width], out=maxima[:, :width])
    _check_finite(x, maxima, first, name)
    if k == 0:
        return TopRanking(np.empty((n, 0), np.int64), np.empty((n, 0), x.dtype), np.zeros(n, np.int64))
    threshold = np.partition(maxima, groups - k, axis=1)[:, groups - k]
    # fewer than k groups hold a ranked item: every ranked item is a candidate
    threshold = np.where(threshold == -np.inf, np.finfo(x.dtype).min, threshold).astype(x.dtype)
    flat = np.flatnonzero(x >= threshold[:, None])              # row by row, each row's items ascending
    row, item = np.divmod(flat, m)
    counts = np.bincount(row, minlength=n)
    lengths = np.minimum(counts, k)
    width = max(int(counts.max(initial=0)), k)
    at = np.arange(len(flat)) - (np.cumsum(counts) - counts)[row]         # each candidate's place in its row
    by_score = -x[row, item]                                                # the candidates of each row side by side,
    score_key = np.full((n, width), np.inf, dtype=by_score.dtype)         # padded to sort last
    tie_key = np.zeros((n, width), dtype=np.int64)
    score_key[row, at], tie_key[row, at] = by_score, -tie_ranks(m)[item]
    order = np.lexsort((tie_key, score_key), axis=1)[:, :k]               # each row sorted alone
    inside = np.arange(k) < lengths[:, None]
    placed = np.full((n, width), -1, dtype=np.int64)
    placed[row, at] = item
    items = np.where(inside, np.take_along_axis(placed, order, axis=1), -1)
    ranked = np.where(inside, x[np.arange(n)[:, None], np.maximum(items, 0)], -np.inf).astype(x.dtype)
    return TopRanking(items, ranked, lengths)


def _check_finite(x: np.ndarray, maxima: np.ndarray, first: int, name: str) -> None:
    """NaN and +inf (found among the group maxima, which hold them) are errors naming the row and column."""
    bad = np.isnan(maxima) | (maxima == np.inf)
    if bad.any():
        row = int(np.flatnonzero(bad.any(axis=1))[0])
        line = x[row]
        column = int(np.flatnonzero(np.isnan(line) | (line == np.inf))[0])
        raise _not_finite(line[column].item(), first + row, column, name)


def _not_finite(value: float, row: int, column: int, name: str) -> InputError:
    return InputError(f'the score {value!r} at row {row}, column {column} is not a number a ranking can use: '
                      f'scores are finite, or -inf for an item not ranked (masked)', name)


# --- torch -------------------------------------------------------------------------------------------

def _torch_top(x: Any, k: int, library: Torch, first: int, name: str) -> TopRanking:
    """A block of rows, floats (see the module docstring)."""
    torch = library.torch
    n, m = x.shape
    ties = _device_tie_ranks(library, m)
    wide = min(k + 1, m)
    values, items = torch.topk(x, wide, dim=1, largest=True, sorted=True)
    if n and wide:
        _check_tensor_finite(x, values, first, name, library)
    if wide > 1:                 # rows where topk returned equal scores: their order, and maybe their choice, to fix
        rows = library.nonzero_rows((values[:, 1:] == values[:, :-1]).any(dim=1))
        if len(rows):
            values, items = _order_ties(x, values, items, library.from_host(rows), k, ties, library)
    values, items = values[:, :k], items[:, :k]
    inside = values > -np.inf
    lengths = inside.sum(dim=1)
    items = torch.where(inside, items, torch.full_like(items, -1))
    return TopRanking(items, values, lengths)


def _order_ties(x: Any, values: Any, items: Any, rows: Any, k: int, ties: Any, library: Torch) -> tuple[Any, Any]:
    """The rows ``rows`` (a tensor) of ``torch.topk``'s output that hold equal scores: ordered by (score, tie
    rank) descending, and, where the k-th score is tied past k, chosen again (:func:`_choose_again`)."""
    chosen, among = values[rows], items[rows]
    chosen = chosen + 0.0                                         # -0.0 becomes 0.0, which it ties with
    _, by_tie = library.sort_descending(ties[among])
    chosen, among = library.take(chosen, by_tie), library.take(among, by_tie)
    chosen, by_score = library.sort_descending(chosen)
    among = library.take(among, by_score)
    values, items = values.clone(), items.clone()
    values[rows], items[rows] = chosen, among
    if values.shape[1] > k and k:
        edge = (chosen[:, k] == chosen[:, k - 1]) & (chosen[:, k - 1] > -np.inf)
        again = library.nonzero_rows(edge)
        if len(again):
            values, items = _choose_again(x, values, items, library.to_host(rows)[again], k, ties, library)
    return values, items


def _choose_again(x: Any, values: Any, items: Any, rows: np.ndarray, k: int, ties: Any,
                  library: Torch) -> tuple[Any, Any]:
    """Rows whose k-th score is tied past k: the items above the tie as chosen, then the tied items by tie rank."""
    torch = library.torch
    per = max(1, BLOCK_CELLS // max(x.shape[1], 1))
    positions = library.arange(k)
    for lo in range(0, len(rows), per):
        block = library.from_host(rows[lo:lo + per])
        edge = values[block, k - 1]
        above = (values[block, :k] > edge[:, None]).sum(dim=1)
        tied = x[block] == edge[:, None]
        key = torch.where(tied, ties[None, :], torch.full_like(ties[None, :], -1))
        _, chosen = torch.topk(key, k, dim=1, largest=True, sorted=True)
        later = positions[None, :] >= above[:, None]
        shifted = torch.gather(chosen, 1, (positions[None, :] - above[:, None]).clamp(min=0))
        items[block, :k] = torch.where(later, shifted, items[block, :k])
        values[block, :k] = torch.where(later, edge[:, None].expand(-1, k), values[block, :k])
    return values, items


def _check_tensor_finite(x: Any, top: Any, first: int, name: str, library: Torch) -> None:
    """NaN and +inf rank first in ``torch.topk``: a row whose first value is one is an error naming it."""
    torch = library.torch
    head = top[:, 0]
    bad = torch.isnan(head) | (head == np.inf)
    if bool(bad.any()):
        row = int(library.nonzero_rows(bad)[0])
        line = x[row]
        column = int(library.nonzero_rows(torch.isnan(line) | (line == np.inf))[0])
        raise _not_finite(float(line[column]), first + row, column, name)


def _device_tie_ranks(library: Torch, n_items: int) -> Any:
    """:func:`tie_ranks` on the library's device (kept for the next batch)."""
    key = (str(library.device), n_items)
    if key not in _ON_DEVICE:
        _ON_DEVICE.clear()
        _ON_DEVICE[key] = library.from_host(tie_ranks(n_items))
    return _ON_DEVICE[key]


_ON_DEVICE: dict[tuple[str, int], Any] = {}
