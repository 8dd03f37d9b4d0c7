"""nDCG with linear gains and log2 discount (trec_eval ndcg / ndcg_cut)."""
import numpy as np

from ...core.measure import Measure
from ...core.segments import ranges
from .kernels import cutoff_of, kernel, safe_divide
from .table import QrelsIndex, RankedTable


def gain_of(grades: np.ndarray, gains: tuple | None) -> np.ndarray:
    """Gain of each grade: the grade itself, or ``gains[grade]``; negative grades gain 0."""
    out = np.maximum(grades, 0).astype(np.float64)
    for grade, gain in gains or ():
        out[grades == grade] = gain
    return out


def discount(rank: np.ndarray) -> np.ndarray:
    """1 / log2(rank + 2) for 0-based ranks."""
    return 1.0 / np.log2(rank + 2.0)


def ideal_dcg(index: QrelsIndex, gains: tuple | None, cutoff: float) -> np.ndarray:
    """Per query, the DCG of the judged documents sorted by gain, cut at ``cutoff``."""
    def compute():
        g = gain_of(index.grades, gains)
        positive = g > 0
        q, g = index.query[positive], g[positive]
        order = np.lexsort((-g, q))
        q, g = q[order], g[order]
        position = ranges(np.bincount(q, minlength=index.nq))
        within = position < cutoff
        return np.bincount(q[within], weights=g[within] * discount(position[within]), minlength=index.nq)
    return index.cached(('ideal_dcg', gains, cutoff), compute)


@kernel('nDCG')
def ndcg(measure: Measure, t: RankedTable):
    gains = measure['gains'] if isinstance(measure['gains'], tuple) else None
    k = cutoff_of(measure)
    rank = t.rank_in(measure['judged_only'])
    within = (rank < k) & (rank >= 0)
    dcg = t.total(within, gain_of(t.grade[within], gains) * discount(rank[within]))
    return safe_divide(dcg, ideal_dcg(t.index, gains, k))
