"""Arrow arrays to and from numpy without pandas (``pa.array`` and ``to_numpy`` of some types import it).

Used by the Arrow id layout and the large-file TREC reader; imported only when one of them is.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa


def numbers(values: Any) -> np.ndarray:
    """A numpy view (or one concatenation) of a null-free numeric Arrow array or chunked array."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    dtype = np.dtype(values.type.to_pandas_dtype())
    parts = [np.frombuffer(c.buffers()[1], dtype=dtype, count=len(c), offset=c.offset * dtype.itemsize)
             for c in chunks if len(c)]
    if not parts:
        return np.zeros(0, dtype=dtype)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def booleans(values: Any) -> np.ndarray:
    """A numpy bool array of a null-free Arrow boolean array."""
    return numbers(values.cast(pa.uint8())).astype(bool)


def arrow_array(values: np.ndarray) -> pa.Array:
    """A zero-copy Arrow view of a numeric numpy array."""
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def string_bytes(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The UTF-8 bytes of a null-free Arrow string array (``string`` or ``large_string``), concatenated, and
    the offsets (int64, one more than the strings) of each string's: views of its buffers, no copy but the
    offsets'."""
    n = len(values)
    off_type = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(values.buffers()[1], dtype=off_type, count=n + 1,
                            offset=values.offset * np.dtype(off_type).itemsize).astype(np.int64)
    data_buf = values.buffers()[2]
    return (np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)), offsets


def decimal_strings(values: np.ndarray) -> pa.Array:
    """Non-negative integers as their decimal text, by Arrow's cast (in C)."""
    return pa.array(np.asarray(values, dtype=np.int64)).cast(pa.large_string())


def take(values: pa.Array, indices: np.ndarray) -> pa.Array:
    """``values[indices]`` for an Arrow array and numpy integer indices."""
    return values.take(arrow_array(np.asarray(indices, dtype=np.int64)))


def combine(values: pa.ChunkedArray | pa.Array) -> pa.Array:
    """One array of a chunked one; strings go to 64-bit offsets when their bytes pass 2 GiB."""
    if not isinstance(values, pa.ChunkedArray):
        return values
    if values.num_chunks == 1:
        return values.chunk(0)
    if pa.types.is_string(values.type) and sum(c.nbytes for c in values.chunks) >= 2 ** 31 - 1:
        values = values.cast(pa.large_string())
    return values.combine_chunks()
