"""Finding ids in a fixed vocabulary by fingerprint: built once, each lookup costs O(k log n) for k ids.

:meth:`Ids.lookup` builds a hash table of the whole vocabulary at every call; an evaluator that
looks up the queries of many small parts of a run (chunks, partitions) in the qrels' million
queries keeps an :class:`IdIndex` instead.
"""
from __future__ import annotations

import numpy as np

from .base import Ids


class IdIndex:
    """The positions of a vocabulary's ids (distinct ids), found by their fingerprints."""

    def __init__(self, vocabulary: Ids, fingerprints: np.ndarray | None = None):
        """``fingerprints``: the vocabulary's :meth:`Ids.fingerprint`, where the caller has them already."""
        self.vocabulary = vocabulary
        fingerprints = vocabulary.fingerprint() if fingerprints is None else fingerprints
        self.order = np.argsort(fingerprints)               # equal fingerprints fall back to comparing ids
        self.sorted = fingerprints[self.order]
        self.collides = bool(np.any(self.sorted[1:] == self.sorted[:-1]))

    def lookup(self, values: Ids, fingerprints: np.ndarray | None = None) -> np.ndarray:
        """Index (int64) of each of ``values`` in the vocabulary, -1 where absent (``fingerprints``: the
        values' own, where the caller has them already)."""
        if self.collides or len(self.sorted) == 0:          # two ids share a fingerprint: compare them all
            return values.lookup(self.vocabulary)
        fingerprints = values.fingerprint() if fingerprints is None else fingerprints
        at = np.minimum(search_sorted(self.sorted, fingerprints), len(self.sorted) - 1)
        rows = np.flatnonzero(self.sorted[at] == fingerprints)
        found = self.order[at[rows]].astype(np.int64)
        same = values.take(rows).equal(self.vocabulary.take(found))      # a fingerprint match is confirmed
        out = np.full(len(values), -1, dtype=np.int64)
        out[rows[same]] = found[same]
        return out


#: a vocabulary this large no longer fits a core's cache: a search for each of many ids in random order
#: then waits on memory at every step, and sorting the ids first (searches that walk it in order) is faster
_UNCACHED = 1 << 17
_MANY = 1 << 12


def search_sorted(ordered: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``np.searchsorted(ordered, values)``, for many values in a large ``ordered`` searched in sorted order."""
    if len(ordered) < _UNCACHED or len(values) < _MANY:
        return np.searchsorted(ordered, values)
    by = np.argsort(values)
    out = np.empty(len(values), dtype=np.intp)
    out[by] = np.searchsorted(ordered, values[by])
    return out
