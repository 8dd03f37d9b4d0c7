"""Interpolated precision at recall levels (IPrec) and its average over levels (IPrecAvg).

The level r is reached at the c-th relevant document retrieved, c from r and R by trec_eval 9's or
10's rounding; the interpolated precision there is the highest precision at that relevant document or
any later one, computed once per run for every relevant document (a suffix maximum) and read at c.
"""
import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, suffix_max
from ...measures import IPrec, IPrecAvg
from ...measures.iprec import recall_counts
from .kernels import kernel
from .table import RankedTable


def _interpolated(t: RankedTable, rel: int, judged_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, values): per query, where its relevant retrieved documents start, and at each of them
    the highest precision at it or below it."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        relevant = t.relevant(rel)
        query = t.query[relevant]
        seen = t.count_before(relevant) + 1
        precision = seen / (t.rank_in(judged_only)[relevant] + 1.0)
        return offsets_of(query, t.nq), suffix_max(precision, query)
    return t.memo(('interpolated', rel, judged_only), compute)


def _at_level(t: RankedTable, measure: Measure, level: float) -> np.ndarray:
    rel = measure['rel']
    offsets, best = _interpolated(t, rel, measure['judged_only'])
    found = np.diff(offsets)
    needed = recall_counts(level, t.index.num_rel(rel), measure['rounding'])
    out = np.zeros(t.nq)
    reached = (needed <= found) & (found > 0)
    out[reached] = best[offsets[:-1][reached] + np.maximum(needed[reached], 1) - 1]
    return out


@kernel(IPrec)
def interpolated_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    return _at_level(t, measure, measure['recall'])


@kernel(IPrecAvg)
def interpolated_precision_average(measure: Measure, t: RankedTable) -> np.ndarray:
    levels = measure['levels']
    total = np.zeros(t.nq)
    for level in reversed(levels):              # trec_eval adds from the highest level down
        total = total + _at_level(t, measure, level)
    return total / len(levels)
