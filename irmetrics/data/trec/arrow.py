"""Splitting single-spaced TREC text with Arrow's multi-threaded CSV reader (files above the small size).

The text must be single-spaced (:func:`.trec_format.is_single_spaced` said so, or it went through
:func:`.trec_format.canonical`): splitting on one space is then exactly trec_eval's splitting.  The
reader is told the exact number of fields and runs no Python code in its threads; a line with another
number of fields, or a value its typed conversion refuses, makes :func:`split` return None, and the
caller canonicalises the text or asks for the numbers as text (``typed=False``), which
:func:`split` then converts with strtod's full syntax, naming the line of a value that is no number.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from ...errors import InputError
from ..arrow_arrays import combine, numbers, take
from .format import (
    BOM,
    DECIMAL_NUMBER,
    Data,
    FileData,
    Layout,
    integers_of_codes,
    line_blocks,
    number_or_none,
    row_lines,
)
from .stream import longest_line

#: Bytes of text Arrow's reader splits at a time (and so the longest line it reads): a file with a longer
#: line is read again in blocks that hold its longest line (:func:`_read_any_lines`).
BLOCK_SIZE = 1 << 22
#: Bytes of a file scanned at a time for its longest line.
_SCAN_PIECE = 1 << 24

Columns = dict[str, object]


def split(data: Data, name: str, layout: Layout, typed: bool = True) -> tuple[Columns, Callable[[], np.ndarray]] | None:
    """The kept columns of single-spaced ``data`` (ids as Arrow strings, numbers as numpy arrays) and
    a function giving each row's line number; None if a line has another number of fields or
    (``typed``) a number is not in the syntax Arrow converts."""
    coded = pa.dictionary(pa.int32(), pa.string())
    types = {c: coded if c in layout.coded else pa.string() for c in layout.keep}
    if typed:
        types.update({c: pa.float64() for c in layout.numbers})
    try:
        table = _read_any_lines(data, name, layout, types)
    except pa.ArrowInvalid as ex:
        message = str(ex)
        if message.startswith('Empty CSV file'):         # no line holds a field
            return _empty(layout), lambda: np.zeros(0, dtype=np.int64)
        if typed:
            return None
        if 'utf8' in message.lower():
            raise InputError('ids must be valid UTF-8 text', name, _first_invalid_utf8_line(data, layout)) from None
        shown = message[:200].encode('ascii', 'backslashreplace').decode('ascii')
        raise InputError(f'cannot read as a TREC {layout.kind} file ({layout.usage}): {shown}', name) from None

    def lines() -> np.ndarray:
        return row_lines(data)

    out: Columns = {}
    for c in layout.keep:
        column = table.column(c)
        table = table.drop_columns([c])     # its chunks are freed once converted: one column is ever held twice
        if c in layout.integers:
            out[c] = _integers(combine(column), c, name, lines, layout.grades)
        elif c in layout.numbers:
            out[c] = numbers(column) if typed else _numbers(combine(column), c, name, lines)
        else:
            out[c] = combine(column)
    del table, column
    # Arrow's allocator keeps the freed read buffers for reuse by Arrow; the numpy arrays that come
    # next are allocated elsewhere, so give those pages back now (a lower peak for large files)
    pa.default_memory_pool().release_unused()
    return out, lines


def _empty(layout: Layout) -> Columns:
    out: Columns = {c: pa.array([], pa.string()) for c in layout.keep}
    out.update({c: np.zeros(0, dtype=np.float64) for c in layout.numbers})
    out.update({c: np.zeros(0, dtype=np.int64) for c in layout.integers})
    return out


def _read_any_lines(data: Data, name: str, layout: Layout, types: dict[str, Any]) -> pa.Table:
    """:func:`_read` in blocks of :data:`BLOCK_SIZE`, or, when a line is longer than that (Arrow's reader
    then says a row 'straddles' its blocks), in blocks that hold the longest line, found by a scan of
    bounded memory that refuses a line past :data:`.stream.MAX_LINE` bytes with the file and line."""
    try:
        return _read(data, layout, types, BLOCK_SIZE)
    except pa.ArrowInvalid as ex:
        if 'straddl' not in str(ex):
            raise
    return _read(data, layout, types, longest_line(pieces(data), name) + 1)


def pieces(data: Data) -> Iterator[bytes]:
    """The bytes of ``data`` a few MiB at a time (a file is read piece by piece, never whole)."""
    if isinstance(data, FileData):
        with open(data.path, 'rb') as f:
            while piece := f.read(_SCAN_PIECE):
                yield piece
    else:
        for lo in range(0, len(data), _SCAN_PIECE):
            yield data[lo:lo + _SCAN_PIECE]


def _read(data: Data, layout: Layout, types: dict[str, Any], block_size: int) -> pa.Table:
    if isinstance(data, bytes) and data.startswith(BOM):
        # Arrow drops a byte-order mark that starts its input; here it is part of the first id (the reader
        # has dropped the file's own), so it goes after an empty line, which Arrow skips as no row
        data = b'\n' + data
    source = pa.input_stream(data.path) if isinstance(data, FileData) else pa.BufferReader(data)
    table = pa_csv.read_csv(
        source,
        read_options=pa_csv.ReadOptions(column_names=list(layout.names), block_size=block_size),
        parse_options=pa_csv.ParseOptions(delimiter=' ', quote_char=False, escape_char=False),
        convert_options=pa_csv.ConvertOptions(column_types=types, include_columns=list(layout.keep),
                                              null_values=[], strings_can_be_null=False,
                                              quoted_strings_can_be_null=False))
    return table.unify_dictionaries()


def _integers(values: pa.Array, column: str, name: str, lines: Callable[[], np.ndarray], rule: str) -> np.ndarray:
    """Grades of a dictionary-encoded column (:func:`.format.grade_of` under ``rule``): each distinct text
    converted once."""
    codes = numbers(values.indices).astype(np.int64)
    return integers_of_codes(values.dictionary.to_pylist(), codes, column, name, lines, rule)


def _numbers(values: pa.Array, column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """Numbers of a text column, in strtod's syntax: Arrow converts the decimal ones (correctly
    rounded, as strtod); the few others are hexadecimal or not numbers at all."""
    is_decimal = pc.match_substring_regex(values, f'^(?:{DECIMAL_NUMBER})$', ignore_case=True)
    decimal = numbers(is_decimal.cast(pa.uint8())).astype(bool)
    out = np.empty(len(values), dtype=np.float64)
    out[decimal] = numbers(values.filter(is_decimal).cast(pa.float64()))
    others = np.flatnonzero(~decimal)
    for row, text in zip(others.tolist(), take(values, others).to_pylist(), strict=True):
        value = number_or_none(text)
        if value is None:
            raise InputError(f'{column} {text!r} is not a number', name, int(lines()[row]))
        out[row] = value
    return out


def _first_invalid_utf8_line(data: Data, layout: Layout) -> int | None:
    """The first line with a kept field that is not UTF-8 (other fields are never read as text), a block
    of lines at a time."""
    raw = bytes(data)
    b = np.frombuffer(raw, dtype=np.uint8)
    kept = [layout.names.index(c) for c in layout.keep]
    lines_before = 0
    for lo, hi in line_blocks(b):
        block = b[lo:hi]
        newlines = np.flatnonzero(block == 10)
        starts = np.concatenate(([0], newlines + 1))
        ends = np.append(newlines, len(block))
        for i in np.unique(np.searchsorted(newlines, np.flatnonzero(block >= 0x80))).tolist():   # non-ASCII
            fields = raw[lo + starts[i]:lo + ends[i]].split(b' ')
            try:
                for k in kept:
                    fields[k].decode('utf-8')
            except UnicodeDecodeError:
                return cast('int | None', lines_before + i + 1)
        lines_before += len(newlines)
    return None
