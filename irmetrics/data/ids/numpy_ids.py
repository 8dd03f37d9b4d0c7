"""Ids as a numpy array of Python strings: the layout of small columns (nothing heavy to import)."""
from __future__ import annotations

import itertools
import operator
from typing import Any, cast

import numpy as np

from .base import Ids, fingerprint_bytes, first_seen_codes, id_texts


class NumpyIds(Ids):
    """Ids held in a numpy object array of ``str``."""

    layout = 'numpy'
    rank = 0

    def __init__(self, values: np.ndarray):
        self.values = values

    @classmethod
    def from_values(cls, values: Any) -> NumpyIds:
        """From strings or numbers (numbers become their text; see :func:`.base.id_text`)."""
        items = values.tolist() if isinstance(values, np.ndarray) else list(values)
        out = np.empty(len(items), dtype=object)
        out[:] = id_texts(items)
        return cls(out)

    @classmethod
    def adopt(cls, other: Ids) -> NumpyIds:
        return other if isinstance(other, NumpyIds) else cls.from_values(other.to_list())

    def __len__(self) -> int:
        return len(self.values)

    def to_list(self) -> list[str]:
        return cast('list[str]', self.values.tolist())

    def take(self, indices: np.ndarray) -> NumpyIds:
        return NumpyIds(self.values[np.asarray(indices, dtype=np.int64)])

    def encode(self) -> tuple[NumpyIds, np.ndarray]:
        distinct, codes = first_seen_codes(self.values.tolist(), np.int32)
        return NumpyIds.from_values(distinct), codes

    def fingerprint(self) -> np.ndarray:
        encoded = [v.encode('utf-8') for v in self.values.tolist()]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        offsets = np.concatenate(([0], np.cumsum(lengths)))
        return fingerprint_bytes(np.frombuffer(b''.join(encoded), dtype=np.uint8), offsets)

    def order_within_groups(self, groups: np.ndarray) -> np.ndarray:
        keys = self.values.tolist()
        by_id = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
        return np.asarray(sorted(by_id, key=groups.__getitem__), dtype=np.int64)

    def run_starts(self) -> np.ndarray:
        if len(self.values) == 0:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.concatenate(([True], self.values[1:] != self.values[:-1]))).astype(np.int64)

    def _lookup(self, vocabulary: NumpyIds) -> np.ndarray:
        index = {v: i for i, v in enumerate(vocabulary.to_list())}
        return np.fromiter(map(index.get, self.values.tolist(), itertools.repeat(-1)), dtype=np.int64, count=len(self))

    def _equal(self, other: NumpyIds) -> np.ndarray:
        return np.asarray(self.values == other.values, dtype=bool)

    def _less(self, other: NumpyIds) -> np.ndarray:
        return np.fromiter(map(operator.lt, self.values.tolist(), other.to_list()), dtype=bool, count=len(self))

