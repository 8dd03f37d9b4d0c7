"""AP: sum of the precision at each relevant rank (within the cutoff), over R (or over the relevant retrieved);
YAAP: the log-odds of that sum against R."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import AP, YAAP
from .formulas import precision_at
from .kernels import cutoff_of, kernel, safe_divide
from .libm import log
from .table import RankedTable
from .ties import expected_ap, expects


@kernel(AP)
def average_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    mask = t.relevant(rel)
    rank = t.rank_in(measure['judged_only'])[mask]
    within = rank < cutoff_of(measure)
    if expects(measure):        # the divisor num_rel_ret then has no cutoff (the definition's check)
        sums = expected_ap(t, rel, cutoff_of(measure), measure['judged_only'])
    else:
        seen = t.count_before(mask) + 1                 # relevant documents up to and including this one
        sums = t.total(mask, np.where(within, precision_at(seen, rank), 0.0))
    if measure['divisor'] == 'num_rel_ret':
        return safe_divide(sums, t.total(mask, within.astype(np.float64)))
    return safe_divide(sums, t.index.num_rel(rel))


@kernel(YAAP)
def yet_another_average_precision(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    mask = t.relevant(rel)
    rank = t.rank_in(measure['judged_only'])[mask]
    found = t.total(mask, precision_at(t.count_before(mask) + 1, rank))                     # R * AP
    return log((1.0 + found) / ((1.0 + t.index.num_rel(rel)) - found))      # the C library's, as m_yaap.c's
