"""nDCG and DCG with log2 discount: linear gains (trec_eval ndcg / ndcg_cut) or exponential (gdeval, Burges)."""
import numpy as np

from ...core.measure import Measure
from .kernels import cutoff_of, kernel, safe_divide
from .table import QrelsIndex, RankedTable


def gain_of(grades: np.ndarray, gains: tuple | None, exp: bool = False) -> np.ndarray:
    """Gain of each grade: the grade itself, or ``gains[grade]``; negative grades gain 0.

    With ``exp`` the gain is ``2^gain - 1`` (gdeval, Burges et al.), still 0 for negative grades.
    """
    out = np.maximum(grades, 0).astype(np.float64)
    for grade, gain in gains or ():
        out[grades == grade] = gain
    return np.exp2(out) - 1.0 if exp else out


def discount(rank: np.ndarray) -> np.ndarray:
    """1 / log2(rank + 2) for 0-based ranks."""
    return 1.0 / np.log2(rank + 2.0)


def ideal_dcg(index: QrelsIndex, gains: tuple | None, cutoff: float, exp: bool = False) -> np.ndarray:
    """Per query, the DCG of the judged documents sorted by gain, cut at ``cutoff``."""
    def compute():
        q, position, g = index.ideal(gain_of(index.grades, gains, exp), cutoff)
        return np.bincount(q, weights=g * discount(position), minlength=index.nq)
    return index.cached(('ideal_dcg', gains, cutoff, exp), compute)


def _form(measure: Measure) -> tuple[tuple | None, bool]:
    gains = measure['gains'] if isinstance(measure['gains'], tuple) else None
    return gains, measure['dcg'] == 'exp-log2'


def _dcg(measure: Measure, t: RankedTable) -> np.ndarray:
    gains, exp = _form(measure)
    rank = t.rank_in(measure['judged_only'])
    within = (rank < cutoff_of(measure)) & (rank >= 0)
    return t.total(within, gain_of(t.grade[within], gains, exp) * discount(rank[within]))


@kernel('nDCG')
def ndcg(measure: Measure, t: RankedTable):
    gains, exp = _form(measure)
    return safe_divide(_dcg(measure, t), ideal_dcg(t.index, gains, cutoff_of(measure), exp))


@kernel('DCG')
def dcg(measure: Measure, t: RankedTable):
    return _dcg(measure, t)
