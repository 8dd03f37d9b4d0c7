"""R@k: relevant documents in the top k, divided by the number of relevant documents."""
import numpy as np

from ...algebra.measure import Measure
from ...measures import R
from .kernels import kernel, safe_divide
from .table import RankedTable
from .ties import count_within, expects


@kernel(R)
def recall(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    hits = count_within(t, t.relevant(rel), measure['cutoff'], measure['judged_only'], expects(measure))
    return safe_divide(hits, t.index.num_rel(rel))
