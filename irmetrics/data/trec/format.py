"""The TREC qrels and run text formats, written once for every reader path.

trec_eval's readers are the reference:

* fields are separated by runs of the bytes C's ``isspace`` accepts besides the newline (space,
  tab, vertical tab, form feed, carriage return).  Every other byte belongs to its field: no-break
  spaces, the Unicode separators and the controls U+001C-U+001F included (Python's ``str.split``
  splits there, trec_eval does not);
* lines end at ``\\n``; a line of white space only is blank and skipped; a line whose first field
  starts with ``#`` is a comment and skipped (trec_eval 10);
* a qrels line has exactly 4 fields ``query_id iteration doc_id relevance``, the relevance an
  integer literal; a run line at least 6, ``query_id Q0 doc_id rank score tag``, fields after the
  tag ignored, the score a number as C's ``strtod`` reads it (decimal or hexadecimal);
* a NUL byte is an error (trec_eval would end the field there); a UTF-8 byte-order mark at the
  start of the file is not part of the first query id.

Every reader brings the text into *canonical* form before splitting it: fields separated by single
spaces, no white space at either end of a line, blank and comment lines emptied (so line numbers do
not move), the fields after a run line's 6th cut.  In that form splitting on ``b' '`` is exact.
:func:`is_single_spaced` tells in one streaming pass whether a file needs nothing but its field
counts checked (true of nearly every large file; Arrow's reader checks the counts as it splits);
:func:`canonical` does the rest, vectorised.
"""
from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...errors import InputError
from ..ids.base import first_seen_codes
from ..qrels import LARGEST_GRADE

SEPARATORS = b' \t\v\f\r'
_OTHER_SEPARATORS = b'\t\v\f\r'
BOM = b'\xef\xbb\xbf'
_BLOCK = 1 << 22
#: a number as strtod reads it, without the hexadecimal forms (:data:`HEX_NUMBER`)
DECIMAL_NUMBER = r'[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)'
HEX_NUMBER = r'[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?'
INTEGER = r'[+-]?[0-9]+'
_DECIMAL = re.compile(DECIMAL_NUMBER, re.IGNORECASE | re.ASCII)
_HEX = re.compile(HEX_NUMBER, re.ASCII)
_INTEGER = re.compile(INTEGER, re.ASCII)


class Layout(NamedTuple):
    """The fields of one TREC file kind: their names, which are kept, which are numbers."""

    kind: str
    names: tuple[str, ...]
    keep: tuple[str, ...]
    numbers: tuple[str, ...]          # floats, as strtod reads them
    integers: tuple[str, ...]         # integer literals
    coded: tuple[str, ...]            # ids with few distinct values (dictionary-encoded by Arrow)
    extra_fields_allowed: bool

    @property
    def width(self) -> int:
        return len(self.names)

    @property
    def usage(self) -> str:
        return ' '.join(self.names)


QRELS = Layout('qrels', ('query_id', 'iteration', 'doc_id', 'relevance'),
               ('query_id', 'iteration', 'doc_id', 'relevance'), (), ('relevance',),
               ('query_id', 'iteration', 'relevance'), False)
RUN = Layout('run', ('query_id', 'Q0', 'doc_id', 'rank', 'score', 'tag'),
             ('query_id', 'doc_id', 'score'), ('score',), (), ('query_id',), True)


class FileData:
    """A large plain file, streamed by the Arrow reader; read whole only when a slower path needs it."""

    def __init__(self, path: str):
        self.path = path
        self.size = os.path.getsize(path)

    def __len__(self) -> int:
        return self.size

    def __bytes__(self) -> bytes:
        with open(self.path, 'rb') as f:
            return f.read()

    def head(self, n: int) -> bytes:
        with open(self.path, 'rb') as f:
            return f.read(n)


Data = bytes | FileData


# --- is the text single-spaced already? --------------------------------------------------------
@dataclass
class BlankLines:
    """The blank lines a reader skipped (white space only), not counting those after the last field."""

    count: int = 0
    first_offset: int | None = None           # byte offset inside the first blank line, while reading
    first_line: int | None = None             # its line number, once :meth:`locate` has run

    def add_pairs(self, newline: np.ndarray, start: int) -> None:
        """Count the empty lines in a newline mask whose element 0 is at byte offset ``start``."""
        pairs = np.flatnonzero(newline[1:] & newline[:-1])
        if len(pairs):
            self.count += len(pairs)
            if self.first_offset is None:
                self.first_offset = start + int(pairs[0]) + 1

    def drop_trailing(self, tail_newlines: int) -> None:
        """Forget the blank lines after the last field (a file ending in several newlines)."""
        self.count -= max(tail_newlines - 1, 0)
        if self.count <= 0:
            self.count, self.first_offset = 0, None

    def locate(self, data: Data) -> BlankLines:
        """Turn the first blank line's offset into its line number in ``data`` (the text it refers to)."""
        if self.first_offset is not None:
            prefix = data.head(self.first_offset) if isinstance(data, FileData) else data[:self.first_offset]
            self.first_line = prefix.count(b'\n') + 1
        return self


def is_single_spaced(data: Data) -> tuple[bool, BlankLines]:
    """Whether every line's fields are separated by single spaces, with no white space at either end
    of a line, no white space other than spaces and newlines, no comment and no NUL byte; and the blank
    (empty) lines met on the way.

    Then only the field counts remain to be checked.  One pass in blocks of a few MiB (a file is
    streamed, not held), a few vectorised operations per block into buffers allocated once.
    """
    blank = BlankLines()
    if (data.head(1) if isinstance(data, FileData) else data[:1]) in (b' ', b'#'):
        return False, blank                         # white space or a comment on the first line
    low = np.empty(_BLOCK + 1, dtype=bool)
    pairs = np.empty(_BLOCK, dtype=bool)
    block = np.full(1, 10, dtype=np.uint8)
    offset = -1                                     # byte offset of the block's first element
    for block, find in _blocks(data):
        if any(find(ch) >= 0 for ch in (*_byte_list(_OTHER_SEPARATORS), b'\0')):
            return False, blank
        if not _spacing_ok(block, find, low[:len(block)], pairs[:len(block) - 1], blank, offset):
            return False, blank
        offset += len(block) - 1
    blank.drop_trailing(_trailing_newlines(block))
    return int(block[-1]) != 32, blank.locate(data)     # no space at the end of the last line


def _spacing_ok(b: np.ndarray, find: Callable[[bytes], int], low: np.ndarray, pairs: np.ndarray,
                blank: BlankLines, offset: int) -> bool:
    """No space next to a space or a newline, and no '#' starting a line, in ``b`` (whose first byte,
    at ``offset``, is the previous block's last one); empty lines are counted in ``blank``.
    ``low`` and ``pairs`` are work buffers of the right sizes."""
    np.less_equal(b, 32, out=low)                   # a cheap first look; the exact test only if it fires
    np.logical_and(low[1:], low[:-1], out=pairs)
    if pairs.any():
        space, newline = b == 32, b == 10
        if np.any((space[1:] & (space[:-1] | newline[:-1])) | (newline[1:] & space[:-1])):
            return False
        blank.add_pairs(newline, offset)
    if find(b'#') >= 0:
        at = np.flatnonzero(b[1:] == 35)
        if np.any(b[at] == 10):
            return False
    return True


def _trailing_newlines(b: np.ndarray) -> int:
    """How many newlines end ``b`` (a block whose end is the end of the file)."""
    content = np.flatnonzero(b[-(1 << 16):] != 10)
    return len(b[-(1 << 16):]) - 1 - int(content[-1]) if len(content) else len(b[-(1 << 16):])


def _find(data: bytes | bytearray, lo: int, hi: int, ch: bytes) -> int:
    return data.find(ch, lo, hi)


def _byte_list(chars: bytes) -> list[bytes]:
    return [chars[i:i + 1] for i in range(len(chars))]


def _blocks(data: Data) -> Iterator[tuple[np.ndarray, Callable[[bytes], int]]]:
    """Consecutive blocks of ``data``, each starting with the byte before it (a newline before the
    first), as numpy arrays, with a ``find(bytes) -> int`` over the block's own bytes (memchr speed)."""
    if isinstance(data, FileData):
        buf = bytearray(_BLOCK + 1)
        array = np.frombuffer(buf, dtype=np.uint8)
        view = memoryview(buf)
        buf[0] = 10
        with open(data.path, 'rb', buffering=0) as f:
            while True:
                n = f.readinto(view[1:])
                if not n:
                    return
                yield array[:n + 1], functools.partial(_find, buf, 1, n + 1)
                buf[0] = buf[n]
    else:
        array = np.frombuffer(data, dtype=np.uint8)
        for lo in range(0, len(data), _BLOCK):
            hi = min(lo + _BLOCK, len(data))
            block = array[lo - 1:hi] if lo else np.concatenate((np.full(1, 10, dtype=np.uint8), array[:hi]))
            yield block, functools.partial(_find, data, lo, hi)


# --- the canonical form ----------------------------------------------------------------------------
def canonical(data: bytes, name: str, layout: Layout) -> tuple[bytes, BlankLines]:
    """``data`` in canonical form (see the module docstring) and its blank lines; a line with too few
    fields, or a qrels line with too many, is an error naming its line."""
    nul = data.find(b'\0')
    if nul >= 0:
        raise InputError('a NUL byte: TREC files are text (is this a binary file?), and trec_eval would '
                         'end the field there', name, line_number(data, nul))
    data = _single_spaced(data)
    blank = BlankLines()
    if b'\n\n' in data or data.startswith(b'\n'):
        b = np.frombuffer(data, dtype=np.uint8)
        blank.add_pairs(np.concatenate(([True], b == 10)), -1)
        blank.drop_trailing(_trailing_newlines(b))
        blank.locate(data)
    if data.startswith(b'#') or b'\n#' in data:
        data = _empty_comment_lines(data)
    return _fit_fields(data, name, layout), blank


def _single_spaced(data: bytes) -> bytes:
    """Other separators become spaces, runs of spaces one space, lines are stripped (bytes operations
    at C speed; the number of lines does not change)."""
    for ch in _byte_list(_OTHER_SEPARATORS):
        if ch in data:
            data = data.replace(ch, b' ')
    while b'  ' in data:
        data = data.replace(b'    ', b' ').replace(b'  ', b' ')
    data = data.replace(b'\n ', b'\n').replace(b' \n', b'\n')
    if data.startswith(b' '):
        data = data[1:]
    if data.endswith(b' '):
        data = data[:-1]
    return data


def _empty_comment_lines(data: bytes) -> bytes:
    """Lines starting with '#' emptied (their newline kept)."""
    b = np.frombuffer(data, dtype=np.uint8)
    hashes = np.flatnonzero(b == 35)
    starts = hashes[(hashes == 0) | (b[np.maximum(hashes - 1, 0)] == 10)]
    newlines = np.flatnonzero(b == 10)
    ends = np.append(newlines, len(b))[np.searchsorted(newlines, starts)]
    return _without_ranges(b, starts, ends)


def _without_ranges(b: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bytes:
    """The bytes of ``b`` outside the disjoint ranges ``[starts[i], ends[i])``."""
    if len(starts) == 0:
        return b.tobytes()
    edges = np.zeros(len(b) + 1, dtype=np.int8)
    np.add.at(edges, starts, 1)
    np.add.at(edges, ends, -1)
    return b[np.cumsum(edges[:-1]) == 0].tobytes()


def _fit_fields(data: bytes, name: str, layout: Layout) -> bytes:
    """Check every line's field count in single-spaced ``data``; cut a run line's fields after the 6th."""
    b = np.frombuffer(data, dtype=np.uint8)
    width = layout.width
    cut_from: list[np.ndarray] = []
    cut_to: list[np.ndarray] = []
    for lo, hi in _line_aligned_ranges(b):
        block = b[lo:hi]
        newlines = np.flatnonzero(block == 10)
        starts = np.concatenate(([0], newlines + 1))
        ends = np.append(newlines, len(block))
        spaces = np.flatnonzero(block == 32)
        first_space = np.searchsorted(spaces, starts)
        fields = np.where(ends > starts, np.searchsorted(spaces, ends) - first_space + 1, 0)
        bad = (fields > 0) & ((fields < width) | ((fields > width) & (not layout.extra_fields_allowed)))
        if bad.any():
            i = int(np.argmax(bad))
            text = block[starts[i]:ends[i]].tobytes()
            raise InputError(width_problem(layout, text, int(fields[i])), name,
                             line_number(data, lo + int(starts[i])))
        long = np.flatnonzero(fields > width)
        if len(long):
            cut_from.append(lo + spaces[first_space[long] + width - 1])
            cut_to.append(lo + ends[long])
    if not cut_from:
        return data
    return _without_ranges(b, np.concatenate(cut_from), np.concatenate(cut_to))


def _line_aligned_ranges(b: np.ndarray) -> Iterator[tuple[int, int]]:
    """Ranges of about a block each, ending just after a newline (or at the end)."""
    lo, n = 0, len(b)
    while lo < n:
        hi = min(lo + _BLOCK, n)
        if hi < n:
            newline = np.flatnonzero(b[hi:min(hi + _BLOCK, n)] == 10)
            hi = hi + int(newline[0]) + 1 if len(newline) else min(hi + _BLOCK, n)
        yield lo, hi
        lo = hi


# --- lines and messages ----------------------------------------------------------------------------
def line_number(data: bytes, offset: int) -> int:
    """1-based number of the line holding byte ``offset``."""
    return data.count(b'\n', 0, offset) + 1


def row_lines(data: Data) -> np.ndarray:
    """1-based line numbers of the non-empty lines of canonical ``data``: the rows a reader produced."""
    buf = np.frombuffer(bytes(data) if isinstance(data, FileData) else data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if len(buf) and buf[-1] != 10:
        ends = np.append(ends, len(buf))
    starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else np.zeros(0, np.int64)
    return np.flatnonzero(ends - starts > 0) + 1


def width_problem(layout: Layout, text: bytes, found: int) -> str:
    want = f'at least {layout.width}' if layout.extra_fields_allowed else f'{layout.width}'
    shown = text.decode('utf-8', 'backslashreplace')
    shown = shown if len(shown) <= 80 else shown[:77] + '...'
    other = RUN if layout.kind == 'qrels' else QRELS
    swapped = found == other.width or (other.extra_fields_allowed and found > other.width)
    hint = (f' (a {other.kind} line has {other.width} fields: are the qrels and the run swapped?)' if swapped
            else '')
    return f'expected {want} fields ({layout.usage}), found {found}: {shown!r}{hint}'


# --- numbers ---------------------------------------------------------------------------------------
def numbers_of_text(texts: list[str], column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """float64 values of numbers written as strtod reads them (decimal or hexadecimal); anything
    else is an error naming its line.

    numpy's own conversion also takes Python's spellings ('1_000', non-ASCII digits), so those
    are ruled out first: trec_eval would not read them as the same number.
    """
    joined = ' '.join(texts)
    if joined.isascii() and '_' not in joined and 'x' not in joined and 'X' not in joined:
        try:
            return np.array(texts, dtype=np.float64)
        except ValueError:
            pass
    out = np.empty(len(texts), dtype=np.float64)
    for i, text in enumerate(texts):
        value = number_or_none(text)
        if value is None:
            raise InputError(f'{column} {text!r} is not a number', name, int(lines()[i]))
        out[i] = value
    return out


def number_or_none(text: str) -> float | None:
    """The value strtod reads from the whole of ``text``, or None."""
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _HEX.fullmatch(text):
        try:
            return float.fromhex(text)
        except OverflowError:                   # strtod overflows to infinity, as float('1e400') does
            return -math.inf if text.startswith('-') else math.inf
    return None


def integer_problem(text: str) -> str | None:
    """Why ``text`` is not a grade (an integer literal of moderate size), or None."""
    if not _INTEGER.fullmatch(text):
        return 'is not an integer'
    if len(text.lstrip('+-').lstrip('0')) > len(str(LARGEST_GRADE)) or abs(int(text)) >= LARGEST_GRADE:
        return 'is too large'                   # (Python refuses to convert over 4,300 digits)
    return None


def integers_of_text(texts: list[str], column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """int64 values of integer literals (few distinct ones: each is converted once)."""
    distinct, codes = first_seen_codes(texts)
    return integers_of_codes(distinct, codes, column, name, lines)


def integers_of_codes(values: list[str], codes: np.ndarray, column: str, name: str,
                      lines: Callable[[], np.ndarray]) -> np.ndarray:
    """The integers ``values[codes]``; a value that is none names the first line holding it."""
    out = np.empty(len(values), dtype=np.int64)
    for i, text in enumerate(values):
        problem = integer_problem(text)
        if problem:
            raise InputError(f'{column} {text!r} {problem}', name, int(lines()[int(np.argmax(codes == i))]))
        out[i] = int(text)
    return out[codes]
