"""The table of native kernels: measure name -> function(measure, table) -> per-query values.

Each family module registers its kernels here with :func:`kernel`; a kernel
holds only its maths and reads the shared :class:`~.table.RankedTable`.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...algebra.measure import Measure
from .table import RankedTable

Kernel = Callable[[Measure, RankedTable], np.ndarray]
KERNELS: dict[str, Kernel] = {}


def kernel(name: str) -> Callable[[Kernel], Kernel]:
    """Register ``fn`` as the native kernel of measure ``name``."""
    def register(fn: Kernel) -> Kernel:
        if name in KERNELS:
            raise ValueError(f'native kernel for {name} registered twice')
        KERNELS[name] = fn
        return fn
    return register


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0 where den is 0 (trec_eval's convention for empty denominators)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def cutoff_of(measure: Measure) -> float:
    """The measure's cutoff, or infinity when it has none."""
    k = measure['cutoff']
    return np.inf if not isinstance(k, int) else k
