"""LAG: mean number of non-relevant documents above each relevant one (unretrieved: see the definition)."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import LAG
from .kernels import cutoff_of, kernel
from .table import RankedTable


@kernel(LAG)
def lag(measure: Measure, t: RankedTable) -> np.ndarray:
    rel, k, judged_only = measure['rel'], cutoff_of(measure), measure['judged_only']
    rank = t.rank_in(judged_only)
    relevant = t.relevant(rel) & (rank < k)
    judged_nonrel = (t.grade >= 0) & ~t.relevant(rel) & (rank >= 0) & (rank < k)
    num_rel = t.index.num_rel(rel).astype(np.float64)
    found = t.count(relevant)
    nonrel_in_top = np.minimum(t.ret_count(judged_only), k) - found
    nonrel_outside = t.index.count(low=0, high=rel) - t.count(judged_nonrel)
    lag_found = t.total(relevant, (rank[relevant] - t.count_before(relevant)).astype(np.float64))
    lag_missed = (num_rel - found) * (nonrel_in_top + nonrel_outside / 2.0)
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(num_rel > 0, (lag_found + lag_missed) / num_rel, np.nan)
