"""Ids as an Arrow string array: the layout of large columns (compact; hashed, looked up and sorted in C)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrow_arrays import arrow_array, booleans, combine, numbers, string_bytes, take
from .base import EMPTY, MISSING, IdError, Ids, fingerprint_bytes, id_texts
from .int_ids import IntIds


class ArrowIds(Ids):
    """Ids held in one Arrow array of strings: ``string``, ``large_string`` (past 2 GiB of text), or a
    dictionary of strings (as the reader gives query ids: :meth:`encode` then costs nothing)."""

    layout = 'arrow'
    rank = 1

    def __init__(self, values: pa.Array):
        self.values = values

    @classmethod
    def of(cls, values: pa.Array | pa.ChunkedArray) -> ArrowIds:
        """From an Arrow array of ids: strings and integers are converted in Arrow, other values (floats,
        bytes, ...) by the rule of both string layouts, :func:`.base.id_text`."""
        if isinstance(values, pa.ChunkedArray):
            if pa.types.is_dictionary(values.type) and values.num_chunks > 1:
                values = pa.table({'v': values}).unify_dictionaries().column('v')
            values = combine(values)
        if values.null_count:
            raise IdError(MISSING, int(pc.index(pc.is_null(values), True).as_py()))
        if pa.types.is_dictionary(values.type):
            if pa.types.is_string(values.type.value_type) and not _has_empty(values.dictionary):
                return cls(values)
            values = values.cast(values.type.value_type)
        if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
            if _has_empty(values):
                raise IdError(EMPTY, int(pc.index(pc.equal(pc.binary_length(values), 0), True).as_py()))
            return cls(values)
        if pa.types.is_integer(values.type):
            return cls(values.cast(pa.string()))
        return cls.from_strings(id_texts(values.to_pylist()))

    @classmethod
    def from_values(cls, values: Any) -> ArrowIds:
        """From a numpy array or sequence of ids (see :meth:`of`).  A numpy array in the other byte order
        (``'>i8'`` on a little-endian machine: data written on another) is brought to this machine's
        first: Arrow refuses byte-swapped arrays."""
        if isinstance(values, list) and all(type(v) is str for v in values):
            return cls.from_strings(id_texts(values))   # what the TREC readers give: no pandas import
        if isinstance(values, np.ndarray) and not values.dtype.isnative:
            values = values.astype(values.dtype.newbyteorder('='))
        try:
            arr = pa.array(values, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):    # mixed types, lone surrogates
            return cls.from_strings(id_texts(list(values)))
        return cls.of(arr)

    @classmethod
    def from_strings(cls, items: list[str]) -> ArrowIds:
        """From Python strings, built from the buffers (``pa.array`` would import pandas)."""
        encoded = [item.encode('utf-8') for item in items]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        offsets = np.concatenate(([0], np.cumsum(lengths)))
        kind, off_type = (pa.string(), np.int32) if offsets[-1] < 2 ** 31 else (pa.large_string(), np.int64)
        return cls(pa.Array.from_buffers(kind, len(items), [None, pa.py_buffer(offsets.astype(off_type)),
                                                            pa.py_buffer(b''.join(encoded))]))

    @classmethod
    def concatenated(cls, columns: Sequence[Ids]) -> ArrowIds:
        """The ids of ``columns`` (any layouts) one after another, as one Arrow array of strings."""
        parts = [pa.array(c.values).cast(pa.string()) if isinstance(c, IntIds) else cls.adopt(c)._plain()
                 for c in columns]
        if len({part.type for part in parts}) > 1:          # string beside large_string (past 2 GiB of text)
            parts = [part.cast(pa.large_string()) for part in parts]
        return cls(pa.concat_arrays(parts) if parts else pa.array([], pa.string()))

    @classmethod
    def adopt(cls, other: Ids) -> ArrowIds:
        return other if isinstance(other, ArrowIds) else cls.from_strings(other.to_list())

    def __len__(self) -> int:
        return len(self.values)

    def to_list(self) -> list[str]:
        return cast('list[str]', self.values.to_pylist())

    def take(self, indices: np.ndarray) -> ArrowIds:
        return ArrowIds(take(self.values, indices))

    def encode(self) -> tuple[ArrowIds, np.ndarray]:
        values = self.values
        if pa.types.is_dictionary(values.type):
            codes = numbers(values.indices).astype(np.int32, copy=False)
            used = np.bincount(codes, minlength=len(values.dictionary)) > 0
            if used.all():                                   # the reader's dictionary: nothing to do
                return ArrowIds(values.dictionary), codes
            values = values.cast(values.type.value_type)
        elif _in_long_runs(values.slice(0, _PROBE)):      # the column may be grouped by id: its runs are counted
            starts = self.run_starts()
            if 4 * len(starts) <= len(values):              # long runs of one id, as a run grouped by query has
                heads = pc.dictionary_encode(take(values, starts))
                if len(heads.dictionary) == len(starts):    # each id in one run: its code is its run's
                    sizes = np.diff(np.append(starts, len(values)))
                    return ArrowIds(heads.dictionary), np.repeat(np.arange(len(starts), dtype=np.int32), sizes)
        encoded = pc.dictionary_encode(values)
        return ArrowIds(encoded.dictionary), numbers(encoded.indices).astype(np.int32, copy=False)

    def fingerprint(self) -> np.ndarray:
        values = self.values
        if pa.types.is_dictionary(values.type):
            return cast(np.ndarray, ArrowIds(values.dictionary).fingerprint()[numbers(values.indices)])
        if len(values) == 0:
            return np.zeros(0, dtype=np.uint64)
        return fingerprint_bytes(*string_bytes(values))

    def order_within_groups(self, groups: np.ndarray) -> np.ndarray:
        table = pa.table({'g': arrow_array(np.asarray(groups, dtype=np.int64)), 'd': self._plain()})
        return numbers(pc.sort_indices(table, sort_keys=[('g', 'ascending'), ('d', 'descending')])).astype(np.int64)

    def run_starts(self) -> np.ndarray:
        n = len(self.values)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        plain = self._plain()
        differs = booleans(pc.not_equal(plain.slice(1), plain.slice(0, n - 1)))
        return np.flatnonzero(np.concatenate(([True], differs))).astype(np.int64)

    def _lookup(self, vocabulary: ArrowIds) -> np.ndarray:
        values, vocab = self._plain(), vocabulary._plain()
        if vocab.type != values.type:          # string vs large_string (ids past 2 GiB)
            vocab = vocab.cast(values.type)
        idx = pc.index_in(values, value_set=vocab)
        out = numbers(idx).astype(np.int64)
        if idx.null_count:
            out[~booleans(pc.is_valid(idx))] = -1
        return out

    def _equal(self, other: ArrowIds) -> np.ndarray:
        return booleans(pc.equal(self._plain(), other._plain()))

    def _less(self, other: ArrowIds) -> np.ndarray:
        return booleans(pc.less(self._plain(), other._plain()))

    def _plain(self) -> pa.Array:
        """The strings without a dictionary (comparisons need matching types)."""
        values = self.values
        return values.cast(values.type.value_type) if pa.types.is_dictionary(values.type) else values


#: the ids at the head of a column whose runs tell whether the whole column may be grouped by id (a run's query
#: ids) and is worth counting runs of; a column of ids not grouped (a run's documents) then goes straight to
#: dictionary_encode (counting the runs of 7M document ids cost a third of their encoding:
#: benchmarks/bench_structures.py)
_PROBE = 1 << 16


def _in_long_runs(strings: pa.Array) -> bool:
    """Whether ``strings`` (no dictionary) come in runs of one id 4 long or longer, on average."""
    return 4 * len(ArrowIds(strings).run_starts()) <= len(strings)


def _has_empty(strings: pa.Array) -> bool:
    return len(strings) > 0 and pc.min(pc.binary_length(strings)).as_py() == 0
