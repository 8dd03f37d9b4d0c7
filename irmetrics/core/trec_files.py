"""Reading TREC qrels and run files into columns.

Files separated by tabs or runs of white space are first normalised to single
spaces (bytes operations, only when the file needs it).  Small regular files
are then split by Python's C string methods (no pyarrow import, so a small job
starts fast); everything else is read by Arrow's multi-threaded CSV reader
over the memory-mapped file (:mod:`.trec_arrow`), which also takes lines with
extra fields after the run tag (trec_eval accepts them) and turns a malformed
line into an error naming the file, the line and the problem.

Formats (fields separated by any white space):

* qrels: ``query_id iteration doc_id relevance`` (relevance an integer)
* run:   ``query_id Q0 doc_id rank score tag [ignored extra fields]`` (the rank
  field is ignored: trec_eval ranks by score)
"""
from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from itertools import repeat
from typing import Callable, Union

import numpy as np

from . import ids
from .errors import InputError

class FileData:
    """A large plain file: streamed by the Arrow reader; its bytes are read only when needed (errors)."""

    def __init__(self, path: str):
        self.path = path
        self.size = os.path.getsize(path)

    def __len__(self) -> int:
        return self.size

    def head(self, n: int) -> bytes:
        with open(self.path, 'rb') as f:
            return f.read(n)

    def __bytes__(self) -> bytes:
        with open(self.path, 'rb') as f:
            return f.read()


Data = Union[bytes, FileData]


def head(data: Data, n: int = 1 << 16) -> bytes:
    """The first ``n`` bytes."""
    return data.head(n) if isinstance(data, FileData) else bytes(data[:n])
#: Files up to this size are split by Python's C string methods, without importing pyarrow.
SMALL_FILE = 2 << 20
_COMPRESSION = {'.gz': 'gzip', '.bz2': 'bz2', '.xz': 'lzma'}     # suffix -> stdlib module, imported when used
_FLOAT_SYNTAX = re.compile(r'[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)', re.IGNORECASE | re.ASCII)
_BOM = b'\xef\xbb\xbf'
_IRREGULAR = (b'\t', b'\r', b'\v', b'\f', b'  ', b'\n ', b' \n')
SNIFF = 1 << 16


@dataclass(frozen=True)
class Layout:
    """Fields of one TREC file kind: names, which to keep, which are numeric, which have few values."""

    kind: str
    names: tuple[str, ...]
    keep: tuple[str, ...]
    numeric: tuple[str, ...]
    coded: tuple[str, ...]
    extra_fields_allowed: bool

    @property
    def usage(self) -> str:
        return ' '.join(self.names)


QRELS = Layout('qrels', ('query_id', 'iteration', 'doc_id', 'relevance'),
               ('query_id', 'iteration', 'doc_id', 'relevance'), ('relevance',), ('query_id', 'iteration'), False)
RUN = Layout('run', ('query_id', 'Q0', 'doc_id', 'rank', 'score', 'tag'),
             ('query_id', 'doc_id', 'score'), ('score',), ('query_id',), True)


def load(source) -> tuple[Data, str]:
    """(content, display name) of a path (plain, .gz, .bz2, .xz), raw text or bytes.

    A large plain file is not read here: the Arrow reader streams it (see :class:`FileData`).
    """
    if isinstance(source, bytes):
        return source, '<bytes>'
    if isinstance(source, str) and ('\n' in source or not source.strip()):
        return source.encode('utf-8'), '<text>'
    path = os.fspath(source)
    compression = _COMPRESSION.get(os.path.splitext(path)[1].lower())
    try:
        if compression is None:
            if os.path.isdir(path):
                raise IsADirectoryError(path)
            if os.path.getsize(path) <= SMALL_FILE:
                with open(path, 'rb') as f:
                    return f.read(), path
            return FileData(path), path
        return _decompress(path, importlib.import_module(compression)), path
    except FileNotFoundError:
        raise InputError('no such file', path) from None
    except IsADirectoryError:
        raise InputError('is a directory, not a file', path) from None
    except (OSError, EOFError) as ex:
        raise InputError(f'cannot read: {ex}', path) from None


def _decompress(path: str, module) -> bytes:
    try:
        with module.open(path, 'rb') as f:
            return f.read()
    except (FileNotFoundError, IsADirectoryError):
        raise
    except Exception as ex:           # gzip, bz2 and lzma each raise their own kind of corrupt-data error
        raise InputError(f'cannot read: corrupt {module.__name__} data: {ex}', path) from None


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

    Id columns are id columns (:mod:`.ids`), numeric ones float64 numpy arrays.
    """
    sample = head(data, SNIFF)
    if sample.startswith(_BOM):                     # a byte-order mark is never part of a query id
        data = bytes(data)[len(_BOM):]
        sample = sample[len(_BOM):]
    if any(pattern in sample for pattern in _IRREGULAR) or sample.startswith(b' '):
        data = normalise_whitespace(bytes(data))
    if len(data) <= SMALL_FILE:
        parsed = _parse_small(bytes(data), name, layout)
        if parsed is not None:
            return parsed
    from .trec_arrow import parse_spaced
    parsed = parse_spaced(data, name, layout, check_empty=len(data) > SNIFF)
    if parsed is None:                  # irregular white space further down the file
        parsed = parse_spaced(normalise_whitespace(bytes(data)), name, layout, check_empty=False)
    return parsed


def _parse_small(data: bytes, name: str, layout: Layout):
    """Fields of a small file by ``str.split`` (no pyarrow import); None unless every line has all fields."""
    try:
        text = normalise_whitespace(data).decode('utf-8')
    except UnicodeDecodeError:
        raise InputError('ids must be valid UTF-8 text', name) from None
    lines = text.split('\n')
    n_rows = len(lines) - lines.count('')
    tokens = text.split()
    width = len(layout.names)
    # n_rows * width fields in all and no line longer than width: every line has exactly width fields
    if len(tokens) != n_rows * width or max(map(str.count, lines, repeat(' ')), default=0) >= width:
        return None                     # extra fields or a malformed line: the general reader says which

    def line_numbers() -> np.ndarray:
        return np.flatnonzero(np.array([line != '' for line in lines], dtype=bool)) + 1

    out = {}
    for c in layout.keep:
        i = layout.names.index(c)
        values = tokens[i::width]
        out[c] = numbers_of_text(values, c, name, line_numbers) if c in layout.numeric else ids.column(values)
    return out, line_numbers


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


def line_of(data: bytes, text: str, start: int = 0) -> tuple[int, int]:
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


def width_problem(layout: Layout, text: str) -> str:
    n = len(layout.names)
    want = f'at least {n}' if layout.extra_fields_allowed else f'{n}'
    shown = text if len(text) <= 80 else text[:77] + '...'
    return f'expected {want} fields ({layout.usage}), found {len(text.split())}: {shown!r}'


def numbers_of_text(texts: list[str], column: str, name: str, lines: Callable[[], np.ndarray]) -> np.ndarray:
    """float64 values of decimal numbers written as C's strtod reads them; anything else names its line.

    numpy's own conversion also takes Python's spellings ('1_000', non-ASCII digits), so those
    are ruled out first: trec_eval would not read them as the same number.
    """
    joined = ' '.join(texts)
    if joined.isascii() and '_' not in joined:
        try:
            return np.array(texts, dtype=np.float64)
        except ValueError:
            pass
    for i, text in enumerate(texts):
        if not _FLOAT_SYNTAX.fullmatch(text):
            raise InputError(f'{column} {text!r} is not a number', name, int(lines()[i]))
    return np.array(texts, dtype=np.float64)


