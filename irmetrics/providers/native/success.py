"""Success@k: 1 if any relevant document is in the top k."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import Success
from .kernels import kernel
from .table import RankedTable
from .ties import expected_success, expects


@kernel(Success)
def success(measure: Measure, t: RankedTable) -> np.ndarray:
    if expects(measure):
        return expected_success(t, measure['rel'], measure['cutoff'], measure['judged_only'])
    hits = t.relevant(measure['rel']) & (t.rank_in(measure['judged_only']) < measure['cutoff'])
    return (t.count(hits) > 0).astype(float)
