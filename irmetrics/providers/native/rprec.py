"""Rprec: relevant documents in the top R, divided by R; or P@c at c = int(mult * R + 0.9)."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import Rprec
from .kernels import kernel, safe_divide
from .table import RankedTable
from .ties import count_within, expects


@kernel(Rprec)
def r_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    # R itself when mult = 1; a depth beyond any ranking (a huge mult) held where int64 holds it
    depth = np.minimum(measure['mult'] * t.index.num_rel(rel) + 0.9, 2.0 ** 62).astype(np.int64)
    hits = count_within(t, t.relevant(rel), depth[t.query], measure['judged_only'], expects(measure))
    return safe_divide(hits, depth)
