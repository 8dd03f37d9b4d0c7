"""Forcing the input path of small inputs: the ``layout`` fixture (conftest.py), the property tests and
the fuzzing harnesses run irmetrics' readers through both.

``python``: small TREC files split by Python's string methods, ids in numpy object arrays (what small
inputs take anyway).  ``arrow``: Arrow's CSV reader and Arrow string ids, with their own duplicate
detection and tie ordering (the path of inputs above the size thresholds).
"""
import contextlib
from collections.abc import Iterator

from irmetrics.data import ids
from irmetrics.data.trec import reader as trec_reader

PATHS = ('python', 'arrow')


@contextlib.contextmanager
def forced(path: str) -> Iterator[str]:
    """Within the block, every input takes ``path`` (one of :data:`PATHS`)."""
    saved = trec_reader.SMALL_FILE, ids.ARROW_MIN_ROWS
    if path == 'arrow':
        trec_reader.SMALL_FILE, ids.ARROW_MIN_ROWS = -1, 0
    try:
        yield path
    finally:
        trec_reader.SMALL_FILE, ids.ARROW_MIN_ROWS = saved
