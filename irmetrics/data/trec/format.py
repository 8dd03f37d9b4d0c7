"""The TREC qrels and run text formats, written once for every reader path.

trec_eval's readers are the reference:

* fields are separated by runs of the bytes C's ``isspace`` accepts besides the newline (space,
  tab, vertical tab, form feed, carriage return).  Every other byte belongs to its field: no-break
  spaces, the Unicode separators and the controls U+001C-U+001F included (Python's ``str.split``
  splits there, trec_eval does not);
* lines end at ``\\n``; a line of white space only is blank and skipped; a line whose first field
  starts with ``#`` is a comment and skipped (trec_eval 10);
* a qrels line has exactly 4 fields ``query_id iteration doc_id relevance``, the relevance a
  decimal number (``2``, ``0.5``, ``1e-3``: :func:`grade_of`; read as trec_eval 10's ``atol`` reads it
  under ``grades='trec_eval'``); a run line at least 6, ``query_id Q0 doc_id rank score tag``, fields after the
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
from typing import NamedTuple, cast

import numpy as np

from ...errors import InputError
from ..ids.base import first_seen_codes
from ..qrels import LARGEST_GRADE

SEPARATORS = b' \t\v\f\r'
_OTHER_SEPARATORS = b'\t\v\f\r'
BOM = b'\xef\xbb\xbf'
#: bytes of the blocks the spacing check streams a file in: its masks and temporaries (a few bytes a byte)
#: stay in a core's cache (4 MiB blocks raised the peak memory by 20 MB and were no faster)
_BLOCK = 1 << 18
#: bytes of the blocks of whole lines that the passes over each line's positions take at a time (their
#: arrays of positions take up to 8 bytes a byte: a flood of empty or comment lines costs a few MB)
_LINE_BLOCK = 1 << 18
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
    grades: str = 'real'              # how the integers' text is read: GRADE_RULES

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
        return self.span(0, n)

    def span(self, start: int, end: int) -> bytes:
        """The file's bytes ``[start, end)``."""
        with open(self.path, 'rb') as f:
            f.seek(start)
            return f.read(max(end - start, 0))


Data = bytes | FileData


# --- is the text single-spaced already? --------------------------------------------------------
@dataclass
class BlankLines:
    """The blank lines a reader skipped (white space only): ``count`` those before the last field, and
    ``trailing`` those after it, which a file may end with and which are no skipped lines (unless
    more text follows: the tally of a file read block by block, :meth:`then`).  ``fields``: whether the
    text holds anything but newlines."""

    count: int = 0
    first_offset: int | None = None           # byte offset inside the first blank line, while reading
    first_line: int | None = None             # its line number, once :meth:`end` has run
    trailing: int = 0
    fields: bool = False

    def add_pairs(self, newline: np.ndarray, start: int) -> None:
        """Count the empty lines in a newline mask whose element 0 is at byte offset ``start`` (no array of
        positions: a block of nothing but newlines costs its mask only)."""
        pairs = newline[1:] & newline[:-1]
        found = int(np.count_nonzero(pairs))
        if found:
            self.count += found
            if self.first_offset is None:
                self.first_offset = start + int(np.argmax(pairs)) + 1

    def end(self, data: Data) -> BlankLines:
        """Set the blank lines after the last field of ``data`` (the text counted) apart, and turn the
        first blank line's offset into its line number in ``data``."""
        tail = _trailing_newlines(data)
        self.fields = tail < len(data)
        self.trailing = max(tail - 1, 0) if self.fields else self.count
        self.count -= self.trailing
        if self.first_offset is not None:
            self.first_line = _count_newlines(data, self.first_offset) + 1
        return self

    def then(self, later: BlankLines, first_line: int | None) -> None:
        """Add the blank lines of the text that follows the text counted here (``first_line``: the line, in
        the whole text, of the first blank line of ``later``)."""
        if later.fields:
            self.count += self.trailing + later.count
            self.trailing = later.trailing
            self.fields = True
        else:
            self.trailing += later.trailing
        if self.first_line is None:
            self.first_line = first_line


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
    return int(block[-1]) != 32, blank.end(data)        # no space at the end of the last line


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


def _trailing_newlines(data: Data) -> int:
    """How many newlines end ``data`` (read backwards a block at a time, as far as they go)."""
    end, count = len(data), 0
    while end > 0:
        start = max(end - _BLOCK, 0)
        window = data.span(start, end) if isinstance(data, FileData) else data[start:end]
        content = len(window.rstrip(b'\n'))
        count += len(window) - content
        if content:
            break
        end = start
    return count


def _count_newlines(data: Data, end: int) -> int:
    """How many newlines ``data`` holds before byte ``end`` (a file read a block at a time)."""
    if not isinstance(data, FileData):
        return data.count(b'\n', 0, end)
    return sum(data.span(start, min(start + _BLOCK, end)).count(b'\n') for start in range(0, end, _BLOCK))


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
        offset = -1
        for block, _ in _blocks(data):
            blank.add_pairs(block == 10, offset)
            offset += len(block) - 1
    blank.end(data)
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
    """Lines starting with '#' emptied (their newline kept), a block of lines at a time (so that a
    flood of comment lines costs a block's positions, not the file's)."""
    b = np.frombuffer(data, dtype=np.uint8)
    return b''.join(_comments_emptied(b[lo:hi]).data for lo, hi in line_blocks(b))


def _comments_emptied(b: np.ndarray) -> np.ndarray:
    """The bytes of ``b`` (whole lines) without the text of its comment lines."""
    hashes = np.flatnonzero(b == 35)
    starts = hashes[(hashes == 0) | (b[np.maximum(hashes - 1, 0)] == 10)]
    newlines = np.flatnonzero(b == 10)
    ends = np.append(newlines, len(b))[np.searchsorted(newlines, starts)]
    return _without_ranges(b, starts, ends)


def _without_ranges(b: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The bytes of ``b`` outside the ranges ``[starts[i], ends[i])``: disjoint, none empty, and no range
    ending where another starts (so each edge is set once, and inside a range the count is 1)."""
    if len(starts) == 0:
        return b
    edges = np.zeros(len(b) + 1, dtype=np.int8)
    edges[starts] = 1
    edges[ends] = -1
    return cast(np.ndarray, b[np.cumsum(edges[:-1], dtype=np.int8) == 0])


def _fit_fields(data: bytes, name: str, layout: Layout) -> bytes:
    """Check every line's field count in single-spaced ``data``; cut a run line's fields after the 6th."""
    b = np.frombuffer(data, dtype=np.uint8)
    width = layout.width
    kept: list[memoryview] = []                  # each block's bytes, its lines' fields after the 6th cut
    cut = False
    for lo, hi in line_blocks(b):
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
        kept.append(_without_ranges(block, spaces[first_space[long] + width - 1], ends[long]).data)
        cut = cut or len(long) > 0
    return b''.join(kept) if cut else data


def line_blocks(b: np.ndarray) -> Iterator[tuple[int, int]]:
    """Ranges of the bytes ``b`` of about :data:`_LINE_BLOCK` each, ending just after a newline (or at the
    end): a line longer than that makes a longer range, never two."""
    lo, n = 0, len(b)
    while lo < n:
        hi = min(lo + _LINE_BLOCK, n)
        while hi < n and b[hi - 1] != 10:
            newline = np.flatnonzero(b[hi:min(hi + _LINE_BLOCK, n)] == 10)
            hi = hi + int(newline[0]) + 1 if len(newline) else min(hi + _LINE_BLOCK, n)
        yield lo, hi
        lo = hi


# --- lines and messages ----------------------------------------------------------------------------
def line_number(data: bytes, offset: int) -> int:
    """1-based number of the line holding byte ``offset``."""
    return data.count(b'\n', 0, offset) + 1


def row_lines(data: Data) -> np.ndarray:
    """1-based line numbers of the non-empty lines of canonical ``data``: the rows a reader produced.
    Block by block, so that the memory taken is the rows' and one block's, however many blank lines
    the text holds (a file is read, not held)."""
    found, newlines = [np.zeros(0, np.int64)], 0
    for block, _ in _blocks(data):
        newline = block == 10
        starts = np.flatnonzero(~newline[1:] & newline[:-1])            # a line's first byte
        if len(starts):
            # the newlines before each start: those before the first, then those between starts
            between = np.add.reduceat(newline[1:], starts, dtype=np.int64)
            before = newlines + int(np.count_nonzero(newline[1:starts[0] + 1]))
            found.append(np.concatenate(([before], before + np.cumsum(between[:-1]))) + 1)
        newlines += int(np.count_nonzero(newline[1:]))
    return np.concatenate(found)


def width_problem(layout: Layout, text: bytes, found: int) -> str:
    want = f'at least {layout.width}' if layout.extra_fields_allowed else f'{layout.width}'
    shown = text.decode('utf-8', 'backslashreplace')
    shown = shown if len(shown) <= 80 else shown[:77] + '...'
    if layout.kind == 'prefs':
        hint = ' (a qrels line has 4 fields: qrels are read as preferences with -R qrels_prefs)' if found == 4 else ''
        return f'expected {want} fields ({layout.usage}), found {found}: {shown!r}{hint}'
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


#: How a grade's text is read: ``'real'``, its value (``'2.7'`` is 2.7); ``'trec_eval'``, as trec_eval 10's
#: get_qrels.c reads it with C's ``atol``: the sign and the digits before anything else (``'2.7'`` is 2,
#: ``'1e-3'`` 1, ``'-0.5'`` 0).  Either way the text must be a decimal number (:data:`DECIMAL_NUMBER`, finite).
GRADE_RULES = ('real', 'trec_eval')
_ATOL = re.compile(r'[+-]?[0-9]*', re.ASCII)


def grade_of(text: str, rule: str = 'real') -> int | float | str:
    """The grade written ``text`` under ``rule`` (:data:`GRADE_RULES`): an int for an integer literal or an
    atol reading, else a float; or, as a string, why it is no grade."""
    if not _INTEGER.fullmatch(text):
        if not _DECIMAL.fullmatch(text) or not math.isfinite(float(text)):
            return 'is not a number'
        if rule == 'real':
            value = float(text)
            return value if abs(value) < LARGEST_GRADE else 'is too large'
        digits = cast(re.Match[str], _ATOL.match(text)).group()
        text = digits if digits.lstrip('+-') else '0'
    if len(text.lstrip('+-').lstrip('0')) > len(str(LARGEST_GRADE)) or abs(int(text)) >= LARGEST_GRADE:
        return 'is too large'                   # (Python refuses to convert over 4,300 digits)
    return int(text)


def integers_of_text(texts: list[str], column: str, name: str, lines: Callable[[], np.ndarray],
                     rule: str = 'real') -> np.ndarray:
    """The grades of ``texts`` (few distinct ones: each is converted once): :func:`integers_of_codes`."""
    distinct, codes = first_seen_codes(texts)
    return integers_of_codes(distinct, codes, column, name, lines, rule)


def integers_of_codes(values: list[str], codes: np.ndarray, column: str, name: str,
                      lines: Callable[[], np.ndarray], rule: str = 'real') -> np.ndarray:
    """The grades ``values[codes]`` (:func:`grade_of`): int64 where every one is a whole number, else float64;
    a value that is none names the first line holding it."""
    grades = [grade_of(text, rule) for text in values]
    for i, (text, grade) in enumerate(zip(values, grades, strict=True)):
        if isinstance(grade, str):
            raise InputError(f'{column} {text!r} {grade}', name, int(lines()[int(np.argmax(codes == i))]))
    out = np.array(grades, dtype=np.float64 if any(isinstance(g, float) for g in grades) else np.int64)
    if out.dtype.kind == 'f' and np.all(out == np.round(out)):
        out = out.astype(np.int64)              # '2e1', '3.0': whole numbers, grades as an integer literal's
    return cast(np.ndarray, out[codes])
