"""Finding ids in a fixed vocabulary by fingerprint: built once, each lookup costs O(k) for k ids.

:meth:`Ids.lookup` builds a hash table of the whole vocabulary at every call; an evaluator that
looks up the queries of many small parts of a run (chunks, partitions) in the qrels' million
queries keeps an :class:`IdIndex` instead.  :class:`KeyTable` finds 64-bit keys (fingerprints, or
fingerprints of tuples) in one step.
"""
from __future__ import annotations

import numpy as np

from .base import Ids

#: slots of a :class:`KeyTable` per key, at least (the table's size is a power of two): about one key in
#: eight shares its slot with another
_SLOTS_A_KEY = 4
#: the most slots a table has (of 4 bytes each: 64 MiB); beyond, more keys share slots
_MOST_SLOTS = 1 << 24


def slotted(keys: np.ndarray, slots_a_key: int, most: int = _MOST_SLOTS) -> tuple[np.uint64, np.ndarray, np.ndarray]:
    """A table of slots for 64-bit hash keys, indexed by their low bits: its mask (the slots less one, a power
    of two at least ``slots_a_key`` times the keys, at most ``most``), each key's slot, and whether each key
    is alone in its slot (one ``np.bincount``, no sort)."""
    slots = min(1 << max(int(slots_a_key * len(keys) - 1).bit_length(), 1), most)
    mask = np.uint64(slots - 1)
    slot = (keys & mask).view(np.int64)
    return mask, slot, np.bincount(slot, minlength=slots)[slot] == 1


class KeyTable:
    """The positions of distinct 64-bit keys, found in one step each.

    A table indexed by some bits of a key (the keys are hashes: any bits will do) holds the position of
    the one key with those bits; the few keys that share their bits with another are found in a sorted
    copy of them.  ``distinct`` says whether the keys are distinct (where they are not, :meth:`find`
    gives one of the equal keys' positions).
    """

    def __init__(self, keys: np.ndarray):
        self.keys = keys
        self.mask, slot, alone = slotted(keys, _SLOTS_A_KEY)
        self.table = np.full(int(self.mask) + 1, -1, dtype=np.int32 if len(keys) < 2 ** 31 else np.int64)
        self.table[slot[alone]] = np.flatnonzero(alone)
        shared = np.flatnonzero(~alone)
        self.table[slot[shared]] = -2
        by_key = np.argsort(keys[shared])
        self.shared_keys, self.shared_at = keys[shared][by_key], shared[by_key]
        self.distinct = not np.any(self.shared_keys[1:] == self.shared_keys[:-1])

    def find(self, wanted: np.ndarray) -> np.ndarray:
        """The position (int64) of each of ``wanted`` among the keys, -1 where absent."""
        at = self.table[(wanted & self.mask).view(np.int64)].astype(np.int64)
        out = np.full(len(wanted), -1, dtype=np.int64)
        alone = np.flatnonzero(at >= 0)
        same = self.keys[at[alone]] == wanted[alone]
        out[alone[same]] = at[alone[same]]
        shared = np.flatnonzero(at == -2)
        if len(shared):
            near = np.minimum(np.searchsorted(self.shared_keys, wanted[shared]), len(self.shared_keys) - 1)
            same = self.shared_keys[near] == wanted[shared]
            out[shared[same]] = self.shared_at[near[same]]
        return out


class IdIndex:
    """The positions of a vocabulary's ids (distinct ids), found by their fingerprints."""

    def __init__(self, vocabulary: Ids, fingerprints: np.ndarray | None = None):
        """``fingerprints``: the vocabulary's :meth:`Ids.fingerprint`, where the caller has them already."""
        self.vocabulary = vocabulary
        self.table = KeyTable(vocabulary.fingerprint() if fingerprints is None else fingerprints)

    def lookup(self, values: Ids, fingerprints: np.ndarray | None = None) -> np.ndarray:
        """Index (int64) of each of ``values`` in the vocabulary, -1 where absent (``fingerprints``: the
        values' own, where the caller has them already)."""
        if not self.table.distinct or len(self.vocabulary) == 0:      # two ids share a fingerprint: compare them all
            return values.lookup(self.vocabulary)
        found = self.table.find(values.fingerprint() if fingerprints is None else fingerprints)
        rows = np.flatnonzero(found >= 0)
        same = values.take(rows).equal(self.vocabulary.take(found[rows]))      # a fingerprint match is confirmed
        out = np.full(len(values), -1, dtype=np.int64)
        out[rows[same]] = found[rows[same]]
        return out
