"""Judged@k: the share of the top k that the qrels judge (with any grade)."""
import numpy as np

from ...core.measure import Measure
from .kernels import cutoff_of, kernel, safe_divide
from .table import RankedTable


@kernel('Judged')
def judged(measure: Measure, t: RankedTable):
    k = cutoff_of(measure)
    return safe_divide(t.count(t.rank < k), np.minimum(t.n_ret, k))
