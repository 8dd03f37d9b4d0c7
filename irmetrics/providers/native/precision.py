"""P@k: relevant documents in the top k, divided by k (or by min(k, R) when relative)."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...measures import P
from .kernels import kernel, safe_divide
from .table import RankedTable
from .ties import count_within, expects


@kernel(P)
def precision(measure: Measure, t: RankedTable) -> np.ndarray:
    k, rel = measure['cutoff'], measure['rel']
    hits = count_within(t, t.relevant(rel), k, measure['judged_only'], expects(measure))
    if measure['relative']:
        return safe_divide(hits, np.minimum(t.index.num_rel(rel), k))
    return cast(np.ndarray, hits / k)
