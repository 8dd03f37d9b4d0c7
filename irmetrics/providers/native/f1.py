"""F1@k: harmonic mean of P@k (hits / k, or hits / n without a cutoff) and R@k."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import F1
from .kernels import cutoff_of, kernel, safe_divide
from .table import RankedTable
from .ties import count_within, expects


@kernel(F1)
def f1(measure: Measure, t: RankedTable) -> np.ndarray:
    rel, k = measure['rel'], cutoff_of(measure)
    judged_only = measure['judged_only']
    hits = count_within(t, t.relevant(rel), k, judged_only, expects(measure))
    depth = t.ret_count(judged_only) if k == np.inf else np.full(t.nq, k)
    precision, recall = safe_divide(hits, depth), safe_divide(hits, t.index.num_rel(rel))
    return np.where(hits > 0, safe_divide(2 * precision * recall, precision + recall), 0.0)
