"""Runs larger than a memory budget: the budget, a run file's expected footprint, and its chunks.

Evaluating a run in memory takes about :data:`TEXT_FOOTPRINT` times the size of its TREC text, or
:data:`ROW_FOOTPRINT` bytes a row of a Parquet run (measured by ``benchmarks/bench_scale.py``).
A run file whose footprint passes the budget is evaluated in chunks of complete queries
(:mod:`.chunks`), each about a quarter of the budget: streamed when the run is grouped by query,
otherwise first split by query hash into temporary Parquet files.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import InputError
from .locate import RowLocator
from .run import Run

#: peak bytes of evaluating a run in memory, per byte of its TREC text / per row of a Parquet run
TEXT_FOOTPRINT = 3.0
ROW_FOOTPRINT = 120
#: a compressed TREC file's text is taken to be this many times its size (gzip's runs: 4-6)
COMPRESSED_TEXT = 8
#: the default budget: this share of the machine's memory
DEFAULT_SHARE = 0.5
#: a chunk's share of the budget (the rest: the qrels, the results, the carried-over query)
CHUNK_SHARE = 0.25
_UNITS = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}

T = TypeVar('T')


def memory_budget(limit: int | str | None) -> int:
    """Bytes of a memory limit (see :func:`parse_size`); None: :data:`DEFAULT_SHARE` of the machine's memory."""
    if limit is None:
        return int(DEFAULT_SHARE * physical_memory())
    return parse_size(limit, 'memory limit')


def parse_size(size: int | str, what: str) -> int:
    """Bytes of a size: a number, or text such as ``'512M'``, ``'4G'``, ``'1.5GiB'`` (powers of 1024)."""
    if isinstance(size, str):
        match = re.fullmatch(r'\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)(?:i?b)?\s*', size.lower())
        if not match:
            raise InputError(f'{what} {size!r} is not a size (such as 512M, 4G or 1.5GiB)')
        size = int(float(match.group(1)) * _UNITS[match.group(2)])
    if size <= 0:
        raise InputError(f'{what} {size!r} must be positive')
    return int(size)


def physical_memory() -> int:
    """The machine's memory in bytes (a large number where the system does not say)."""
    try:
        return os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES')
    except (AttributeError, ValueError, OSError):
        return 1 << 50


def footprint(source: Any) -> int:
    """Expected peak bytes of evaluating a run file in memory (0 for raw text, bytes and unknown paths)."""
    from .inputs import is_parquet
    if isinstance(source, bytes) or (isinstance(source, str) and '\n' in source):
        return 0
    path = os.fspath(source)
    if is_parquet(path):
        from .parquet import run_rows
        return run_rows(path) * ROW_FOOTPRINT
    if not os.path.isfile(path):
        return 0
    compressed = os.path.splitext(path)[1].lower() in ('.gz', '.bz2', '.xz')
    return int(os.path.getsize(path) * TEXT_FOOTPRINT * (COMPRESSED_TEXT if compressed else 1))


def is_larger_than(source: Any, budget: int) -> bool:
    """Whether evaluating the run file ``source`` in memory would pass ``budget`` bytes."""
    return footprint(source) > budget


def map_query_chunks(source: Any, evaluate: Callable[[Run], T], budget: int, duplicates: str) -> list[T]:
    """``evaluate`` of each chunk of complete queries of a run file, as a :class:`Run` (see the module
    docstring); rows keep their file order, so ``duplicates`` resolves as for the whole run."""
    from .chunks import NotGrouped, aligned, run_tables, spilled
    from .inputs import is_parquet
    from .tables import run_from_table
    path = os.fspath(source)
    parquet = is_parquet(path)
    chunk = max(int(budget * CHUNK_SHARE), 1)

    def tables():
        return run_tables(path, parquet, max(chunk // ROW_FOOTPRINT, 1), max(int(chunk / TEXT_FOOTPRINT), 1))

    def run_of(table):
        positions = table.column('position').to_numpy()
        where = RowLocator(path, items=positions) if parquet else RowLocator(path, positions)
        return run_from_table(table, 'run', path, duplicates, where=where)

    try:
        return [evaluate(run_of(t)) for t in aligned(tables())]
    except NotGrouped:
        buckets = max(2, 2 * -(-footprint(path) // chunk))
        import tempfile  # only a run spilled by query hash needs it: not at import
        with tempfile.TemporaryDirectory(prefix='irmetrics-') as directory:
            return [evaluate(run_of(t)) for t in spilled(tables(), buckets, directory)]
