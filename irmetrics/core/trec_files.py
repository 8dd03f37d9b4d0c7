"""Reading TREC qrels and run files into columns: where the bytes come from, and which path splits them.

Sources: a path (plain, ``.gz``, ``.bz2``, ``.xz``), raw text, or bytes.  Small inputs (up to
:data:`SMALL_FILE` bytes) are brought into canonical form and split by Python's string methods
(no pyarrow import, so a small job starts fast); larger ones are split by Arrow's multi-threaded
CSV reader (:mod:`.trec_arrow`): straight from the file when one streaming pass finds it
single-spaced, otherwise after canonicalisation in memory.  Both paths follow
:mod:`.trec_format`, the one statement of the format, and give the same columns.
"""
from __future__ import annotations

import importlib
import os
from typing import Callable

import numpy as np

from . import ids
from .errors import InputError
from .trec_format import (BOM, Data, FileData, Layout, canonical, integers_of_text, is_single_spaced,
                          numbers_of_text, row_lines)

#: Inputs up to this size are split by Python's string methods, without importing pyarrow.
SMALL_FILE = 2 << 20
_COMPRESSION = {'.gz': 'gzip', '.bz2': 'bz2', '.xz': 'lzma'}     # suffix -> stdlib module, imported when used


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
            file = FileData(path)
            return (bytes(file) if file.head(len(BOM)) == BOM else file), path
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


def parse(data: Data, name: str, layout: Layout) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """Columns (``layout.keep``) of a TREC file, and a function giving each row's line number.

    Id columns are id columns (:mod:`.ids`), numeric ones numpy arrays (float64 scores, int64 grades).
    """
    if isinstance(data, bytes) and data.startswith(BOM):     # a byte-order mark is never part of a query id
        data = data[len(BOM):]
    if isinstance(data, bytes) and len(data) <= SMALL_FILE:
        return _split_small(canonical(data, name, layout), name, layout)
    from . import trec_arrow
    if is_single_spaced(data):
        parsed = trec_arrow.split(data, name, layout)
        if parsed is not None:
            return parsed
    text = canonical(bytes(data), name, layout)
    return trec_arrow.split(text, name, layout) or trec_arrow.split(text, name, layout, typed=False)


def _split_small(text: bytes, name: str, layout: Layout) -> tuple[dict[str, object], Callable[[], np.ndarray]]:
    """The columns of canonical ``text`` (every non-empty line has exactly the layout's fields)."""
    try:
        decoded, valid = text.decode('utf-8'), True
    except UnicodeDecodeError:
        decoded, valid = text.decode('utf-8', 'surrogateescape'), False
    rows = [line for line in decoded.split('\n') if line]
    tokens = ' '.join(rows).split(' ') if rows else []
    width = layout.width

    def lines() -> np.ndarray:
        return row_lines(text)

    out: dict[str, object] = {}
    for c in layout.keep:
        values = tokens[layout.names.index(c)::width]
        if c in layout.numbers:
            out[c] = numbers_of_text(values, c, name, lines)
        elif c in layout.integers:
            out[c] = integers_of_text(values, c, name, lines)
        else:
            if not valid:
                _check_utf8(values, name, lines)
            out[c] = ids.column(values)
    return out, lines


def _check_utf8(values: list[str], name: str, lines: Callable[[], np.ndarray]) -> None:
    """Ids decoded with ``surrogateescape`` must hold no undecodable byte (ids hold no space)."""
    joined = ' '.join(values)
    try:
        joined.encode('utf-8')
    except UnicodeEncodeError as ex:
        raise InputError('ids must be valid UTF-8 text', name, int(lines()[joined.count(' ', 0, ex.start)])) from None
