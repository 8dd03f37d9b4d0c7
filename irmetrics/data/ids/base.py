"""The interface of an id column, and what every layout shares: 64-bit fingerprints of strings.

An :class:`Ids` holds the ids (of queries, documents or subtopics) of a column.  Three layouts
implement it (:mod:`.numpy_ids`, :mod:`.arrow_ids`, :mod:`.int_ids`); :func:`irmetrics.data.ids.column`
picks one when the column is built, and callers only ever use this interface.  An operation on two
columns of different layouts runs in the layout of higher :attr:`Ids.rank` (Arrow, then numpy), which
adopts the other column: no layout knows another.

String order is byte-wise on UTF-8 (trec_eval's ``strcmp``); Python's ``str`` order is the same
(code point order).

Ids given as Python values become text by one rule, :func:`id_text`, in both string layouts.
"""
from __future__ import annotations

import reprlib
from abc import ABC, abstractmethod
from typing import Any, ClassVar, cast

import numpy as np

from ...errors import InputError

_MIX = np.uint64(0x9E3779B97F4A7C15)      # golden-ratio constant
#: a word: 8 bytes read as a little-endian number on every machine (the native view on little-endian ones:
#: no copy), so a fingerprint is a function of the id's bytes alone, and the first k bytes of a word are
#: its k low-order bytes, which :data:`_BYTE_MASKS` keep
_WORD = np.dtype('<u8')
_BYTE_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)   # keep the first k bytes
_AVALANCHE = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))
_BLOCK = 1 << 13      # strings per block: temporaries of 64 KiB stay below malloc's mmap threshold (128 KiB)
_SHORT_WORDS = 4      # a block whose strings have at most this many words is hashed word position by position


class Ids(ABC):
    """A column of string ids in one layout (see the module docstring)."""

    #: the layout's name ('numpy', 'arrow' or 'int')
    layout: ClassVar[str]
    #: in an operation on two layouts, the higher rank's layout adopts the other column
    rank: ClassVar[int]

    @classmethod
    @abstractmethod
    def adopt(cls, other: Ids) -> Ids:
        """``other`` in this layout (``other`` itself when it already is)."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def to_list(self) -> list[str]:
        """The ids as Python strings."""

    @abstractmethod
    def take(self, indices: np.ndarray) -> Ids:
        """The ids at ``indices`` (integers)."""

    @abstractmethod
    def encode(self) -> tuple[Ids, np.ndarray]:
        """(vocabulary in order of first appearance, int32 code of each id)."""

    @abstractmethod
    def fingerprint(self) -> np.ndarray:
        """:func:`fingerprint_bytes` of each id's UTF-8 bytes: the same in every layout, process and
        machine (of either byte order).  Equal ids give equal fingerprints; different ids collide with
        probability about 2**-64 per pair, so callers confirm matches exactly."""

    @abstractmethod
    def order_within_groups(self, groups: np.ndarray) -> np.ndarray:
        """Permutation sorting rows by group ascending, then id descending (byte-wise)."""

    @abstractmethod
    def run_starts(self) -> np.ndarray:
        """Rows (int64, ascending, 0 first) where a run of equal consecutive ids starts."""

    @abstractmethod
    def _lookup(self, vocabulary: Any) -> np.ndarray:
        """``lookup`` once both columns are in this layout (``vocabulary`` is of this class)."""

    @abstractmethod
    def _equal(self, other: Any) -> np.ndarray: ...

    @abstractmethod
    def _less(self, other: Any) -> np.ndarray: ...

    def lookup(self, vocabulary: Ids) -> np.ndarray:
        """Index (int64) of each id in ``vocabulary``, -1 where absent."""
        a, b = self._common(vocabulary)
        return a._lookup(b)

    def equal(self, other: Ids) -> np.ndarray:
        """Element-wise ``self == other`` (columns of equal length)."""
        a, b = self._common(other)
        return a._equal(b)

    def less(self, other: Ids) -> np.ndarray:
        """Element-wise ``self < other``, byte-wise (columns of equal length)."""
        a, b = self._common(other)
        return a._less(b)

    def _common(self, other: Ids) -> tuple[Ids, Ids]:
        layout = type(self) if self.rank >= other.rank else type(other)
        return layout.adopt(self), layout.adopt(other)

    def __repr__(self) -> str:
        shown = ', '.join(map(repr, self.take(np.arange(min(len(self), 3))).to_list()))
        return f'<{type(self).__name__} {len(self)} ids: {shown}{", ..." if len(self) > 3 else ""}>'


class IdError(InputError):
    """A value that cannot be an id; ``row`` is its position in the column.  The caller that knows where
    the column came from (:meth:`irmetrics.data.locate.RowLocator.ids`) names the file line or item."""

    def __init__(self, problem: str, row: int):
        super().__init__(problem)
        self.row = row


MISSING = 'is missing (None, NaN or NA)'
EMPTY = 'is empty'
#: values that hold several values: never one id
_CONTAINERS = (list, tuple, dict, set, frozenset, np.ndarray)


def id_text(value: Any, row: int) -> str:
    """The text of an id given as a Python value (``row``: its position, for the error).

    A string is taken as it is, bytes are decoded as UTF-8, a number becomes its text, an integral float
    without ``.0`` (``301.0`` is query ``'301'``, as a float column of integer ids means).  None, NaN,
    NaT and pandas' NA are missing ids; an empty text (no TREC file can hold one), a container and text
    that is not valid Unicode are no ids: :class:`IdError`.
    """
    if isinstance(value, (bytes, bytearray)):
        try:
            text = bytes(value).decode('utf-8')
        except UnicodeDecodeError:
            raise IdError(f'{reprlib.repr(bytes(value))} is not UTF-8 text', row) from None
    elif isinstance(value, str):
        text = str(value)
    elif isinstance(value, _CONTAINERS):
        raise IdError(f'{reprlib.repr(value)} is a {type(value).__name__}, not an id (text or a number)', row)
    elif _is_missing(value):
        raise IdError(MISSING, row)
    elif isinstance(value, (float, np.floating)) and float(value).is_integer():
        text = str(int(value))
    else:
        text = str(value)
    if not text:
        raise IdError(EMPTY, row)
    if not _is_unicode(text):
        raise IdError(f'{reprlib.repr(text)} is not valid Unicode text (it holds a lone surrogate)', row)
    return text


def first_seen_codes(values: list[Any], dtype: Any = np.int64) -> tuple[list[Any], np.ndarray]:
    """The distinct ``values`` in the order they first appear, and the index of each value among them
    (dictionary lookups in C: no Python loop over the rows)."""
    index = {v: i for i, v in enumerate(dict.fromkeys(values))}
    return list(index), np.fromiter(map(index.__getitem__, values), dtype=dtype, count=len(values))


def id_texts(items: list[Any]) -> list[str]:
    """:func:`id_text` of every item (``items`` itself when it holds valid strings only, the usual case)."""
    if set(map(type, items)) <= {str} and '' not in items and _is_unicode('\n'.join(items)):
        return items
    return [id_text(v, row) for row, v in enumerate(items)]


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)           # NaN of every float type, NaT
    except TypeError:
        return True                           # pandas' NA: its comparisons give NA, which is neither true nor false


def _is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (Python strings may hold lone surrogates; ids may not)."""
    if text.isascii():
        return True
    try:
        text.encode('utf-8')
    except UnicodeEncodeError:
        return False
    return True


def fingerprint_bytes(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Fingerprints of the strings ``data[offsets[i]:offsets[i+1]]``.

    Each 8-byte word of a string (read little-endian, the last one padded with zero bytes: the same
    number on every machine) is mixed with its position (splitmix64's finaliser of word + (j + 1)
    times the golden-ratio constant), the mixed words are summed (mod 2**64) and the sum, with the
    string's length, avalanched again: every bit depends on every byte, so any few bits of a
    fingerprint make a hash of the id (filters and buckets take some).  The words of a string are
    independent of each other, so the work is linear in the bytes whatever the lengths: a block of
    short strings is hashed word position by word position, a block holding long ones word by word.

    Works in cache-sized blocks of strings, one after the other, so temporaries stay small.  (Not in
    threads: each block's numpy calls are too short to run while another thread holds the interpreter's
    lock, and threads made a column of 7 million ids slower, 0.142 s against 0.131 s on 2 cores.)
    """
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint64)
    for lo in range(0, n, _BLOCK):
        _fingerprint_block(data, offsets, lo, min(lo + _BLOCK, n), out)
    return out


def _fingerprint_block(data: np.ndarray, offsets: np.ndarray, lo: int, hi: int, out: np.ndarray) -> None:
    """:func:`fingerprint_bytes` of the strings ``lo:hi``, into ``out[lo:hi]``."""
    first, last = offsets[lo], offsets[hi]
    padded = np.zeros(last - first + 8, np.uint8)          # this block's bytes, plus room for a word
    padded[:last - first] = data[first:last]
    # word i = the 8 bytes starting at byte i, little-endian (an unaligned, overlapping view)
    words = np.ndarray(shape=(last - first + 1,), dtype=_WORD, buffer=padded, strides=(1,))
    starts = offsets[lo:hi] - first
    lengths = offsets[lo + 1:hi + 1] - offsets[lo:hi]
    n_words = (lengths + 7) // 8
    most = int(n_words.max(initial=0))
    if most == 1 and int(n_words.min()) == 1:           # ids of 1 to 8 bytes (most numbers): one word each
        total = _position_mix(_masked_words(words, starts, lengths), np.uint64(1))
    elif most <= _SHORT_WORDS:
        total = _sum_by_position(words, starts, lengths, n_words)
    else:
        total = _sum_by_word(words, starts, lengths, n_words)
    with np.errstate(over='ignore'):
        length_term = lengths.astype(np.uint64)
        length_term *= _MIX
        total ^= length_term
        out[lo:hi] = _finalise(total)


def _masked_words(words: np.ndarray, position: np.ndarray, remaining: np.ndarray) -> np.ndarray:
    """The words starting at byte ``position`` of the block, cut to the ``remaining`` bytes of their
    string (the bytes of the next string zeroed), as native numbers (``astype`` copies on big-endian
    machines only)."""
    word = words[position].astype(np.uint64, copy=False)
    word &= _BYTE_MASKS[np.clip(remaining, 0, 8)]
    return cast(np.ndarray, word)


def _sum_by_position(words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_words: np.ndarray) -> np.ndarray:
    total = np.zeros(len(starts), dtype=np.uint64)
    with np.errstate(over='ignore'):
        for j in range(int(n_words.max(initial=0))):
            live = n_words > j
            position = np.where(live, starts + 8 * j, 0)
            mixed = _position_mix(_masked_words(words, position, lengths - 8 * j), np.uint64(j + 1))
            total += np.where(live, mixed, np.uint64(0))
    return total


def _sum_by_word(words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, n_words: np.ndarray) -> np.ndarray:
    string = np.repeat(np.arange(len(starts)), n_words)
    first_word = np.cumsum(n_words) - n_words                      # each string's first word among all
    index = np.arange(int(n_words.sum()), dtype=np.int64) - np.repeat(first_word, n_words)
    mixed = _position_mix(_masked_words(words, starts[string] + 8 * index, lengths[string] - 8 * index),
                          index.astype(np.uint64) + np.uint64(1))
    total = np.zeros(len(starts), dtype=np.uint64)
    has_words = np.flatnonzero(n_words > 0)
    if len(has_words):
        with np.errstate(over='ignore'):
            total[has_words] = np.add.reduceat(mixed, first_word[has_words])
    return total


def _position_mix(word: np.ndarray, index: Any) -> np.ndarray:
    """splitmix64's finaliser of ``word + index * golden ratio``: each word of a string mixed on its own."""
    with np.errstate(over='ignore'):
        return _finalise(word + index * _MIX)


def _finalise(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (xor-shift, multiply, twice, and a last xor-shift), in place in ``z`` (a
    temporary of the caller's), which it returns."""
    shifted = np.empty_like(z)
    with np.errstate(over='ignore'):
        np.right_shift(z, _SHIFTS[0], out=shifted)
        z ^= shifted
        z *= _AVALANCHE[0]
        np.right_shift(z, _SHIFTS[1], out=shifted)
        z ^= shifted
        z *= _AVALANCHE[1]
        np.right_shift(z, _SHIFTS[2], out=shifted)
        z ^= shifted
    return z


def mix(fingerprints: np.ndarray, *codes: np.ndarray) -> np.ndarray:
    """Fingerprints of (id, code, ...) tuples from the ids' fingerprints and integer codes (a new array).

    Computed in cache-sized blocks: the result is the only large allocation.
    """
    out = fingerprints.copy()
    with np.errstate(over='ignore'):
        for lo in range(0, len(out), _BLOCK):
            block = out[lo:lo + _BLOCK]
            for c in codes:
                term = c[lo:lo + _BLOCK].astype(np.uint64)
                term += np.uint64(1)
                term *= _MIX
                block ^= term
                block *= np.uint64(0xBF58476D1CE4E5B9)
                np.right_shift(block, np.uint64(31), out=term)
                block ^= term
    return cast(np.ndarray, out)
