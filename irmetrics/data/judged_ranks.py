"""The exact rank of some items of each row of a score matrix, without ranking the rows: by counting.

trec_eval's rank of item ``j`` in a row (score descending compared as doubles, ties by document id descending as
text, :mod:`.top_ranking`) is, 0-based, the number of items scored above it plus the number of items tied with it
whose tie rank (:func:`.top_ranking.tie_ranks`) is higher.  For a few items a row (the judged ones), counting
costs a comparison of the row with each of their scores, fewer operations than a sort of the row when they
are few: 4,000 x 5,000 float32 scores and 8 items a row take 2 x 8 passes of comparisons (``>`` and ``==``),
against a sort of every row.  Only the pairs tied with another item (the ``==`` count above 1) count their
tied items' tie ranks, on the rows that hold them; a row with more than :data:`COUNTED` such items is ranked
whole instead (a sort of that row, by (score, tie rank)), where counting would cost more.

Everything runs in the matrix's library and on its device, as :func:`.top_ranking.rank_top` does, on the
floats its library's ``as_doubles`` gives; a score of ``-inf`` (or a cell ``masked``) is not ranked (rank -1)
and NaN and ``+inf`` are the errors :mod:`.top_ranking` raises.  Only the ranks, and each row's number of
ranked items, come back to the host.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .array_library import Library, Numpy, Torch
from .cores import core_count, each_block
from .segments import offsets_of, ranges
from .top_ranking import (
    BLOCK_CELLS,
    Masked,
    _as_ranked,
    _check_finite,
    _check_tensor_finite,
    _device_tie_ranks,
    tie_ranks,
)

#: a row with more items to rank than this is sorted whole (by (score, tie rank)) instead of counted (2,000 x 5,000
#: float32 on 2 cores, 8 / 32 / 48 items a row: counted 0.07 / 0.12 / 0.32 s, sorted 0.80 / 0.43 / 0.72 s)
COUNTED = 48


class JudgedRanks(NamedTuple):
    """``ranks`` (int64, host): each asked item's 0-based rank in its row, -1 where it is not ranked (scored or
    masked ``-inf``); ``lengths`` (int64, host): how many items each row ranks."""

    ranks: np.ndarray
    lengths: np.ndarray


def judged_ranks(scores: Any, rows: np.ndarray, items: np.ndarray, library: Library, first: int = 0,
                 name: str = 'run scores', masked: Masked | None = None) -> JudgedRanks:
    """The rank of item ``items[i]`` in row ``rows[i]`` of ``scores`` (users x items, in ``library``), for every
    ``i`` (host int64 arrays, items within the row, no pair twice), by trec_eval's rule (module docstring);
    ``first`` is the first row's user and ``name`` the array's (for messages), ``masked`` as for
    :func:`.top_ranking.rank_top`."""
    n, m = scores.shape
    order = np.argsort(rows, kind='stable')
    rows, items = rows[order], items[order]
    ranks = np.empty(len(rows), dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    per = max(1, BLOCK_CELLS // max(m, 1))
    if isinstance(library, Numpy):
        per = min(per, -(-n // (2 * core_count())))                    # two blocks a thread at least
    bounds = offsets_of(rows, n)

    def block(lo: int) -> None:
        hi = min(lo + per, n)
        x = _as_ranked(scores[lo:hi], lo, masked, library)
        a, b = int(bounds[lo]), int(bounds[hi])
        ranks[a:b], lengths[lo:hi] = _ranks(x, rows[a:b] - lo, items[a:b], library, first + lo, name)

    starts = range(0, n, per)
    if isinstance(library, Numpy) and len(starts) > 1:
        each_block(block, starts)
    else:
        for lo in starts:
            block(lo)
    out = np.empty_like(ranks)
    out[order] = ranks
    return JudgedRanks(out, lengths)


def _ranks(x: Any, rows: np.ndarray, items: np.ndarray, library: Library, first: int,
           name: str) -> tuple[np.ndarray, np.ndarray]:
    """One block of rows (floats, masked cells at -inf): the ranks of its pairs (rows ascending) and its lengths."""
    n, m = x.shape
    count: Any = _Counter(n, m) if isinstance(library, Numpy) else _torch_count
    if isinstance(library, Numpy):
        _check_finite(x, x.max(axis=1)[:, None], first, name)
    else:
        _check_torch_finite(x, first, name, library)
    lengths = m - library.to_host(count(np.equal, x, -np.inf)).astype(np.int64)
    ranks = np.full(len(rows), -1, dtype=np.int64)
    if len(rows) == 0:
        return ranks, lengths
    scored = library.to_host(x[library.from_host(rows), library.from_host(items)]) > -np.inf
    counts = np.bincount(rows, minlength=n)
    slot = ranges(counts)
    sorted_rows = counts > COUNTED
    counted = scored & ~sorted_rows[rows]
    for j in range(min(int(counts.max()), COUNTED)):
        pick = np.flatnonzero(counted & (slot == j))
        if len(pick):
            ranks[pick] = _counted(x, rows[pick], items[pick], n, library, count)
    heavy = np.flatnonzero(sorted_rows)
    if len(heavy):
        pick = np.flatnonzero(scored & sorted_rows[rows])
        ranks[pick] = _sorted(x, heavy, rows[pick], items[pick], library)
    return ranks, lengths


class _Counter:
    """Per row, how many cells of a numpy block compare true with one value of the row, through one buffer of
    booleans (no allocation a pass) read 8 at a time: each 8 bytes of 0 and 1 a word whose set bits are counted.
    Twice as fast as ``numpy.count_nonzero`` along the rows (1.1 against 2.5 ms for 1,000 x 5,000 float32)."""

    def __init__(self, n: int, m: int):
        self.m = m
        self.flags = np.zeros((n, -(-m // 8) * 8), dtype=bool)        # the padding stays false
        self.bits = np.empty((n, self.flags.shape[1] // 8), dtype=np.uint8)
        self.total = np.uint16 if m < 1 << 16 else np.int64

    def __call__(self, op: Any, block: np.ndarray, value: Any) -> np.ndarray:
        n = len(block)
        op(block, value, out=self.flags[:n, :self.m])
        np.bitwise_count(self.flags[:n].view(np.uint64), out=self.bits[:n])
        counted: np.ndarray = self.bits[:n].sum(axis=1, dtype=self.total).astype(np.int64)
        return counted


def _torch_count(op: Any, block: Any, value: Any) -> Any:
    """Per row, how many cells of a tensor compare true (``op``: numpy's ufunc of the comparison) with ``value``."""
    return (block == value if op is np.equal else block > value).sum(1)


def _counted(x: Any, rows: np.ndarray, items: np.ndarray, n: int, library: Library, count: Any) -> np.ndarray:
    """The ranks of one item in each of ``rows`` (ascending, each once): items above it, then tied items of
    higher tie rank, counted."""
    block = x if len(rows) == n else x[library.from_host(rows)]
    on_device = library.from_host(items)
    score = library.take(block, on_device[:, None]) if isinstance(library, Torch) else \
        block[np.arange(len(rows)), items][:, None]
    above = library.to_host(count(np.greater, block, score)).astype(np.int64)
    tied = library.to_host(count(np.equal, block, score))
    several = np.flatnonzero(tied > 1)
    if len(several):
        above[several] += _tied_before(block, score, several, items[several], library)
    return above


def _tied_before(block: Any, score: Any, at: np.ndarray, items: np.ndarray, library: Library) -> np.ndarray:
    """For the rows ``at`` of ``block``, the items tied with ``score`` whose tie rank is above ``items``'s."""
    m = block.shape[1]
    if isinstance(library, Numpy):
        ties = tie_ranks(m)
        tied: np.ndarray = np.count_nonzero((block[at] == score[at]) & (ties[None, :] > ties[items][:, None]), axis=1)
        return tied
    ties = _device_tie_ranks(library, m)
    on_device = library.from_host(at)
    mine = ties[library.from_host(items)]
    return library.to_host(((block[on_device] == score[on_device]) & (ties[None, :] > mine[:, None])).sum(1))


def _sorted(x: Any, heavy: np.ndarray, rows: np.ndarray, items: np.ndarray, library: Library) -> np.ndarray:
    """The ranks of the pairs (``rows``, ``items``) of the rows ``heavy``, each of those rows ranked whole."""
    m = x.shape[1]
    place = np.searchsorted(heavy, rows)
    if isinstance(library, Numpy):
        ranked = x[heavy]
        order = np.lexsort((-np.broadcast_to(tie_ranks(m), ranked.shape), -(ranked + 0.0)), axis=1)
        rank_of = np.empty_like(order)
        np.put_along_axis(rank_of, order, np.broadcast_to(np.arange(m), order.shape), axis=1)
        found: np.ndarray = rank_of[place, items]
        return found
    torch = library.torch
    ranked = x[library.from_host(heavy)] + 0.0                     # -0.0 becomes 0.0, which it ties with
    ties = _device_tie_ranks(library, m)
    _, by_tie = library.sort_descending(ties[None, :].expand(len(heavy), -1))
    _, by_score = library.sort_descending(library.take(ranked, by_tie))
    order = library.take(by_tie, by_score)
    rank_of = torch.empty_like(order)
    rank_of.scatter_(1, order, library.arange(m)[None, :].expand(len(heavy), -1).contiguous())
    return library.to_host(rank_of[library.from_host(place), library.from_host(items)])


def _check_torch_finite(x: Any, first: int, name: str, library: Torch) -> None:
    """NaN and +inf are errors naming the first row and column that holds one."""
    _check_tensor_finite(x, x.amax(dim=1, keepdim=True), first, name, library)
