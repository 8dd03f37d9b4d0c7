"""Run names: what a run is called in every table, report and plot, in Python and on the command line.

A run given by its path is named by its file's stem (``examples/run_bm25.txt`` is ``run_bm25``:
the file name without its compression suffix and one extension), unless two runs would share a stem,
when every run keeps its path as given.  On the command line ``NAME=PATH`` names a run explicitly.
A run is found by its name, by the path it was given as (or another path of the same file), or by its
stem, when one run matches (:func:`find_run`).
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from ..data.paths import COMPRESSION, EXTENSIONS
from ..errors import InputError


def stem(path: str | os.PathLike[str]) -> str:
    """The file name without its compression suffix and one known extension (:mod:`irmetrics.data.paths`)."""
    name = os.path.basename(os.fspath(path).rstrip('/\\')) or os.fspath(path)
    for suffixes in (tuple(COMPRESSION), EXTENSIONS):
        lowered = name.lower()
        for suffix in suffixes:
            if lowered.endswith(suffix) and len(name) > len(suffix):
                name = name[:-len(suffix)]
                break
    return name


def default_names(paths: Sequence[str]) -> list[str]:
    """The stems of ``paths``, or the paths as given when two stems are the same."""
    stems = [stem(p) for p in paths]
    return stems if len(set(stems)) == len(stems) else list(paths)


def split_named(arg: str) -> tuple[str | None, str]:
    """``NAME=PATH`` as (NAME, PATH); an argument that is a file, or has no name before ``=``, as
    (None, arg)."""
    name, sep, path = arg.partition('=')
    if not sep or not name or not path or os.path.exists(arg) or os.sep in name:
        return None, arg
    return name, path


def named_runs(args: Sequence[str]) -> dict[str, str]:
    """``{name: path}`` of command-line run arguments (``NAME=PATH`` or a path, named by its stem)."""
    split = [split_named(a) for a in args]
    defaults = default_names([path for _, path in split])
    names = [given or default for (given, _), default in zip(split, defaults, strict=True)]
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise InputError(f'two runs are named {twice!r}: name them NAME=PATH')
    return {name: path for name, (_, path) in zip(names, split, strict=True)}


def find_run(given: str, names: Sequence[str], paths: Sequence[object], what: str = 'run') -> str:
    """The name of the run ``given`` designates: a name, the path a run was given as (or the same file
    by another path), a run's stem, or a path whose stem is a name; an error (calling it ``what``) when
    none or several match."""
    if given in names:
        return given
    for match in _matches(given, names, paths):
        if len(match) == 1:
            return match[0]
        if len(match) > 1:
            raise InputError(f'ambiguous {what} {given!r}: it could be {", ".join(map(repr, match))}')
    raise InputError(f'unknown {what} {given!r}: the runs are {", ".join(map(repr, names))}')


def _matches(given: str, names: Sequence[str], paths: Sequence[object]) -> Iterator[list[str]]:
    """The runs ``given`` could designate, rule by rule, the surest first: those given as the path ``given``,
    as the same file, with ``given`` as their stem or file name, and the run named as the stem of ``given``."""
    files = [(n, os.fspath(p)) for n, p in zip(names, paths, strict=True) if isinstance(p, (str, os.PathLike))]
    yield [n for n, p in files if p == given]
    yield [n for n, p in files if _same_file(p, given)]
    yield [n for n, p in files if stem(p) == given or os.path.basename(p) == given]
    yield [n for n in names if n == stem(given)]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False
