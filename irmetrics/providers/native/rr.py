"""RR: reciprocal rank of the first relevant document (within the cutoff)."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...measures import RR
from . import formulas
from .kernels import cutoff_of, kernel
from .table import RankedTable
from .ties import expected_rr, expects


@kernel(RR)
def reciprocal_rank(measure: Measure, t: RankedTable) -> np.ndarray:
    if expects(measure):
        return expected_rr(t, measure['rel'], cutoff_of(measure), measure['judged_only'])
    rank = t.rank_in(measure['judged_only'])
    hits = t.relevant(measure['rel']) & (rank < cutoff_of(measure))
    first = t.first(hits, rank, empty=np.inf)
    return cast(np.ndarray, formulas.reciprocal_rank(first))
