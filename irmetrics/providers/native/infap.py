"""infAP, trec_eval's estimator (Yilmaz & Aslam 2006): -1 (any negative grade) is pooled-unjudged."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import infAP
from .kernels import kernel, safe_divide
from .table import RankedTable

EPSILON = 0.00001


@kernel(infAP)
def inferred_ap(measure: Measure, t: RankedTable) -> np.ndarray:
    rel, judged_only = measure['rel'], measure['judged_only']
    relevant = t.relevant(rel)
    nonrel = (t.grade >= 0) & ~relevant
    unjudged = (t.grade < 0) & (not judged_only)        # -J leaves none in the ranking
    rel_above = t.count_before(relevant, at=relevant).astype(float)
    nonrel_above = t.count_before(nonrel, at=relevant).astype(float)
    unj_above = t.count_before(unjudged, at=relevant).astype(float)
    j = t.rank_in(judged_only)[relevant].astype(float)  # 0-based position in the ranking
    pooled_fraction = safe_divide(rel_above + nonrel_above + unj_above, j)
    rel_fraction = (rel_above + EPSILON) / (rel_above + nonrel_above + 2 * EPSILON)
    terms = np.where(j == 0, 1.0, 1.0 / (j + 1) + (j / (j + 1)) * pooled_fraction * rel_fraction)
    return safe_divide(t.total(relevant, terms), t.index.num_rel(rel))
