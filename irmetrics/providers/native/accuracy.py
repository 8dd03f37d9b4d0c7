"""Accuracy@k: share of (relevant, non-relevant) pairs of the top k in the right order."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import Accuracy
from .kernels import cutoff_of, kernel
from .table import RankedTable


@kernel(Accuracy)
def accuracy(measure: Measure, t: RankedTable) -> np.ndarray:
    k = cutoff_of(measure)
    relevant = t.relevant(measure['rel']) & (t.rank < k)
    m = t.count(relevant)
    nonrel = np.minimum(t.n_ret, k) - m                            # unjudged documents included
    nonrel_above = t.rank[relevant] - t.count_before(relevant)
    misordered = t.total(relevant, nonrel_above.astype(np.float64))
    with np.errstate(divide='ignore', invalid='ignore'):
        value = np.where(nonrel > 0, 1.0 - misordered / (nonrel * m), 1.0)
    return np.where(m > 0, value, np.nan)
