"""The memory budget: how many bytes a reader and an evaluation may hold, and sizes written as text.

The budget is ``--memory-limit`` / ``memory_limit`` or, by default, :data:`DEFAULT_SHARE` of the
memory the process may use (the machine's, or a ``ulimit`` or container limit).  Evaluating a run
in memory takes about :data:`TEXT_FOOTPRINT` times the size of its TREC text, or
:data:`ROW_FOOTPRINT` bytes a row (of a Parquet run, or of a text of short lines; measured by
``benchmarks/bench_scale.py``): what a compressed file may decompress to in memory (:func:`fits`).
"""
from __future__ import annotations

import contextlib
import math
import numbers
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar

from ..constraints import MAX_INTEGER, shown
from ..errors import InputError, OptionError

#: peak bytes of evaluating a run in memory, per byte of its TREC text / per row of a Parquet run
TEXT_FOOTPRINT = 3.0
ROW_FOOTPRINT = 120
#: the default budget: this share of the machine's memory
DEFAULT_SHARE = 0.5
_UNITS = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}


def memory_budget(limit: int | str | None) -> int:
    """Bytes of a memory limit (see :func:`parse_size`); None: :data:`DEFAULT_SHARE` of the memory this
    process may use (:func:`available_memory`)."""
    if limit is None:
        return int(DEFAULT_SHARE * available_memory())
    return parse_size(limit, 'memory limit')


def available_memory() -> int:
    """The memory this process may use: the machine's, or less where a limit says so (the address-space
    and data limits of ``ulimit -v`` / ``-d``, a cgroup's ``memory.max`` as containers set it)."""
    limits = [physical_memory()]
    try:
        import resource
        for kind in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
            soft = resource.getrlimit(kind)[0]
            if soft != resource.RLIM_INFINITY and soft > 0:
                limits.append(soft)
    except (ImportError, AttributeError, ValueError, OSError):
        pass
    try:
        with open('/sys/fs/cgroup/memory.max') as f:
            text = f.read().strip()
        if text.isdigit():
            limits.append(int(text))
    except OSError:
        pass
    return min(limits)


def parse_size(size: int | str, what: str) -> int:
    """Bytes of a size: a number, or text such as ``'512M'``, ``'4G'``, ``'1.5GiB'`` (powers of 1024), from 1 to
    :data:`~irmetrics.constraints.MAX_INTEGER` (8 EiB); else an :class:`~irmetrics.errors.OptionError`."""
    given = size
    if isinstance(size, str):
        match = re.fullmatch(r'\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)(?:i?b)?\s*', size.lower())
        if not match:
            raise OptionError(f'{what} {size[:40]!r} is not a size (such as 512M, 4G or 1.5GiB)')
        number = float(match.group(1)) * _UNITS[match.group(2)]
        size = int(number) if number < MAX_INTEGER else MAX_INTEGER + 1
    if isinstance(size, bool) or not isinstance(size, numbers.Integral):
        raise OptionError(f'{what} {given!r} is not a size (a number of bytes, or text such as 512M, 4G or 1.5GiB)')
    if size <= 0:
        raise OptionError(f'{what} {shown(given)} must be positive')
    if size > MAX_INTEGER:
        raise OptionError(f'{what} {shown(given)} is too large: at most 2**63 - 1 bytes (8 EiB)')
    return int(size)


def size_text(size: int) -> str:
    """A size as :func:`parse_size` reads it, rounded up to one decimal of its unit (``7340032`` -> ``'7M'``)."""
    for letter in 'TGMK':
        unit = _UNITS[letter.lower()]
        if size >= unit:
            return f'{math.ceil(size * 10 / unit) / 10:g}{letter}'
    return str(size)


def physical_memory() -> int:
    """The machine's memory in bytes (a large number where the system does not say)."""
    try:
        return os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES')
    except (AttributeError, ValueError, OSError):
        return 1 << 50


class TextOverBudget(InputError):
    """A compressed file whose text takes more than the budget to evaluate (:func:`fits`): read it in
    chunks instead."""


_BUDGET: ContextVar[int | None] = ContextVar('irmetrics_budget', default=None)


@contextlib.contextmanager
def reading_within(budget: int) -> Iterator[None]:
    """Within the block, a compressed file is decompressed into memory only while its text :func:`fits`
    ``budget`` (the evaluation's budget; elsewhere the default one)."""
    token = _BUDGET.set(budget)
    try:
        yield
    finally:
        _BUDGET.reset(token)


def fits(text_bytes: int, lines: int) -> bool:
    """Whether evaluating TREC text of ``text_bytes`` bytes and ``lines`` lines in memory stays within the
    budget here (see :func:`reading_within`): the larger of :data:`TEXT_FOOTPRINT` a byte and
    :data:`ROW_FOOTPRINT` a line (short lines cost by the row)."""
    budget = _BUDGET.get()
    return max(text_bytes * TEXT_FOOTPRINT, lines * ROW_FOOTPRINT) <= (memory_budget(None) if budget is None
                                                                         else budget)
