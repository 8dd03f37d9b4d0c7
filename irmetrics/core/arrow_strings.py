"""Vectorised helpers over Arrow string arrays (ids of queries and documents).

Ids stay in Arrow's compact string layout; these helpers give what the core
needs from them without a Python loop: fingerprints, integer codes in a
vocabulary, lookups, takes and byte-wise ordering.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .ids import fingerprint_bytes


def as_string_array(values) -> pa.Array:
    """A single-chunk array of strings: ``string``, ``large_string``, or a dictionary of strings
    (as the reader gives query ids; :func:`encode` then costs nothing)."""
    if isinstance(values, pa.ChunkedArray):
        if pa.types.is_dictionary(values.type) and values.num_chunks > 1:
            values = pa.table({'v': values}).unify_dictionaries().column('v')
        values = combine(values)
    if pa.types.is_dictionary(values.type):
        if pa.types.is_string(values.type.value_type):
            return values
        values = values.cast(values.type.value_type)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        values = values.cast(pa.string())
    return values


def combine(values: pa.ChunkedArray) -> pa.Array:
    """One array of a chunked one; strings go to 64-bit offsets when their bytes pass 2 GiB."""
    if values.num_chunks == 1:
        return values.chunk(0)
    if pa.types.is_string(values.type) and sum(c.nbytes for c in values.chunks) >= 2 ** 31 - 1:
        values = values.cast(pa.large_string())
    return values.combine_chunks()


def from_strings(items: list[str]) -> pa.Array:
    """A string array from Python strings, built from its buffers (``pa.array`` would import pandas)."""
    encoded = [item.encode('utf-8') for item in items]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    kind, off_type = (pa.string(), np.int32) if offsets[-1] < 2 ** 31 else (pa.large_string(), np.int64)
    return pa.Array.from_buffers(kind, len(items), [None, pa.py_buffer(offsets.astype(off_type)),
                                                    pa.py_buffer(b''.join(encoded))])


def from_values(values) -> pa.Array:
    """A string array from a numpy array or sequence of ids (numbers become their text; no nulls)."""
    from .errors import InputError
    try:
        arr = pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        arr = pa.array([str(v) for v in values], pa.string())
    if arr.null_count:
        raise InputError('ids must not be missing (None/NaN)')
    if pa.types.is_floating(arr.type) and pc.all(pc.equal(arr, pc.floor(arr))).as_py():
        arr = arr.cast(pa.int64())              # 301.0 -> '301'
    return as_string_array(arr)


def fingerprint(values) -> np.ndarray:
    """:func:`irmetrics.core.ids.fingerprint_bytes` of each string, read from the Arrow buffers."""
    values = as_string_array(values)
    if pa.types.is_dictionary(values.type):
        return fingerprint(values.dictionary)[numbers(values.indices)]
    n = len(values)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    off_type = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(values.buffers()[1], dtype=off_type, count=n + 1,
                            offset=values.offset * np.dtype(off_type).itemsize).astype(np.int64)
    data_buf = values.buffers()[2]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    return fingerprint_bytes(data, offsets)


def encode(values: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """(vocabulary in order of first appearance, int32 code per value)."""
    if pa.types.is_dictionary(values.type):
        codes = numbers(values.indices).astype(np.int32, copy=False)
        used = np.bincount(codes, minlength=len(values.dictionary)) > 0
        if used.all():                                   # the reader's dictionary: nothing to do
            return values.dictionary, codes
        values = values.cast(values.type.value_type)
    enc = pc.dictionary_encode(values)
    if isinstance(enc, pa.ChunkedArray):
        enc = enc.combine_chunks()
    return enc.dictionary, numbers(enc.indices).astype(np.int32, copy=False)


def lookup(values: pa.Array, vocabulary: pa.Array) -> np.ndarray:
    """Index of each value in ``vocabulary`` (int64), -1 where absent."""
    if vocabulary.type != values.type:          # string vs large_string (ids past 2 GiB)
        vocabulary = vocabulary.cast(values.type)
    idx = pc.index_in(values, value_set=vocabulary)
    chunks = idx.chunks if isinstance(idx, pa.ChunkedArray) else [idx]
    parts = [numbers(c).astype(np.int64) for c in chunks]
    for c, part in zip(chunks, parts):
        if c.null_count:
            bits = np.unpackbits(np.frombuffer(c.buffers()[0], dtype=np.uint8), bitorder='little')
            part[bits[c.offset:c.offset + len(c)] == 0] = -1
    return np.concatenate(parts) if len(parts) != 1 else parts[0]


def arrow_array(values: np.ndarray) -> pa.Array:
    """A zero-copy Arrow view of a numeric numpy array (``pa.array`` would import pandas)."""
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def take(values: pa.Array, indices: np.ndarray) -> pa.Array:
    """``values[indices]`` for an Arrow array and numpy integer indices."""
    return values.take(arrow_array(np.asarray(indices, dtype=np.int64)))


def numbers(values) -> np.ndarray:
    """A numpy view (or one concatenation) of a null-free numeric Arrow array or chunked array.

    Unlike ``to_numpy(zero_copy_only=False)`` this never imports pandas.
    """
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    dtype = np.dtype(values.type.to_pandas_dtype())
    parts = [np.frombuffer(c.buffers()[1], dtype=dtype, count=len(c), offset=c.offset * dtype.itemsize)
             for c in chunks if len(c)]
    if not parts:
        return np.zeros(0, dtype=dtype)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def order_within_groups(values: pa.Array, groups: np.ndarray) -> np.ndarray:
    """Permutation sorting rows by group ascending, then string descending (byte-wise)."""
    table = pa.table({'g': arrow_array(np.asarray(groups, dtype=np.int64)), 'd': values})
    return numbers(pc.sort_indices(table, sort_keys=[('g', 'ascending'), ('d', 'descending')])).astype(np.int64)


def equal(a: pa.Array, b: pa.Array) -> np.ndarray:
    """Element-wise ``a == b``."""
    return numbers(pc.equal(a, b).cast(pa.uint8())).astype(bool)


def less(a: pa.Array, b: pa.Array) -> np.ndarray:
    """Element-wise ``a < b``, byte-wise."""
    return numbers(pc.less(a, b).cast(pa.uint8())).astype(bool)
