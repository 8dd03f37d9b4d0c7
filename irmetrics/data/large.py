"""Runs larger than a memory budget (:mod:`.budget`): a run file's expected footprint, and its chunks.

A run file whose footprint passes the budget, and every compressed run file (its text's size is
known only once decompressed), is evaluated in chunks of complete queries
(:mod:`.chunks`), each about a quarter of the budget: streamed when the run is grouped by query,
otherwise first split by query hash into temporary Parquet files.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .budget import ROW_FOOTPRINT, TEXT_FOOTPRINT
from .locate import RowLocator
from .run import Run
from .trec.reader import is_text

#: a compressed TREC file's text is taken to be this many times its size (gzip's runs: 4-6)
COMPRESSED_TEXT = 8
#: a chunk's share of the budget (the rest: the qrels, the results, the carried-over query)
CHUNK_SHARE = 0.25
#: the rows of one query read in chunks may take a chunk, or this many bytes if more (64 MiB: a budget
#: of a few KB still evaluates queries of thousands of rows); beyond, the query is an error
QUERY_FLOOR = 1 << 26

T = TypeVar('T')


def footprint(source: Any) -> int:
    """Expected peak bytes of evaluating a run file in memory (0 for raw text, bytes and unknown paths)."""
    from .inputs import is_parquet
    if isinstance(source, bytes) or is_text(source):
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
        return [evaluate(run_of(t)) for t in aligned(tables(), path, max(chunk, QUERY_FLOOR))]
    except NotGrouped:
        buckets = max(2, 2 * -(-footprint(path) // chunk))
        import tempfile  # only a run spilled by query hash needs it: not at import
        with ended_by_signals(), tempfile.TemporaryDirectory(prefix='irmetrics-') as directory:
            return [evaluate(run_of(t)) for t in spilled(tables(), buckets, directory)]


@contextlib.contextmanager
def ended_by_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP end the program by raising SystemExit (status 128 + the
    signal's number, as a shell reports a killed program), so that what the block opened is cleaned up
    (the spill directory); SIGINT already raises KeyboardInterrupt.  Only in the main thread, and only
    for a signal whose handler is the default one (an application's own handler is left alone)."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)
    saved = {}
    for number in (signal.SIGTERM, getattr(signal, 'SIGHUP', None)):
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            saved[number] = signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
