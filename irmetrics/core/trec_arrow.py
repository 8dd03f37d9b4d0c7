"""The large-file TREC reader: Arrow's multi-threaded CSV parser over single-space-separated data.

Lines the reader cannot take go through its invalid-row handler: a run line
with extra fields after the tag (trec_eval accepts them) is kept with its first
fields, in file order; a malformed line is an error naming its line.  A file
whose white space turns out irregular after the sampled head is reported back
(None) so the caller can normalise it and read again.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from . import ids
from .arrow_strings import combine, numbers, take
from .errors import InputError
from .trec_files import SNIFF, Data, FileData, Layout, head, line_of, numbers_of_text, row_lines, width_problem


def parse_spaced(data: Data, name: str, layout: Layout, check_empty: bool):
    """Parse single-space-separated ``data``; None if ``check_empty`` finds an empty field."""
    first = _first_line(data)
    if first is None:
        empty = {c: (np.zeros(0) if c in layout.numeric else ids.empty()) for c in layout.keep}
        return empty, lambda: np.zeros(0, np.int64)
    names = list(layout.names)
    width = len(first.split(b' '))
    if layout.extra_fields_allowed and width > len(names):
        names += [f'extra{i}' for i in range(width - len(names))]
    kept_rows: list[str] = []      # lines with extra fields, added back below
    fatal: list[str] = []

    def invalid_row(row) -> str:
        if not row.text.strip():
            return 'skip'
        if layout.extra_fields_allowed and len(row.text.split()) >= len(layout.names):
            kept_rows.append(row.text)
            return 'skip'
        fatal.append(row.text)
        return 'error'

    table = _read(data, name, names, layout, invalid_row, fatal, kept_rows)
    if check_empty and any(_has_empty(table.column(c)) for c in layout.keep):
        return None                     # two separators in a row somewhere: irregular white space
    extra: list[tuple[int, list[str]]] = []
    pos = 0
    raw = bytes(data) if kept_rows else b''
    for text in kept_rows:
        line, pos = line_of(raw, text, pos)
        extra.append((line, text.split()))
    skipped = np.array([line for line, _ in extra], dtype=np.int64)

    def lines() -> np.ndarray:
        return row_lines(bytes(data), skipped)

    columns = {c: table.column(c) for c in layout.keep}
    if extra:
        columns, lines = _merge_extra_rows(columns, lines, extra, layout, name)
    out = {}
    for c in layout.keep:
        out[c] = _numeric(columns[c], c, name, lines) if c in layout.numeric else _single(columns[c])
    return out, lines


def _first_line(data: Data) -> bytes | None:
    """The first non-blank line, or None if there is none."""
    sample = head(data, SNIFF)
    for line in sample.split(b'\n'):
        if line.strip():
            return line.strip()
    return None if len(data) <= SNIFF else bytes(data).strip().split(b'\n', 1)[0] or None


def _read(data, name, names, layout, invalid_row, fatal, kept_rows) -> pa.Table:
    """The kept columns: ids as text (dictionary-encoded where few), numbers as float64 (or text if one is not)."""
    text = {c: pa.dictionary(pa.int32(), pa.string()) if c in layout.coded else pa.string() for c in layout.keep}
    typed = dict(text, **{c: pa.float64() for c in layout.numeric})
    for types in (typed, text):
        kept_rows.clear()
        undecodable: list[BaseException] = []
        try:
            with _collect_decode_errors(undecodable):
                return _arrow_read(data, names, types, invalid_row).unify_dictionaries()
        except pa.ArrowInvalid as ex:
            msg = str(ex)
            if undecodable:                 # the reader could not even show us a malformed line
                raise InputError('ids must be valid UTF-8 text', name) from None
            if fatal:
                raw = bytes(data)
                line, _ = line_of(raw, fatal[0])
                raise InputError(width_problem(layout, fatal[0]), name, line or None) from None
            if 'utf8' in msg.lower():
                raise InputError('ids must be valid UTF-8 text', name) from None
            if 'conversion error' not in msg:
                shown = msg[:200].encode('ascii', 'backslashreplace').decode('ascii')
                raise InputError(f'cannot parse as a TREC {layout.kind} file ({layout.usage}): {shown}',
                                 name) from None
    raise AssertionError('unreachable: reading every column as text cannot fail to convert')


@contextlib.contextmanager
def _collect_decode_errors(found: list):
    """Arrow decodes a malformed line's text before calling our handler; when that decoding fails
    Python would print the exception as 'ignored'.  Collect it instead (other ones pass through)."""
    previous = sys.unraisablehook

    def hook(unraisable):
        if isinstance(unraisable.exc_value, UnicodeDecodeError):
            found.append(unraisable.exc_value)
        else:
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def _arrow_read(data, names, types, invalid_row) -> pa.Table:
    source = pa.input_stream(data.path) if isinstance(data, FileData) else pa.BufferReader(data)
    return pa_csv.read_csv(
        source,
        read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 24),
        parse_options=pa_csv.ParseOptions(delimiter=' ', quote_char=False, escape_char=False,
                                          invalid_row_handler=invalid_row),
        convert_options=pa_csv.ConvertOptions(column_types=types, include_columns=list(types), null_values=[],
                                              strings_can_be_null=False, quoted_strings_can_be_null=False))


def _has_empty(column: pa.ChunkedArray) -> bool:
    """True if some field is empty (two separators in a row: irregular white space)."""
    if pa.types.is_floating(column.type):
        return False
    if pa.types.is_dictionary(column.type):
        values = [chunk.dictionary for chunk in column.chunks]
    else:
        values = column.chunks
    return any(len(v) and pc.min(pc.binary_length(v)).as_py() == 0 for v in values)


def _single(column) -> pa.Array:
    return combine(column) if isinstance(column, pa.ChunkedArray) else column


def _numeric(values, column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """float64 numpy array of a numeric Arrow column; text that is not a number names its line."""
    if pa.types.is_floating(values.type):
        return numbers(values)
    return numbers_of_text(_single(values).to_pylist(), column, name, lines)


def _merge_extra_rows(columns, lines, extra, layout: Layout, name: str):
    """Put the rows read from over-long lines back in file order (their first fields only)."""
    extra_lines = np.array([line for line, _ in extra], dtype=np.int64)
    all_lines = np.concatenate([lines(), extra_lines])
    order = np.argsort(all_lines, kind='stable')
    merged = {}
    for c in layout.keep:
        i = layout.names.index(c)
        added = pa.array([fields[i] for _, fields in extra], pa.string())
        base = _single(columns[c])
        if pa.types.is_dictionary(base.type) or pa.types.is_floating(base.type):
            base = base.cast(pa.string())
        added = added.cast(base.type)
        merged[c] = take(pa.concat_arrays([base, added]), order)
    sorted_lines = np.sort(all_lines)
    return merged, lambda: sorted_lines
