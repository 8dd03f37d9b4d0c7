"""Bpref, as trec_eval computes it (unjudged and negatively judged documents are skipped)."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import Bpref
from .kernels import kernel, safe_divide
from .table import RankedTable


@kernel(Bpref)
def bpref(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    relevant = t.relevant(rel)
    nonrel = (t.grade >= 0) & ~relevant
    num_rel = t.index.num_rel(rel).astype(float)
    num_nonrel = t.index.count(low=0, high=rel).astype(float)
    above = t.count_before(nonrel, at=relevant).astype(float)      # judged non-relevant ranked above
    q = t.query[relevant]
    r, n = num_rel[q], num_nonrel[q]
    penalty = safe_divide(np.minimum(above, r), np.minimum(n, r))
    terms = np.where(above > 0, 1.0 - penalty, 1.0)
    return safe_divide(t.total(relevant, terms), num_rel)
