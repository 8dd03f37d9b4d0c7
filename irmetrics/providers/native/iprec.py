"""Interpolated precision at a recall level, with trec_eval 9's rounding of the level."""
import numpy as np

from ...core.measure import Measure
from .kernels import kernel
from .table import RankedTable


@kernel('IPrec')
def interpolated_precision(measure: Measure, t: RankedTable):
    rel = measure['rel']
    relevant = t.relevant(rel)
    # trec_eval 9: the level is reached at the c-th relevant document, c = (long)(level * R + 0.9)
    needed = (measure['recall'] * t.index.num_rel(rel) + 0.9).astype(np.int64)
    num_rel_ret = t.count(relevant)
    q = t.query[relevant]
    seen = t.count_before(relevant) + 1
    precision = seen / (t.rank_in(measure['judged_only'])[relevant] + 1.0)
    reached = seen >= np.maximum(needed, 1)[q]
    out = np.zeros(t.nq)
    np.maximum.at(out, q[reached], precision[reached])
    out[needed > num_rel_ret] = 0.0
    return out
