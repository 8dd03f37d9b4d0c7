"""TREC text in blocks of whole lines: runs read in chunks (larger than memory) and by Dask.

A block is split by :func:`.reader.parse`, the path of every TREC input (so the one statement of
the format, :mod:`.format`, applies unchanged), and its errors name the line in the whole file, not
in the block.  Blocks come either one after the other from a stream (:func:`file_blocks`: plain or
compressed, the in-process chunked path) or as the lines starting in a byte range of a plain file
(:func:`range_block`: Dask's partitions, read independently; a block's first line number is
counted only when an error needs it).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import BinaryIO

import numpy as np
import pyarrow as pa

from ...errors import InputError
from ..arrow_arrays import arrow_array
from ..paths import compression_of
from .format import RUN, BlankLines, Layout
from .reader import parse
from .stream import TextGuard

_SCAN = 1 << 16
FirstLine = int | Callable[[], int]


def open_text(path: str) -> BinaryIO:
    """A binary stream of a file's text, decompressed by its suffix (.gz, .bz2, .xz, .zst)."""
    compression = compression_of(path)
    try:
        if compression is None:
            return open(path, 'rb')
        stream: BinaryIO = importlib.import_module(compression).open(path, 'rb')
        return stream
    except FileNotFoundError:
        raise InputError('no such file', path) from None
    except OSError as ex:
        raise InputError(f'cannot read: {ex}', path) from None


def file_blocks(path: str, size: int) -> Iterator[tuple[bytes, int]]:
    """(block, number of its first line): the file's text in blocks of about ``size`` bytes, each
    ending at the end of a line (a line longer than ``size`` makes a longer block).  Each piece read is
    checked as it arrives (:class:`.stream.TextGuard`), and the pieces of a line longer than ``size``
    are joined once, when it ends: linear in the length of the line."""
    guard = TextGuard(path)
    line = 1
    pending: list[bytes] = []                    # the pieces of a line not ended yet
    with open_text(path) as stream:
        while True:
            try:
                piece = stream.read(size)
            except MemoryError:
                raise InputError('out of memory while reading', path) from None
            except (OSError, EOFError) as ex:     # gzip, bz2 and lzma each raise their own kind
                raise InputError(f'cannot read: corrupt data: {ex}', path) from None
            if not piece:
                break
            guard.check(piece)
            end = piece.rfind(b'\n') + 1
            if end == 0:
                pending.append(piece)
                continue
            data = b''.join([*pending, piece[:end]]) if pending else piece[:end]
            yield data, line
            line += data.count(b'\n')
            pending = [piece[end:]] if end < len(piece) else []
    if pending:
        yield b''.join(pending), line


def range_block(path: str, start: int, end: int) -> tuple[bytes, Callable[[], int]]:
    """The lines of a plain file that start at a byte in ``[start, end)``, and a function counting
    the number of the first of them (read from the file's start: only an error needs it)."""
    with open(path, 'rb') as f:
        begin = 0 if start == 0 else _next_line(f, start - 1)
        stop = _next_line(f, end - 1)
        f.seek(begin)
        data = f.read(max(stop - begin, 0))
    return data, lambda: _count_lines(path, begin)


def _next_line(f: BinaryIO, position: int) -> int:
    """Where the first line that starts after byte ``position`` starts (the file's size if none does)."""
    f.seek(position)
    while True:
        piece = f.read(_SCAN)
        if not piece:
            return f.tell()
        at = piece.find(b'\n')
        if at >= 0:
            return f.tell() - len(piece) + at + 1


def _count_lines(path: str, offset: int) -> int:
    """The number of the line starting at byte ``offset``."""
    count = 0
    with open(path, 'rb') as f:
        while f.tell() < offset:
            count += f.read(min(1 << 22, offset - f.tell())).count(b'\n')
    return count + 1


def block_table(data: bytes, name: str, first_line: FirstLine, file_start: bool, positions: bool = True,
                layout: Layout = RUN, blanks: BlankLines | None = None) -> pa.Table:
    """A block's rows as an Arrow table: the layout's kept columns (ids as Arrow strings, the query
    ids dictionary-encoded, numbers as numbers) and, with ``positions``, each row's line in the file;
    its blank lines added to ``blanks`` if given (see :func:`.reader.parse`)."""
    try:
        columns, lines = parse(data, name, layout, file_start=file_start, small_split=False, first_line=first_line,
                               blanks=blanks)
    except InputError as ex:
        raise in_file(ex, first_line) from None
    out = {c: arrow_array(v) if isinstance(v, np.ndarray) else v for c, v in columns.items()}
    if positions:
        out['position'] = arrow_array(lines() + (_value(first_line) - 1))
    return pa.table(out)


def in_file(error: InputError, first_line: FirstLine) -> InputError:
    """``error``, raised for a block, with its line counted in the whole file."""
    if error.line is None:
        return error
    return type(error)(error.problem, error.source, error.line + _value(first_line) - 1)


def _value(first_line: FirstLine) -> int:
    return first_line() if callable(first_line) else first_line
