"""Runs larger than a memory budget (:mod:`.budget`): what an evaluation reads a run for, a run file's
expected footprint, and a run in parts of complete queries.

A run file whose footprint passes the budget, and a compressed run file whose text turns out to pass it
once decompressed, is evaluated in chunks of complete queries (:func:`query_chunks`, built on
:mod:`.chunks`), each about a quarter of the budget: streamed when the run is grouped by query,
otherwise split by query hash into temporary Parquet files first.  The parts come as
:class:`RunParts`, which the evaluation iterates and evaluates part by part: nothing here calls it back.
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from ..errors import InputError
from .budget import ROW_FOOTPRINT, TEXT_FOOTPRINT, size_text
from .locate import RowLocator
from .paths import compression_of
from .run import Run
from .signals import ended_by_signals

#: a compressed TREC file's text is taken to be this many times its size (gzip's runs: 4-6)
COMPRESSED_TEXT = 8
#: a chunk's share of the budget (the rest: the qrels, the results, the carried-over query)
CHUNK_SHARE = 0.25
#: the rows of one query read in chunks may take a chunk, or this many bytes if more (64 MiB: a budget
#: of a few KB still evaluates queries of thousands of rows); beyond, the query is an error
QUERY_FLOOR = 1 << 26
#: chunks smaller than this (those of a budget below 4 MiB) cost more to read and evaluate, each on its own
#: (milliseconds), than what they hold: a run is cut into at most :data:`MAX_SMALL_CHUNKS` of them, and a
#: budget that would cut it into more (``--memory-limit 1k`` on 300 MB: millions) is refused at once, naming
#: the budget that would do
SMALL_CHUNK = 1 << 20
MAX_SMALL_CHUNKS = 1024


class Reading(NamedTuple):
    """What an evaluation reads a run for: the terms every input kind reads it on.

    ``budget``: the bytes the evaluation may hold (:func:`.budget.memory_budget`); ``duplicates``: the
    policy for a document retrieved twice; ``depth``: how deep rankings given as arrays are ranked (None:
    whole); ``table_rows``: the rows of a block of a large Arrow table or polars DataFrame; ``whole``:
    the measures need the whole run at once (measures of a whole run), so that no run is cut into parts
    where it can be held whole (runs given as arrays are evaluated in blocks of users all the same: those
    measures read each block's top ranking); ``judgments``: the qrels it is evaluated against (a run given as arrays
    must fit a judgments matrix); ``exclude``: the cells of a run given as arrays that no ranking holds
    (:class:`.arrays.Exclusions`)."""

    budget: int
    duplicates: str = 'error'
    depth: int | None = None
    table_rows: int = 1 << 20
    whole: bool = False
    judgments: Any = None
    exclude: Any = None


class RunParts:
    """A run as parts that each hold complete queries (every row of each of their queries): :class:`Run`\\ s,
    or a run given as arrays (:class:`.arrays.ArrayRun`), which the evaluation ranks block by block of users.

    Iterating (once) gives *passes*, each an iterator of parts; the parts of the last pass are the run's.  Nearly
    every run has one pass.  A run file streamed in the order of its rows gives a second pass when, part
    way, it turns out not to be grouped by query: the first pass then stops, and the second gives every
    query again, split by query hash (so an evaluation keeps only the values of the last pass).  Close it
    (or use it as a context manager) to end a pass left unfinished: temporary files are removed then.
    ``source`` names the run in messages.
    """

    def __init__(self, source: str, passes: Iterable[Iterable[Any]]):
        self.source = source
        self._passes = iter(passes)

    def __iter__(self) -> Iterator[Iterable[Any]]:
        return self._passes

    def close(self) -> None:
        close = getattr(self._passes, 'close', None)
        if close is not None:
            close()

    def __enter__(self) -> RunParts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f'<RunParts of {self.source}>'


def text_footprint(path: str) -> int:
    """Expected peak bytes of evaluating a TREC run file in memory (0 for a path that is no file); a
    compressed file's text is taken to be :data:`COMPRESSED_TEXT` times its size."""
    if not os.path.isfile(path):
        return 0
    compressed = compression_of(path) is not None
    return int(os.path.getsize(path) * TEXT_FOOTPRINT * (COMPRESSED_TEXT if compressed else 1))


def parquet_footprint(path: str) -> int:
    """Expected peak bytes of evaluating a Parquet run (a file or a directory) in memory."""
    from .parquet import run_rows
    return run_rows(path) * ROW_FOOTPRINT


def query_chunks(source: str | os.PathLike[str], budget: int, duplicates: str, parquet: bool,
                 footprint: int) -> RunParts:
    """A run file (TREC text, plain or compressed, or ``parquet``) as :class:`RunParts` of chunks of
    complete queries of about a quarter of ``budget`` each (see the module docstring); rows keep their
    file order, so ``duplicates`` resolves as for the whole run.  ``footprint``: the run's expected
    footprint in memory, which sets how many files a run not grouped by query is split into."""
    path = os.fspath(source)
    chunk = max(int(budget * CHUNK_SHARE), 1)
    if chunk < SMALL_CHUNK and footprint > MAX_SMALL_CHUNKS * chunk:
        least = min(math.ceil(footprint / MAX_SMALL_CHUNKS / CHUNK_SHARE), int(SMALL_CHUNK / CHUNK_SHARE))
        raise InputError(too_small(budget, f'this run (about {size_text(footprint)} to evaluate)', size_text(least)),
                         path)
    return RunParts(path, _passes(path, chunk, duplicates, parquet, footprint))


def too_small(budget: int, what: str, least: str) -> str:
    """The message refusing a budget that cuts ``what`` into too many small chunks."""
    return (f'a memory limit of {size_text(budget)} cuts {what} into more than {MAX_SMALL_CHUNKS:,} chunks of less '
            f'than {size_text(SMALL_CHUNK)}, each read and evaluated on its own: give a memory limit of {least} or '
            f'more')


def _passes(path: str, chunk: int, duplicates: str, parquet: bool, footprint: int) -> Iterator[Iterator[Run]]:
    """The passes of :func:`query_chunks`: the file streamed; if it is not grouped by query, spilled."""
    from .chunks import NotGrouped, aligned, run_tables, spilled
    from .tables import run_from_table

    def tables() -> Iterator[Any]:
        for count, table in enumerate(run_tables(path, parquet, max(chunk // ROW_FOOTPRINT, 1),
                                                 max(int(chunk / TEXT_FOOTPRINT), 1))):
            if chunk < SMALL_CHUNK and count == 2 * MAX_SMALL_CHUNKS:   # compressed text its file underestimated
                raise InputError(too_small(int(chunk / CHUNK_SHARE), 'this run\'s text',
                                           size_text(int(SMALL_CHUNK / CHUNK_SHARE))), path)
            yield table

    def run_of(table: Any) -> Run:
        positions = table.column('position').to_numpy()
        where = RowLocator(path, items=positions, part=True) if parquet else RowLocator(path, positions, part=True)
        return run_from_table(table, 'run', path, duplicates, where=where)

    grouped = [True]

    def streamed() -> Iterator[Run]:
        try:
            for table in aligned(tables(), path, max(chunk, QUERY_FLOOR)):
                yield run_of(table)
        except NotGrouped:
            grouped[0] = False                  # this pass stops here; the next one gives every query again

    yield from _closed_after(streamed())
    if grouped[0]:
        return
    buckets = max(2, 2 * -(-footprint // chunk))
    import tempfile  # only a run spilled by query hash needs it: not at import
    with ended_by_signals(), tempfile.TemporaryDirectory(prefix='irmetrics-') as directory:
        yield from _closed_after(run_of(table) for table in spilled(tables(), buckets, directory))


def _closed_after(one_pass: Iterator[Run]) -> Iterator[Iterator[Run]]:
    """``one_pass`` as the single pass of a generator of passes, closed when that generator is (so that a
    pass left unfinished releases what it holds at once)."""
    try:
        yield one_pass
    finally:
        close: Callable[[], None] | None = getattr(one_pass, 'close', None)
        if close is not None:
            close()
