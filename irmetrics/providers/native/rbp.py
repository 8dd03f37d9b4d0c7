"""RBP and its residual: geometric weights (1 - p) p^(i-1) over the ranks."""
import numpy as np

from ...core.measure import Measure
from ...core.params import NOT_PROVIDED
from .kernels import cutoff_of, kernel
from .table import RankedTable


def rbp_gain(measure: Measure, grade: np.ndarray) -> np.ndarray:
    """Binary (rel), scaled graded (max_rel) or raw graded gains; negative grades gain 0."""
    rel, max_rel = measure['rel'], measure['max_rel']
    if rel is not NOT_PROVIDED:
        return (grade >= rel).astype(np.float64)
    graded = np.maximum(grade, 0).astype(np.float64)
    if max_rel is not NOT_PROVIDED:
        return np.minimum(graded, max_rel) / max_rel
    return graded


@kernel('RBP')
def rank_biased_precision(measure: Measure, t: RankedTable):
    p = measure['p']
    within = t.rank < cutoff_of(measure)
    weight = (1.0 - p) * np.power(p, t.rank[within])
    return t.total(within, rbp_gain(measure, t.grade[within]) * weight)


@kernel('RBPResidual')
def rbp_residual(measure: Measure, t: RankedTable):
    # The weights of ranks 1..d and of the tail beyond d sum to 1; what is not on a judged rank is unknown.
    p = measure['p']
    judged = (t.grade >= 0) & (t.rank < cutoff_of(measure))
    return 1.0 - t.total(judged, (1.0 - p) * np.power(p, t.rank[judged]))
