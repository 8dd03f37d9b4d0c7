"""Statistics of many resamples within a memory budget: the resamples held whole when they fit, else drawn
again, block by block, as often as a statistic needs them.

A resampling procedure (bootstrap means, the ranges of Tukey's test) draws its resamples in blocks of
rows from a random generator.  :class:`Replicates` runs it once: when every row fits the budget
(:data:`HELD_COPIES` copies of it: the rows, a sorted copy, a mask), the rows are kept; otherwise only the
generator's state before the draws is, and each statistic asked of them (a sum over the rows, order
statistics) draws the same blocks again, from a generator in that state.  The blocks are the procedure's
own, drawn by the same calls in the same order, so every number is the one the rows held whole give, to
the last bit.  Order statistics of rows not held are found by radix selection on the values' bits: each
pass counts, for each wanted rank, the next 16 bits of the values in its bin, until a bin holds few enough
values to sort (:data:`GATHERED`) or all 64 bits are known; a few passes in all.

A procedure's block takes about :data:`BLOCK_BYTES` whatever the number of resamples; a budget below it
is refused at once (:func:`check_block_fits`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from .base import OptionError

#: Entries of one block of resamples (sign, count or permutation matrices): 2^22, 32 MiB as float64.
BLOCK_ELEMENTS = 1 << 22
#: One block of resamples at its peak: its entries as float64 and their temporaries (the draws, the counts
#: or orders made of them, the products), about five arrays of :data:`BLOCK_ELEMENTS` doubles.
BLOCK_BYTES = 5 * 8 * BLOCK_ELEMENTS
#: Rows are held whole when this many copies of them fit the budget (the rows, a sorted copy, a mask).
HELD_COPIES = 3
#: Values of a bin few enough to gather and sort in the last pass of a selection (8 MiB of them).
GATHERED = 1 << 20
_TOP = np.uint64(1 << 63)

#: A procedure's draws: (first row, last row + 1, the columns, the block: rows x those columns) in order.
Draws = Callable[[np.random.Generator], Iterator[tuple[int, int, np.ndarray, np.ndarray]]]
#: ``transform(block, columns)``: a function of a block of replicates, elementwise
Transform = Callable[[np.ndarray, np.ndarray], np.ndarray]


def check_block_fits(budget: int, what: str) -> None:
    """Refuse, in one line naming the budget, a budget that holds no block of ``what``'s resamples."""
    if budget < BLOCK_BYTES:
        raise OptionError(f'{what}: a memory limit of {budget / 2 ** 20:,.1f} MiB holds no block of resamples '
                          f'(one takes about {BLOCK_BYTES / 2 ** 20:,.0f} MiB, whatever their number): give '
                          f'{BLOCK_BYTES // 2 ** 20} MiB or more')


class Replicates:
    """The ``rows`` x ``columns`` resamples ``draws`` draws from ``rng`` (see the module docstring); ``rng`` is
    left as one drawing leaves it.  :meth:`part` is the same resamples' columns ``columns``.  ``ranked``: order
    statistics of the values themselves will be asked, so that resamples not held have their values' top 16
    bits counted as they are drawn (the first pass of a selection, done once)."""

    def __init__(self, rows: int, columns: int, draws: Draws, rng: np.random.Generator, budget: int,
                 ranked: bool = False):
        self.rows, self.width = rows, columns
        self._draws = draws
        self._state = rng.bit_generator.state
        self._kind = type(rng.bit_generator)
        self._columns = np.arange(columns)
        self._held: np.ndarray | None = None
        self._top: np.ndarray | None = None           # per column, the values counted by their top 16 bits
        if rows * columns * 8 * HELD_COPIES <= budget:
            self._held = np.empty((rows, columns))
            for start, stop, chosen, block in draws(rng):
                self._held[start:stop, chosen] = block
        else:                               # the generator where one drawing leaves it, and the values' top bits
            self._top = np.zeros((columns, 1 << 16), dtype=np.int32) if ranked and columns << 18 <= budget // 4 \
                else None
            for _, _, chosen, block in draws(rng):
                if self._top is not None:
                    keys = _keys(block) >> np.uint64(48)
                    for i, j in enumerate(chosen.tolist()):
                        self._top[j] += np.bincount(keys[:, i].astype(np.intp), minlength=1 << 16).astype(np.int32)

    @property
    def held(self) -> np.ndarray | None:
        """The resamples (rows x the part's columns) when they are held, else None (a view of adjacent columns:
        no copy)."""
        if self._held is None:
            return None
        adjacent = len(self._columns) and np.all(np.diff(self._columns) == 1)
        return self._held[:, self._columns[0]:self._columns[-1] + 1] if adjacent else self._held[:, self._columns]

    def part(self, columns: np.ndarray | slice) -> Replicates:
        """These resamples' columns ``columns`` (numbered from 0 in the part)."""
        out = object.__new__(Replicates)
        out.__dict__.update(self.__dict__)
        out._columns = self._columns[columns]
        out.width = len(out._columns)
        return out

    def _blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(columns of the part, block: rows x those columns) of every block, the rows held or drawn again."""
        held = self.held
        if held is not None:
            yield np.arange(self.width), held
            return
        generator = self._kind()
        generator.state = self._state
        position = np.full(int(self._columns.max(initial=-1)) + 1, -1)
        position[self._columns] = np.arange(self.width)
        for _, _, chosen, block in self._draws(np.random.Generator(generator)):
            inside = np.full(len(chosen), -1)
            within = chosen < len(position)
            inside[within] = position[chosen[within]]
            keep = np.flatnonzero(inside >= 0)
            if len(keep):
                yield inside[keep], block[:, keep]

    def total(self, function: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """The sum over the rows of ``function(block, columns)``, an array whose last axis is the block's columns
        (counts: the same whatever the blocks)."""
        out: np.ndarray | None = None
        for columns, block in self._blocks():
            value = function(block, columns)
            if out is None:
                out = np.zeros(value.shape[:-1] + (self.width,), dtype=value.dtype)
            out[..., columns] += value
        assert out is not None
        return out

    def smallest(self, ranks: np.ndarray, transform: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                 ) -> np.ndarray:
        """The ``ranks[t, j]``-th smallest value (from 0) of column j, of the resamples or of
        ``transform(block, columns)`` of them (elementwise)."""
        ranks = np.asarray(ranks, dtype=np.int64).reshape(-1, self.width)
        values = self.held
        if values is not None:
            chosen = values if transform is None else transform(values, np.arange(self.width))
            ordered = np.partition(chosen, np.unique(ranks), axis=0)     # each wanted rank in its sorted place
            return ordered[ranks, np.arange(self.width)]
        return _selected(self, ranks, transform)


def _keys(values: np.ndarray) -> np.ndarray:
    """Unsigned integers ordered as the doubles ``values`` are (the sign bit flipped, a negative's bits inverted)."""
    bits = np.ascontiguousarray(values + 0.0, dtype=np.float64).view(np.uint64)
    return np.where(bits >= _TOP, ~bits, bits | _TOP)


def _values(keys: np.ndarray) -> np.ndarray:
    return np.where(keys >= _TOP, keys & ~_TOP, ~keys).view(np.float64)


def _selected(replicates: Replicates, ranks: np.ndarray, transform: Transform | None) -> np.ndarray:
    """:meth:`Replicates.smallest` of resamples not held: radix selection (see the module docstring)."""
    targets, width = ranks.shape
    prefix = np.zeros((targets, width), dtype=np.uint64)
    rank = ranks.copy()
    known = 0                                          # bits of every prefix known so far
    gather = np.zeros((targets, width), dtype=bool)    # the bin is small: gather its values this pass
    found = np.full((targets, width), np.nan)
    done = np.zeros((targets, width), dtype=bool)
    while not done.all():
        counts, gathered = _one_pass(replicates, transform, known, prefix, gather, done)
        for t, j in zip(*np.nonzero(gather & ~done), strict=True):
            values = np.concatenate(gathered.get((t, j), [np.zeros(0, dtype=np.uint64)]))
            found[t, j] = _values(np.partition(values, rank[t, j])[rank[t, j]:rank[t, j] + 1])[0]
            done[t, j] = True
        _narrowed(counts, known, rank, prefix, gather, found, done)
        known += 16
    return found


def _one_pass(replicates: Replicates, transform: Transform | None, known: int, prefix: np.ndarray, gather: np.ndarray,
              done: np.ndarray) -> tuple[np.ndarray, dict[tuple[int, int], list[np.ndarray]]]:
    """One pass over the resamples: for each target not done, the counts of the next 16 bits of the keys under
    its prefix, or (where ``gather`` says its bin is small) those keys themselves."""
    targets, width = prefix.shape
    shift = np.uint64(64 - known - 16) if known < 64 else np.uint64(0)
    counts = np.zeros((targets, width, 1 << 16), dtype=np.int64)
    gathered: dict[tuple[int, int], list[np.ndarray]] = {}
    top = replicates._top if known == 0 and transform is None else None
    if top is not None:                               # the first pass was counted as the resamples were drawn
        counts[:] = top[replicates._columns][None]
    for columns, block in ([] if top is not None else replicates._blocks()):
        keys = _keys(block if transform is None else transform(block, columns))
        for i, j in enumerate(columns.tolist()):
            for t in np.flatnonzero(~done[:, j]).tolist():
                k = keys[:, i]
                if known:
                    k = k[(k >> np.uint64(64 - known)) == prefix[t, j]]
                if gather[t, j]:
                    gathered.setdefault((t, j), []).append(k)
                else:
                    counts[t, j] += np.bincount(((k >> shift) & np.uint64(0xFFFF)).astype(np.intp),
                                                minlength=1 << 16)
    return counts, gathered


def _narrowed(counts: np.ndarray, known: int, rank: np.ndarray, prefix: np.ndarray, gather: np.ndarray,
              found: np.ndarray, done: np.ndarray) -> None:
    """Each counted target's prefix extended by the bin that holds its rank (in place); a target whose 64 bits
    are known is found."""
    for t, j in zip(*np.nonzero(~gather & ~done), strict=True):
        cumulative = np.cumsum(counts[t, j])
        bin_ = int(np.searchsorted(cumulative, rank[t, j], side='right'))
        rank[t, j] -= int(cumulative[bin_ - 1]) if bin_ else 0
        prefix[t, j] = (prefix[t, j] << np.uint64(16)) | np.uint64(bin_)
        gather[t, j] = counts[t, j, bin_] <= GATHERED
        if known + 16 == 64:
            found[t, j] = _values(prefix[t, j:j + 1])[0]
            done[t, j] = True
