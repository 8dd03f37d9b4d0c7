"""Zstandard-compressed TREC files (``.zst``), read through pyarrow's decompressing stream: the standard
library reads zstd only from Python 3.14, and pyarrow, a dependency, carries the codec.

The module offers what the readers ask of ``gzip``, ``bz2`` and ``lzma`` (:data:`.paths.COMPRESSION`
names it beside them): :func:`open` of a path for reading bytes.  A missing file is a
``FileNotFoundError`` and corrupt data an ``OSError``, as with theirs.
"""
from __future__ import annotations

import os
from typing import Any


def open(path: str | os.PathLike[str], mode: str = 'rb') -> Any:   # noqa: A001 (gzip.open's name and use)
    """A binary stream of the decompressed bytes of ``path`` (``mode`` ``'rb'`` only: irmetrics never
    writes zstd)."""
    if mode != 'rb':
        raise ValueError(f'zstd files are read only (mode "rb"), not opened with mode {mode!r}')
    import pyarrow as pa
    return pa.input_stream(os.fspath(path), compression='zstd')
