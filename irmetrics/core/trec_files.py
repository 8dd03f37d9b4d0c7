"""Reading TREC qrels and run files into columns.

Parsing is Arrow's multi-threaded CSV reader (pyarrow): a whitespace-separated
TREC file is first normalised to single spaces (bytes operations, only when
needed), then read in one call.  Lines the fast reader cannot take (a run line
with extra columns after the tag, which trec_eval accepts; a malformed line)
are collected by its invalid-row handler; malformed ones become an error that
names the file, the line and the problem.

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
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from .errors import InputError

_OPENERS = {'.gz': gzip.open, '.bz2': bz2.open, '.xz': lzma.open}
_FLOAT_SYNTAX = re.compile(r'[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)', re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class Layout:
    """Columns of one TREC file kind: names, which to keep, which are numeric."""

    kind: str
    names: tuple[str, ...]
    keep: tuple[str, ...]
    numeric: tuple[str, ...]
    extra_columns_allowed: bool

    @property
    def usage(self) -> str:
        return ' '.join(self.names)


QRELS = Layout('qrels', ('query_id', 'iteration', 'doc_id', 'relevance'),
               ('query_id', 'iteration', 'doc_id', 'relevance'), ('relevance',), False)
RUN = Layout('run', ('query_id', 'Q0', 'doc_id', 'rank', 'score', 'tag'),
             ('query_id', 'doc_id', 'score'), ('score',), True)


def load_bytes(source) -> tuple[bytes, str]:
    """(content, display name) of a path (plain, .gz, .bz2, .xz), raw text or bytes."""
    if isinstance(source, bytes):
        return source, '<bytes>'
    if isinstance(source, str) and ('\n' in source or (not source.strip() == source and source.strip() == '')):
        return source.encode('utf-8'), '<text>'
    path = os.fspath(source)
    opener = _OPENERS.get(os.path.splitext(path)[1].lower(), open)
    try:
        with opener(path, 'rb') as f:
            return f.read(), path
    except FileNotFoundError:
        raise InputError('no such file', path) from None
    except IsADirectoryError:
        raise InputError('is a directory, not a file', path) from None
    except (OSError, EOFError) as ex:
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
    if b'\n ' in data:
        data = data.replace(b'\n ', b'\n')
    if b' \n' in data:
        data = data.replace(b' \n', b'\n')
    if data.startswith(b' '):
        data = data[1:]
    if data.endswith(b' '):
        data = data[:-1]
    return data


def row_lines(data: bytes, skipped: np.ndarray | None = None) -> np.ndarray:
    """1-based line numbers of the rows the reader produced: non-empty lines minus ``skipped``."""
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
        before_ok = pos == 0 or data[pos - 1:pos] == b'\n'
        end = pos + len(needle)
        if before_ok and (end == len(data) or data[end:end + 1] == b'\n'):
            return data.count(b'\n', 0, pos) + 1, end
        pos += 1


def parse(data: bytes, name: str, layout: Layout) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """Columns (``layout.keep``) of a TREC file, and a function giving each row's line number.

    String columns are Arrow arrays, numeric ones float64 numpy arrays.
    """
    data = normalise_whitespace(data)
    if not data.strip():
        empty = {c: (np.zeros(0) if c in layout.numeric else pa.array([], pa.string())) for c in layout.keep}
        return empty, lambda: np.zeros(0, np.int64)
    first_line = data[:data.find(b'\n') if b'\n' in data else len(data)]
    width = len(first_line.split(b' '))
    names = list(layout.names)
    if layout.extra_columns_allowed and width > len(names):
        names += [f'extra{i}' for i in range(width - len(names))]
    kept_rows: list[str] = []      # lines with extra fields, to add back
    fatal: list[str] = []

    def invalid_row(row) -> str:
        if not row.text.strip():
            return 'skip'
        if layout.extra_columns_allowed and row.actual_columns >= len(layout.names):
            kept_rows.append(row.text)
            return 'skip'
        fatal.append(row.text)
        return 'error'

    table = _read(data, name, names, layout, invalid_row, fatal, kept_rows)
    extra: list[tuple[int, list[str]]] = []
    pos = 0
    for text in kept_rows:
        line, pos = _line_of(data, text, pos)
        extra.append((line, text.split()))
    skipped = np.array([line for line, _ in extra], dtype=np.int64)

    def lines() -> np.ndarray:
        return row_lines(data, skipped)

    columns = {c: table.column(c).combine_chunks() for c in layout.keep}
    if extra:
        columns, lines = _merge_extra_rows(columns, lines, extra, layout, name)
    out = {}
    for c in layout.keep:
        out[c] = _numeric(columns[c], c, name, lines) if c in layout.numeric else columns[c]
    return out, lines


def _read(data, name, names, layout, invalid_row, fatal, kept_rows) -> pa.Table:
    """The table with numeric columns as float64, or as text if one holds a non-number."""
    types = {c: (pa.string() if c not in layout.numeric else pa.float64()) for c in layout.keep}
    for attempt in (types, {c: pa.string() for c in layout.keep}):
        kept_rows.clear()
        try:
            return _arrow_read(data, names, layout.keep, attempt, invalid_row)
        except pa.ArrowInvalid as ex:
            msg = str(ex)
            if fatal:
                line, _ = _line_of(data, fatal[0])
                raise InputError(_width_problem(layout, fatal[0].split(), fatal[0]), name, line or None) from None
            if 'utf8' in msg.lower():
                raise InputError('ids must be valid UTF-8 text', name) from None
            if 'conversion error' not in msg:
                raise InputError(f'cannot parse as a TREC {layout.kind} file ({layout.usage}): {msg}',
                                 name) from None
    raise AssertionError('unreachable: reading every column as text cannot fail to convert')


def _arrow_read(data, names, keep, types, invalid_row) -> pa.Table:
    return pa_csv.read_csv(
        pa.BufferReader(data),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 24),
        parse_options=pa_csv.ParseOptions(delimiter=' ', quote_char=False, escape_char=False,
                                          invalid_row_handler=invalid_row),
        convert_options=pa_csv.ConvertOptions(column_types=types, include_columns=list(keep), null_values=[],
                                              strings_can_be_null=False, quoted_strings_can_be_null=False))


def _width_problem(layout: Layout, fields: list[str], text: str) -> str:
    n = len(layout.names)
    want = f'at least {n}' if layout.extra_columns_allowed else f'{n}'
    shown = text if len(text) <= 80 else text[:77] + '...'
    return f'expected {want} columns ({layout.usage}), found {len(fields)}: {shown!r}'


def _numeric(values, column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """float64 numpy array of a numeric column; text that is not a number names its line."""
    if pa.types.is_floating(values.type):
        return values.to_numpy(zero_copy_only=False)
    texts = values.to_pylist()
    for i, text in enumerate(texts):
        if not _FLOAT_SYNTAX.fullmatch(text):
            raise InputError(f'{column} {text!r} is not a number', name, int(lines()[i]))
    return np.array(texts, dtype=np.float64)


def _merge_extra_rows(columns, lines, extra, layout: Layout, name: str):
    """Put the rows read from over-long lines back in file order (first fields only)."""
    base_lines = lines()
    extra_lines = np.array([line for line, _ in extra], dtype=np.int64)
    all_lines = np.concatenate([base_lines, extra_lines])
    order = np.argsort(all_lines, kind='stable')
    merged = {}
    for c in layout.keep:
        i = layout.names.index(c)
        added = [fields[i] for _, fields in extra]
        base = columns[c]
        if pa.types.is_floating(base.type):
            vals = [None] * len(added)
            for k, text in enumerate(added):
                if not _FLOAT_SYNTAX.fullmatch(text):
                    raise InputError(f'{c} {text!r} is not a number', name, int(extra_lines[k]))
                vals[k] = float(text)
            combined = np.concatenate([base.to_numpy(zero_copy_only=False), np.array(vals, dtype=np.float64)])
            merged[c] = pa.array(combined[order])
        else:
            combined = pa.concat_arrays([base.cast(pa.string()), pa.array(added, pa.string())])
            merged[c] = combined.take(pa.array(order))
    sorted_lines = all_lines[order]
    return merged, lambda: sorted_lines
