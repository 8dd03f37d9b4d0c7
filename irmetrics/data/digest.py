"""One hash of several arrays, the same in every process and on every machine: what two processes compare to
know that they hold the same judgments, items or excluded cells without sending them to each other."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np


def digest(*parts: Any) -> str:
    """SHA-256 (hex) of ``parts``: arrays (by dtype, shape and little-endian bytes), numbers, strings or None."""
    h = hashlib.sha256()
    for part in parts:
        array = np.asarray(part)
        if array.dtype == object:                                   # None, a tuple of mixed things: its text
            array = np.frombuffer(repr(part).encode(), dtype=np.uint8)
        array = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder('<'))
        h.update(f'{array.dtype.str}{array.shape};'.encode())
        h.update(array.tobytes())
    return h.hexdigest()
