"""Reading TREC qrels and run files into columns.

Parsing is Arrow's multi-threaded CSV reader (pyarrow) over the memory-mapped
file, with single spaces as separators.  Files separated by tabs or runs of
white space are first normalised to single spaces (bytes operations, only when
the file needs it).  Lines the fast reader cannot take (a run line with extra
fields after the tag, which trec_eval accepts; a malformed line) go through its
invalid-row handler: extra fields are dropped, a malformed line becomes an
error that names the file, the line and the problem.

Formats (fields separated by any white space):

* qrels: ``query_id iteration doc_id relevance`` (relevance an integer)
* run:   ``query_id Q0 doc_id rank score tag [ignored extra fields]`` (the rank
  field is ignored: trec_eval ranks by score)
"""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import re
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from .arrow_strings import numbers, take
from .errors import InputError

Data = Union[bytes, pa.Buffer]
_OPENERS = {'.gz': gzip.open, '.bz2': bz2.open, '.xz': lzma.open}
_FLOAT_SYNTAX = re.compile(r'[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)', re.IGNORECASE | re.ASCII)
_IRREGULAR = (b'\t', b'\r', b'\v', b'\f', b'  ', b'\n ', b' \n')
_SNIFF = 1 << 16


@dataclass(frozen=True)
class Layout:
    """Fields of one TREC file kind: names, which to keep, which are numeric."""

    kind: str
    names: tuple[str, ...]
    keep: tuple[str, ...]
    numeric: tuple[str, ...]
    extra_fields_allowed: bool

    @property
    def usage(self) -> str:
        return ' '.join(self.names)


QRELS = Layout('qrels', ('query_id', 'iteration', 'doc_id', 'relevance'),
               ('query_id', 'iteration', 'doc_id', 'relevance'), ('relevance',), False)
RUN = Layout('run', ('query_id', 'Q0', 'doc_id', 'rank', 'score', 'tag'),
             ('query_id', 'doc_id', 'score'), ('score',), True)


def load(source) -> tuple[Data, str]:
    """(content, display name) of a path (plain: memory-mapped; .gz, .bz2, .xz), raw text or bytes."""
    if isinstance(source, bytes):
        return source, '<bytes>'
    if isinstance(source, str) and ('\n' in source or not source.strip()):
        return source.encode('utf-8'), '<text>'
    path = os.fspath(source)
    opener = _OPENERS.get(os.path.splitext(path)[1].lower())
    try:
        if opener is None:
            if os.path.isdir(path):
                raise IsADirectoryError(path)
            if os.path.getsize(path) == 0:
                return b'', path
            return pa.memory_map(path).read_buffer(), path
        with opener(path, 'rb') as f:
            return f.read(), path
    except FileNotFoundError:
        raise InputError('no such file', path) from None
    except IsADirectoryError:
        raise InputError('is a directory, not a file', path) from None
    except (OSError, EOFError, pa.ArrowException) as ex:
        raise InputError(f'cannot read: {ex}', path) from None


def normalise_whitespace(data: bytes) -> bytes:
    """Tabs, carriage returns and runs of spaces become single spaces; lines are stripped.

    Only bytes operations (C speed); the number of lines does not change.
    """
    for ch in (b'\t', b'\r', b'\v', b'\f'):
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


def parse(data: Data, name: str, layout: Layout) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """Columns (``layout.keep``) of a TREC file, and a function giving each row's line number.

    String columns are Arrow arrays, numeric ones float64 numpy arrays.
    """
    sample = bytes(data[:_SNIFF])
    if any(pattern in sample for pattern in _IRREGULAR) or sample.startswith(b' '):
        data = normalise_whitespace(bytes(data))
    parsed = _parse_spaced(data, name, layout, check_empty=not isinstance(data, bytes) or len(data) > _SNIFF)
    if parsed is None:                  # irregular white space further down the file
        parsed = _parse_spaced(normalise_whitespace(bytes(data)), name, layout, check_empty=False)
    return parsed


def _parse_spaced(data: Data, name: str, layout: Layout, check_empty: bool):
    """Parse single-space-separated ``data``; None if ``check_empty`` finds an empty field."""
    first = _first_line(data)
    if first is None:
        empty = {c: (np.zeros(0) if c in layout.numeric else pa.array([], pa.string())) for c in layout.keep}
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
    if check_empty and any(_has_empty(table.column(c)) for c in table.column_names):
        return None
    extra: list[tuple[int, list[str]]] = []
    pos = 0
    raw = bytes(data) if kept_rows else b''
    for text in kept_rows:
        line, pos = _line_of(raw, text, pos)
        extra.append((line, text.split()))
    skipped = np.array([line for line, _ in extra], dtype=np.int64)

    def lines() -> np.ndarray:
        return row_lines(data, skipped)

    columns = {c: table.column(c) for c in layout.keep}
    if extra:
        columns, lines = _merge_extra_rows(columns, lines, extra, layout, name)
    out = {}
    for c in layout.keep:
        out[c] = _numeric(columns[c], c, name, lines) if c in layout.numeric else _single(columns[c])
    return out, lines


def _first_line(data: Data) -> bytes | None:
    """The first non-blank line, or None if there is none."""
    sample = bytes(data[:_SNIFF])
    for line in sample.split(b'\n'):
        if line.strip():
            return line.strip()
    return None if len(data) <= _SNIFF else bytes(data).strip().split(b'\n', 1)[0] or None


def _read(data, name, names, layout, invalid_row, fatal, kept_rows) -> pa.Table:
    """The table (numeric columns float64, or text if one holds a non-number; others dictionary-encoded)."""
    text = {c: pa.string() for c in layout.keep}
    dictionary = {c: pa.dictionary(pa.int32(), pa.string()) for c in names if c not in layout.keep}
    typed = dict(text, **{c: pa.float64() for c in layout.numeric})
    for types in (typed, text):
        kept_rows.clear()
        try:
            return _arrow_read(data, names, dict(types, **dictionary), invalid_row)
        except pa.ArrowInvalid as ex:
            msg = str(ex)
            if fatal:
                raw = bytes(data)
                line, _ = _line_of(raw, fatal[0])
                raise InputError(_width_problem(layout, fatal[0]), name, line or None) from None
            if 'utf8' in msg.lower():
                raise InputError('ids must be valid UTF-8 text', name) from None
            if 'conversion error' not in msg:
                raise InputError(f'cannot parse as a TREC {layout.kind} file ({layout.usage}): {msg}',
                                 name) from None
    raise AssertionError('unreachable: reading every column as text cannot fail to convert')


def _arrow_read(data, names, types, invalid_row) -> pa.Table:
    return pa_csv.read_csv(
        pa.BufferReader(data),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 24),
        parse_options=pa_csv.ParseOptions(delimiter=' ', quote_char=False, escape_char=False,
                                          invalid_row_handler=invalid_row),
        convert_options=pa_csv.ConvertOptions(column_types=types, include_columns=list(names), null_values=[],
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
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def row_lines(data: Data, skipped: np.ndarray | None = None) -> np.ndarray:
    """1-based line numbers of the rows the reader produced: non-blank lines minus ``skipped``."""
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if len(buf) and buf[-1] != 10:
        ends = np.append(ends, len(buf))
    starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else np.zeros(0, np.int64)
    lines = np.flatnonzero(ends - starts > 0) + 1
    if skipped is not None and len(skipped):
        lines = lines[~np.isin(lines, skipped)]
    return lines


def _line_of(data: bytes, text: str, start: int = 0) -> tuple[int, int]:
    """(line number, byte offset after it) of the first line equal to ``text`` at or after ``start``."""
    needle = text.encode('utf-8')
    pos = start
    while True:
        pos = data.find(needle, pos)
        if pos < 0:
            return 0, start
        end = pos + len(needle)
        if (pos == 0 or data[pos - 1] == 10) and (end == len(data) or data[end] == 10):
            return data.count(b'\n', 0, pos) + 1, end
        pos += 1


def _width_problem(layout: Layout, text: str) -> str:
    n = len(layout.names)
    want = f'at least {n}' if layout.extra_fields_allowed else f'{n}'
    shown = text if len(text) <= 80 else text[:77] + '...'
    return f'expected {want} fields ({layout.usage}), found {len(text.split())}: {shown!r}'


def _numeric(values, column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """float64 numpy array of a numeric column; text that is not a number names its line."""
    if pa.types.is_floating(values.type):
        return numbers(values)
    texts = _single(values).to_pylist()
    for i, text in enumerate(texts):
        if not _FLOAT_SYNTAX.fullmatch(text):
            raise InputError(f'{column} {text!r} is not a number', name, int(lines()[i]))
    return np.array(texts, dtype=np.float64)


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
        if pa.types.is_floating(base.type):
            base = base.cast(pa.string())
        merged[c] = take(pa.concat_arrays([base, added]), order)
    sorted_lines = np.sort(all_lines)
    return merged, lambda: sorted_lines
