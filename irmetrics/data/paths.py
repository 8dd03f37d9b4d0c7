"""Inputs given by name: the one rule for "is this a path?", and the file suffixes irmetrics knows.

A ``str`` is either a path or TREC text (:func:`is_text`: it holds a newline, or nothing but white
space), never both; ``bytes`` are always text (standard input among them), an ``os.PathLike`` always a
path.  Every module that asks (the input kinds, run naming, the command line, swapped arguments) asks
here.  The compression suffixes (:data:`COMPRESSION`) and the extensions of qrels and run files
(:data:`EXTENSIONS`) are spelled here and nowhere else.
"""
from __future__ import annotations

import os

#: Compressed TREC files: suffix -> the module that reads it (imported when used): the standard library's,
#: and for zstd irmetrics' own over pyarrow's codec (:mod:`.zstd`).
COMPRESSION = {'.gz': 'gzip', '.bz2': 'bz2', '.xz': 'lzma', '.zst': 'irmetrics.data.zstd'}
#: Extensions of qrels and run files (TREC text, tables, Parquet): what a run's name leaves out, and what
#: tells the command line that an argument is a file rather than an ir_datasets id.
EXTENSIONS = ('.txt', '.run', '.res', '.trec', '.tsv', '.csv', '.parquet', '.qrels')
#: Inputs up to this length whose text holds a newline are still a path when they name a file.
_LONGEST_PATH = 4096


def is_text(obj: object) -> bool:
    """Whether ``obj`` is TREC text given as a string rather than a path: it holds a newline (and names
    no file: a path may hold one too) or nothing but white space."""
    if not isinstance(obj, str):
        return False
    if not obj.strip():
        return True
    return '\n' in obj and not (len(obj) < _LONGEST_PATH and os.path.isfile(obj))


def is_path(obj: object) -> bool:
    """Whether ``obj`` names a file or directory: an ``os.PathLike``, or a ``str`` that is not TREC text
    (:func:`is_text`).  Whether the file exists is another question (:func:`os.path.exists`)."""
    return isinstance(obj, os.PathLike) or (isinstance(obj, str) and not is_text(obj))


def compression_of(path: str | os.PathLike[str]) -> str | None:
    """The module that reads ``path`` when its suffix says it is compressed (any case), else None."""
    return COMPRESSION.get(os.path.splitext(os.fspath(path))[1].lower())


def is_parquet(path: str | os.PathLike[str]) -> bool:
    """A path ending in ``.parquet`` (any case), or a directory (of Parquet files, as Spark and Dask write)."""
    name = os.fspath(path)
    return name.lower().endswith('.parquet') or os.path.isdir(name)


def has_input_suffix(name: str) -> bool:
    """Whether ``name`` ends in the extension of a qrels or run file or in a compression suffix (any case)."""
    return os.path.splitext(name)[1].lower() in (*EXTENSIONS, *COMPRESSION)
