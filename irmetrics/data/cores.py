"""Numpy work spread over the machine's cores: independent blocks of rows in one thread pool.

Numpy and Arrow release the interpreter's lock inside their loops, so blocks of a large array sorted or
ranked in threads run on every core the process may use (``os.sched_getaffinity``: a container's or
``taskset``'s limit, not the machine's count).  The pool is made once and kept.  Only work done in a few
long numpy calls gains: where a block is many short calls (hashing a block of 8,192 ids), the threads
wait on each other for the interpreter's lock, and one thread is faster.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

T = TypeVar('T')


def core_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not Linux
        return os.cpu_count() or 1


@functools.lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    from concurrent.futures import ThreadPoolExecutor  # with logging, 5 ms of every start: only when used
    return ThreadPoolExecutor(core_count(), thread_name_prefix='irmetrics')


def each_block(work: Callable[[int], T], starts: Sequence[int]) -> list[T]:
    """``work(start)`` for every block start, in threads when there are several blocks and cores; the
    results in the order of ``starts`` (a block's exception is raised here)."""
    if len(starts) <= 1 or core_count() == 1:
        return [work(start) for start in starts]
    return list(_pool().map(work, starts))
