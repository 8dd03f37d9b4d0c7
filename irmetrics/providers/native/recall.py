"""R@k: relevant documents in the top k, divided by the number of relevant documents."""
from typing import cast

import numpy as np

from ...algebra.measure import Measure
from ...data.array_library import NUMPY
from ...measures import R
from . import formulas
from .kernels import kernel
from .table import RankedTable
from .ties import count_within, expects


@kernel(R)
def recall(measure: Measure, t: RankedTable) -> np.ndarray:
    rel = measure['rel']
    hits = count_within(t, t.relevant(rel), measure['cutoff'], measure['judged_only'], expects(measure))
    return cast(np.ndarray, formulas.recall(hits, t.index.num_rel(rel), NUMPY))
