"""NumQ, NumRel, NumRet: counts, computed also for queries missing from the run."""
import numpy as np

from ...algebra.measure import Measure
from ...algebra.params import NOT_PROVIDED
from ...measures import NumQ, NumRel, NumRet
from .kernels import kernel
from .table import RankedTable


@kernel(NumQ)
def num_q(measure: Measure, t: RankedTable) -> np.ndarray:
    return np.ones(t.nq)


@kernel(NumRel)
def num_rel(measure: Measure, t: RankedTable) -> np.ndarray:
    return t.index.num_rel(measure['rel']).astype(float)


@kernel(NumRet)
def num_ret(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    if measure['judged_nonrel']:
        return t.count((t.grade >= 0) & ~t.relevant(1 if rel is NOT_PROVIDED else rel))
    if rel is not NOT_PROVIDED:
        return t.count(t.relevant(rel))
    return t.ret_count(measure['judged_only']).astype(float)
