"""Hits@k: relevant documents in the top k."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import Hits
from .kernels import cutoff_of, kernel
from .table import RankedTable
from .ties import count_within, expects


@kernel(Hits)
def hits(measure: Measure, t: RankedTable) -> np.ndarray:
    return count_within(t, t.relevant(measure['rel']), cutoff_of(measure), measure['judged_only'], expects(measure))
