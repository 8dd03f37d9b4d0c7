"""Vectorised helpers over Arrow string arrays (ids of queries and documents).

Ids stay in Arrow's compact string layout; these helpers give what the core
needs from them without a Python loop: a 64-bit fingerprint per string (to find
duplicate pairs fast), and integer codes in a vocabulary.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_MULT = np.uint64(0x100000001B3)          # FNV-1a 64-bit prime
_MIX = np.uint64(0x9E3779B97F4A7C15)      # golden-ratio constant
_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


def as_string_array(values) -> pa.Array:
    """A single-chunk ``pa.string()`` array (large strings are kept as they are)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if not isinstance(values, pa.Array):
        values = pa.array(values, type=pa.string())
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        values = values.cast(pa.string())
    return values


def fingerprint(values) -> np.ndarray:
    """A 64-bit hash of each string, computed eight bytes at a time.

    Equal strings give equal fingerprints; different strings collide with
    probability about 2**-64 per pair, so callers verify candidate matches exactly.
    """
    values = as_string_array(values)
    n = len(values)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    off_type = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(values.buffers()[1], dtype=off_type, count=n + 1,
                            offset=values.offset * np.dtype(off_type).itemsize)
    data_buf = values.buffers()[2]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    padded = np.zeros(len(data) + 8, np.uint8)
    padded[:len(data)] = data
    # word i = the 8 bytes starting at byte i (an unaligned, overlapping view)
    words = np.ndarray(shape=(len(data) + 1,), dtype=np.uint64, buffer=padded, strides=(1,))
    starts = offsets[:-1].astype(np.int64)
    lengths = (offsets[1:] - offsets[:-1]).astype(np.int64)
    with np.errstate(over='ignore'):
        out = lengths.astype(np.uint64) * _MIX
        for j in range((int(lengths.max()) + 7) // 8):
            word = words[np.minimum(starts + 8 * j, len(data))]
            kept_bits = np.clip(lengths - 8 * j, 0, 8).astype(np.uint64) * np.uint64(8)
            word &= np.where(kept_bits >= 64, _ALL_BITS, (np.uint64(1) << kept_bits) - np.uint64(1))
            out = (out ^ word) * _MULT
            out ^= out >> np.uint64(29)
    return out


def pair_fingerprint(codes: np.ndarray, values: pa.Array) -> np.ndarray:
    """Fingerprint of (integer code, string) pairs, e.g. (query, document)."""
    with np.errstate(over='ignore'):
        return fingerprint(values) ^ ((codes.astype(np.uint64) + np.uint64(1)) * _MIX)


def encode(values: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """(vocabulary in order of first appearance, int32 code per value)."""
    enc = pc.dictionary_encode(values)
    if isinstance(enc, pa.ChunkedArray):
        enc = enc.combine_chunks()
    return enc.dictionary, enc.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)


def lookup(values: pa.Array, vocabulary: pa.Array) -> np.ndarray:
    """Index of each value in ``vocabulary`` (int64), -1 where absent."""
    idx = pc.index_in(values, value_set=vocabulary)
    return idx.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)


def to_list(values: pa.Array) -> list[str]:
    return values.to_pylist()
