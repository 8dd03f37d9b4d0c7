"""ERR (Chapelle et al. 2009, as gdeval computes it) and nERR.

The probability of reaching rank i is the product of (1 - R_j) over the documents above it.  Grades
are small integers, so that product is computed exactly as prod_g (1 - R_g)^(n_g), with n_g the
number of documents of grade g above rank i: integer counts, no running product over the ranking.
"""
import numpy as np

from ...algebra.measure import Measure
from ...data.segments import offsets_of, running_count
from ...measures import ERR, nERR
from .kernels import cutoff_of, kernel, safe_divide
from .table import QrelsIndex, RankedTable
from .ties import expected_err, expects


def stop_probability(grade: np.ndarray, max_rel: int) -> np.ndarray:
    """R(g) = (2^g - 1) / 2^max_rel, grades clipped to [0, max_rel]."""
    return (np.exp2(np.clip(grade, 0, max_rel)) - 1.0) / 2.0 ** max_rel


def expected_reciprocal_rank(query: np.ndarray, position: np.ndarray, grade: np.ndarray, nq: int,
                             max_rel: int) -> np.ndarray:
    """Per query, ERR of rows sorted by (query, position) (0-based positions, rows of grade <= 0 allowed)."""
    keep = grade > 0
    query, position, grade = query[keep], position[keep], np.minimum(grade[keep], max_rel)
    offsets = offsets_of(query, nq)
    stop = stop_probability(grade, max_rel)
    reach = np.ones(len(query))
    for g in np.unique(grade):
        above = running_count(grade == g, query, offsets) - (grade == g)
        reach *= (1.0 - stop_probability(g, max_rel)) ** above
    return np.bincount(query, weights=stop * reach / (position + 1.0), minlength=nq)


def ideal_err(index: QrelsIndex, max_rel: int, cutoff: float) -> np.ndarray:
    """Per query, the ERR of the judged documents sorted by grade descending, cut at ``cutoff``."""
    def compute():
        q, position, g = index.ideal(index.grades, cutoff)
        return expected_reciprocal_rank(q, position, g, index.nq, max_rel)
    return index.cached(('ideal_err', max_rel, cutoff), compute)


def _err(measure: Measure, t: RankedTable) -> np.ndarray:
    if expects(measure):
        return expected_err(t, measure['max_rel'], cutoff_of(measure))
    within = t.rank < cutoff_of(measure)
    return expected_reciprocal_rank(t.query[within], t.rank[within], t.grade[within], t.nq, measure['max_rel'])


@kernel(ERR)
def err(measure: Measure, t: RankedTable):
    return _err(measure, t)


@kernel(nERR)
def normalised_err(measure: Measure, t: RankedTable):
    return safe_divide(_err(measure, t), ideal_err(t.index, measure['max_rel'], cutoff_of(measure)))
